/**
 * A deposit's payment instructions that could not go out with its create's answer (Telegram down, a
 * stop): recorded as sent once they were, sent at start for the ones still due, and when the watcher
 * finds a deposit whose answer was lost.
 */
import { type Api } from "grammy";
import { detailOf, type Lang, type TxRecord } from "../../store/index.js";
import type { BotDeps } from "../context.js";
import { DEFAULT_LANG } from "../../render/i18n.js";
import type { Replier } from "./kinds.js";
import { depositKind } from "./deposit.js";

/**
 * A deposit found pending after its create's answer was lost owes its payment instructions (the
 * lookup marked them "due"): sent once, by whichever check saw it first (the mark is taken by a
 * compare-and-set before the send, and put back if the send fails).
 */
export async function sendOwedInstructions(api: Api, deps: BotDeps, tx: Readonly<TxRecord>): Promise<boolean> {
  const owes = (c: Readonly<TxRecord> | undefined): c is Readonly<TxRecord> => c?.kind === "deposit" && c.status === "pending" && detailOf(c, "deposit").instructions === "due";
  if (!owes(tx)) return false;
  let claimed: Readonly<TxRecord> | undefined;
  while (!claimed) {
    const latest = await deps.ledger.get(tx.refId);
    if (!owes(latest)) return false;
    const { instructions: _due, ...rest } = detailOf(latest, "deposit");
    claimed = await deps.ledger.transition(tx.refId, ["pending"], { detail: rest }, (c) => owes(c) && c.updatedAt === latest.updatedAt);
  }
  await deps.ledger.flush();
  try {
    return await depositKind.announce!(deps, await replierFor(api, deps, claimed), claimed);
  } catch (err) {
    const latest = await deps.ledger.get(tx.refId);
    if (latest?.status === "pending") await deps.ledger.update(tx.refId, { detail: { ...detailOf(latest, "deposit"), instructions: "due" } });
    throw err;
  }
}

async function replierFor(api: Api, deps: BotDeps, tx: Readonly<TxRecord>, stop?: AbortSignal): Promise<Replier> {
  // grammY types its signal with the abort-controller package's AbortSignal; Node's is the same at run time.
  const signal = stop as Parameters<Api["sendMessage"]>[3];
  const lang: Lang = (await deps.settings.language(tx.chatId)) ?? DEFAULT_LANG;
  return {
    chatId: tx.chatId,
    lang,
    t: (key, vars) => deps.translate(lang, key, vars),
    send: (text, other) => api.sendMessage(tx.chatId, text, other, signal),
    sendPhoto: (photo, other) => api.sendPhoto(tx.chatId, photo, other, signal),
    remove: (messageId) => api.deleteMessage(tx.chatId, messageId, signal),
  };
}

/**
 * At start: open deposits whose instructions never went out (the process died between the create
 * and the QR photo) get them now, in their chat's language. Returns how many were sent; `signal`
 * (a stop) cuts the sends and their retries, and what was not sent stays due for the next start.
 */
export async function resendDueInstructions(api: Api, deps: BotDeps, signal?: AbortSignal): Promise<number> {
  let sent = 0;
  for (const tx of await deps.ledger.open()) {
    if (signal?.aborted) break;
    if (tx.kind !== "deposit" || tx.status !== "pending" || detailOf(tx, "deposit").instructions !== "due") continue;
    try {
      if (await depositKind.announce!(deps, await replierFor(api, deps, tx, signal), tx)) sent++;
    } catch (err) {
      if (!signal?.aborted) deps.logger.warn({ err, refId: tx.refId }, "could not send a deposit's payment instructions; retried at next start");
    }
  }
  return sent;
}
