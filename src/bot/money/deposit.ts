/**
 * The deposit money kind: creating a deposit moves no money yet, but it goes through the same
 * confirm step (one reference id, one create call). After the create, the user gets payment
 * instructions instead of the generic receipt: a QRIS photo rendered locally, a VA number, a bank
 * account with the exact amount (unique add-on included) or an e-wallet pay button.
 *
 * `tx.detail` of a deposit (JSON):
 *   draft:   type, method, methodFee, methodFeePercent, requested, estimatedFee, estimatedCredited
 *   created: expiresAt (epoch ms | null), extra (tambahan), credited (get_balance), qrString, bank,
 *            accountNumber, accountHolder, vaNumber, url, photo (instructions sent as a photo),
 *            instructions ("due" until they were sent: see resendDueInstructions, sendOwedInstructions)
 *   release: instant ("sending" | "done" | "unknown"), handlingFee, offers (messages that offered it)
 *   cancel:  cancelling (epoch ms of the claim, while its provider call runs)
 */
import { InlineKeyboard, InputFile, type Api } from "grammy";
import type { InlineKeyboardMarkup } from "grammy/types";
import { detailOf, type DepositDetail, type Lang, type TxRecord } from "../../store/index.js";
import type { DepositMethod } from "../../upstream/types.js";
import type { Ledger } from "../../domain/ledger.js";
import { cb } from "../buttons.js";
import type { BotDeps } from "../context.js";
import { html, intlLocale, rupiah, wibTime } from "../../render/format.js";
import { DEFAULT_LANG, type Translate } from "../../render/i18n.js";
import { withSandboxBanner } from "../../render/sandboxBanner.js";
import { qrPng } from "../../render/qr.js";
import type { DraftFields, MoneyKind, Replier } from "./kinds.js";
import { depositFee } from "../../domain/depositFee.js";

/** Anything that translates: a context, or a stand-in built from `translate(lang, ...)` by the watcher. */
export interface Translator {
  t(key: string, vars?: Record<string, string | number>): string;
}

/** The deposit detail keys whose value is a `T`. */
type KeysOf<T> = { [K in keyof DepositDetail]-?: NonNullable<DepositDetail[K]> extends T ? K : never }[keyof DepositDetail];

/** A deposit detail text; "" counts as absent (the provider sends empty fields). */
export function detailString(tx: TxRecord, key: KeysOf<string>): string | undefined {
  const v = detailOf(tx, "deposit")[key];
  return v === undefined || v === "" ? undefined : v;
}

/** A deposit detail number; null (no expiry) counts as absent. */
export function detailNumber(tx: TxRecord, key: KeysOf<number>): number | undefined {
  return detailOf(tx, "deposit")[key] ?? undefined;
}

/** `Rp4.000 + 0,7%`, `0,7%`, `Rp4.000`, or "free", in the chat's number style. */
export function feeDescription(ctx: Translator & { lang: string }, fixed: number, percent: number): string {
  const pct = `${new Intl.NumberFormat(intlLocale(ctx.lang), { maximumFractionDigits: 2 }).format(percent)}%`;
  if (fixed > 0 && percent > 0) return `${rupiah(fixed, ctx.lang)} + ${pct}`;
  if (fixed > 0) return rupiah(fixed, ctx.lang);
  if (percent > 0) return pct;
  return ctx.t("deposit-fee-free");
}

/** The draft of a deposit of `amount` with `method` (the estimate uses the method's published fee). */
export function depositDraftFields(method: DepositMethod, amount: number): DraftFields {
  const estimatedFee = depositFee(method, amount);
  return {
    code: method.method,
    title: method.name,
    amount,
    detail: {
      type: method.type,
      method: method.method,
      methodFee: method.fee,
      methodFeePercent: method.feePercent,
      requested: amount,
      estimatedFee,
      estimatedCredited: Math.max(0, amount - estimatedFee),
    },
  };
}

function isBankTransfer(tx: TxRecord): boolean {
  return detailString(tx, "type") === "bank";
}

/** Buttons under a deposit's message for its current state; undefined once it is final. */
export function depositActionsKeyboard(ctx: Translator, tx: TxRecord): InlineKeyboard | undefined {
  const kb = new InlineKeyboard();
  const url = detailString(tx, "url");
  switch (tx.status) {
    case "pending":
      if (url) kb.url(ctx.t("deposit-button-pay"), url).row();
      return kb.text(ctx.t("button-check-status"), cb.status.encode({ refId: tx.refId })).text(ctx.t("deposit-button-cancel"), cb.depositCancel.encode({ refId: tx.refId }));
    case "processing":
      kb.text(ctx.t("button-check-status"), cb.status.encode({ refId: tx.refId }));
      // Offered until a release was asked for; the release itself is guarded in the feature.
      if (tx.upstreamId && detailOf(tx, "deposit").instant === undefined) kb.text(ctx.t("deposit-button-release"), cb.depositRelease.encode({ refId: tx.refId }));
      return kb;
    case "draft":
    case "success":
    case "failed":
    case "expired":
    case "cancel":
      return undefined;
    default:
      return kb.text(ctx.t("button-check-status"), cb.status.encode({ refId: tx.refId }));
  }
}

/** A paid deposit waiting for settlement whose release was never asked for. */
export function releasable(tx: Readonly<TxRecord>): boolean {
  return tx.kind === "deposit" && tx.status === "processing" && tx.upstreamId !== undefined && detailOf(tx, "deposit").instant === undefined;
}

/** Remembers a message offering the release (besides the deposit's own), so the release can update it. */
export async function rememberReleaseOffer(ledger: Ledger, tx: Readonly<TxRecord>, messageId: number): Promise<void> {
  if (!releasable(tx) || messageId === tx.messageId) return;
  const latest = await ledger.get(tx.refId);
  if (!latest) return;
  const d = detailOf(latest, "deposit");
  if (d.offers?.includes(messageId)) return;
  await ledger.update(tx.refId, { detail: { ...d, offers: [...(d.offers ?? []), messageId].slice(-10) } });
  await ledger.flush();
}

/** A claim older than this is a stopped process's: the provider call it covers ends long before. */
const CANCEL_CLAIM_MS = 2 * 60_000;

/**
 * Claims the cancel of a pending deposit in the store (compare-and-set, flushed) before the provider
 * call: of two taps, on this process or another behind the load balancer, one calls the provider.
 * The claimed record; "taken" while another claim runs or once another cancelled it (that one says
 * so, however late this tap comes); undefined once it is otherwise no longer pending.
 */
export async function claimCancel(ledger: Ledger, now: number, refId: string): Promise<Readonly<TxRecord> | "taken" | undefined> {
  const free = (c: Readonly<TxRecord>) => {
    const since = detailOf(c, "deposit").cancelling;
    return since === undefined || now - since > CANCEL_CLAIM_MS;
  };
  for (;;) {
    const latest = await ledger.get(refId);
    if (latest?.status === "cancel") return "taken";
    if (!latest || latest.status !== "pending") return undefined;
    if (!free(latest)) return "taken";
    // Unchanged since read, so the detail written back loses nothing another step wrote meanwhile.
    const unchanged = (c: Readonly<TxRecord>) => free(c) && c.updatedAt === latest.updatedAt;
    const claimed = await ledger.transition(refId, ["pending"], { detail: { ...detailOf(latest, "deposit"), cancelling: now } }, unchanged);
    if (claimed) {
      await ledger.flush();
      return claimed;
    }
  }
}

/** Removes our claim, whatever the status became meanwhile: a later cancel may ask the provider again. */
export async function dropCancelClaim(ledger: Ledger, claimed: Readonly<TxRecord>): Promise<void> {
  const ours = detailOf(claimed, "deposit").cancelling;
  for (;;) {
    const latest = await ledger.get(claimed.refId);
    if (!latest || detailOf(latest, "deposit").cancelling !== ours) return;
    const { cancelling: _claim, ...detail } = detailOf(latest, "deposit");
    const unchanged = (c: Readonly<TxRecord>) => c.updatedAt === latest.updatedAt;
    if (await ledger.transition(claimed.refId, [latest.status], { detail }, unchanged)) break;
  }
  await ledger.flush();
}

/** For the status watcher (`processingMarkup`): the same buttons in a chat's language, outside an update. */
export function depositProcessingMarkup(t: Translate, lang: Lang, tx: TxRecord): InlineKeyboardMarkup | undefined {
  return depositActionsKeyboard({ t: (key, vars) => t(lang, key, vars) }, tx);
}

/** Amount, fee, what lands in the balance and the deadline: shared by every payment screen. */
function amountLines(ctx: Pick<Replier, "t" | "lang">, tx: TxRecord): string[] {
  const credited = detailNumber(tx, "credited");
  const expiresAt = detailNumber(tx, "expiresAt");
  return [
    ctx.t("deposit-line-amount", { amount: rupiah(tx.amount, ctx.lang) }),
    ...(tx.fee === undefined ? [] : [ctx.t("deposit-line-fee", { fee: rupiah(tx.fee, ctx.lang) })]),
    ...(credited === undefined ? [] : [ctx.t("deposit-line-credited", { credited: rupiah(credited, ctx.lang) })]),
    ...(expiresAt === undefined ? [] : [ctx.t("deposit-line-expires", { time: wibTime(expiresAt, ctx.lang) })]),
  ];
}

/** The payment instructions of a created deposit (HTML), by what the provider returned. */
export function depositInstructionsText(deps: BotDeps, ctx: Pick<Replier, "t" | "lang">, tx: TxRecord): string {
  const title = ctx.t("deposit-instructions-title", { method: html(tx.title ?? tx.code ?? "") });
  const ref = ctx.t("deposit-line-ref", { ref: html(tx.refId) });
  const bank = detailString(tx, "bank");
  const body: string[] = [];
  if (detailString(tx, "qrString")) {
    body.push(ctx.t("deposit-qris-howto"), "", ...amountLines(ctx, tx));
  } else if (detailString(tx, "vaNumber")) {
    body.push(
      ctx.t("deposit-va-howto"),
      "",
      ctx.t("deposit-line-bank", { bank: html(bank ?? "") }),
      ctx.t("deposit-line-va", { va: html(detailString(tx, "vaNumber")!) }),
      ...amountLines(ctx, tx),
    );
  } else if (isBankTransfer(tx) && detailString(tx, "accountNumber")) {
    const extra = detailNumber(tx, "extra") ?? 0;
    body.push(
      ctx.t("deposit-bank-howto"),
      "",
      ctx.t("deposit-line-bank", { bank: html(bank ?? "") }),
      ctx.t("deposit-line-account", { account: html(detailString(tx, "accountNumber")!) }),
      ctx.t("deposit-line-holder", { holder: html(detailString(tx, "accountHolder") ?? "") }),
      // The provider's nominal already includes the unique add-on: it is the exact amount to send.
      ctx.t("deposit-line-transfer-exact", { digits: String(tx.amount), amount: rupiah(tx.amount, ctx.lang) }),
      ...amountLines(ctx, tx).slice(1),
      "",
      ctx.t("deposit-bank-exact-warning", { amount: rupiah(tx.amount, ctx.lang), extra: rupiah(extra, ctx.lang) }),
    );
  } else if (detailString(tx, "url")) {
    body.push(ctx.t("deposit-ewallet-howto"), "", ...amountLines(ctx, tx));
  } else {
    // Found after a lost create answer: the provider's status carries no code to pay with.
    body.push(ctx.t("deposit-no-code"), "", ...amountLines(ctx, tx));
  }
  return withSandboxBanner(deps.translate, ctx.lang, deps.sandbox, [title, ...body, ref, "", ctx.t("deposit-credit-on-success")].join("\n"));
}

export const depositKind: MoneyKind = {
  kind: "deposit",

  confirmText(ctx, tx) {
    const fixed = detailNumber(tx, "methodFee") ?? 0;
    const percent = detailNumber(tx, "methodFeePercent") ?? 0;
    const fee = detailNumber(tx, "estimatedFee") ?? 0;
    return [
      ctx.t("deposit-confirm-method", { method: html(tx.title ?? tx.code ?? "") }),
      ctx.t("deposit-line-amount", { amount: rupiah(tx.amount, ctx.lang) }),
      // A flat fee or none: the rule would only repeat the amount.
      fee === 0 || percent === 0
        ? ctx.t("deposit-confirm-fee-only", { fee: fee === 0 ? ctx.t("deposit-fee-free") : rupiah(fee, ctx.lang) })
        : ctx.t("deposit-confirm-fee", { fee: rupiah(fee, ctx.lang), rule: feeDescription(ctx, fixed, percent) }),
      ctx.t("deposit-confirm-credited", { credited: rupiah(detailNumber(tx, "estimatedCredited") ?? tx.amount - fee, ctx.lang) }),
      ...(isBankTransfer(tx) ? [ctx.t("deposit-confirm-bank-addon")] : []),
      ctx.t("deposit-confirm-note"),
    ].join("\n");
  },

  async create(ctx, apiKey, tx) {
    const type = detailString(tx, "type") ?? "";
    const method = tx.code ?? detailString(tx, "method") ?? "";
    const d = await ctx.deps.upstream.createDeposit(apiKey, { reffId: tx.refId, amount: tx.amount, type, method });
    const detail: DepositDetail = {
      ...detailOf(tx, "deposit"),
      type,
      method,
      expiresAt: d.expiresAt ? d.expiresAt.getTime() : null,
      extra: d.extra,
      ...(d.credited !== undefined ? { credited: d.credited } : {}),
      qrString: d.qrString,
      bank: d.bank,
      accountNumber: d.accountNumber,
      accountHolder: d.accountHolder,
      vaNumber: d.vaNumber,
      url: d.url,
      // Persisted with the create's answer, cleared once the instructions went out.
      ...(d.status === "pending" ? { instructions: "due" as const } : {}),
    };
    // An older answer shape has no fee: the screen then shows only what is known.
    return { upstreamId: d.id, status: d.status, amount: d.amount, ...(d.fee !== undefined ? { fee: d.fee } : {}), detail };
  },

  async retryDraft(ctx, apiKey, tx) {
    // Start from the current method list: the refusal may be a method switched off or new limits.
    const methods = await ctx.deps.lists.depositMethods(apiKey);
    const method = methods.find((m) => m.active && m.method === tx.code);
    const amount = detailNumber(tx, "requested") ?? tx.amount;
    if (!method || amount < method.min || amount > method.max) return undefined;
    return depositDraftFields(method, amount);
  },

  async announce(deps, to, tx) {
    if (tx.status !== "pending") return false; // unknown outcome or already final: the generic receipt says it
    const text = depositInstructionsText(deps, to, tx);
    const reply_markup = depositActionsKeyboard(to, tx);
    const qrString = detailString(tx, "qrString");
    const sent = qrString
      ? await to.sendPhoto(new InputFile(await qrPng(qrString), `qris-${tx.refId}.png`), { caption: text, reply_markup })
      : await to.send(text, { reply_markup });
    if (!(await recordInstructions(deps.ledger, tx.refId, sent.message_id, qrString !== undefined))) {
      // Told meanwhile on the message it had (a slow Telegram held this one): the outcome stands
      // there, and a payment screen for a deposit that moved on must not stay in the chat.
      await to.remove(sent.message_id).catch((err: unknown) => deps.logger.warn({ err, refId: tx.refId }, "could not take back a deposit's outdated payment instructions"));
    }
    await deps.ledger.flush();
    return true;
  },
};

/**
 * Makes a just-sent instructions message the deposit's own, only while it is still pending and no
 * notice is under way: a notice edits the message it read when it started, so a later switch would
 * leave the chat's deposit message unpayable and untold (chaos seed 1614). False: not recorded.
 */
async function recordInstructions(ledger: Ledger, refId: string, messageId: number, photo: boolean): Promise<boolean> {
  const open = (c: Readonly<TxRecord> | undefined): c is Readonly<TxRecord> => c?.status === "pending" && c.watch?.announcing === undefined;
  for (;;) {
    const latest = await ledger.get(refId);
    if (!open(latest)) return false;
    // From the latest detail: what a check learned since the send is kept.
    const { instructions: _due, ...detail } = detailOf(latest, "deposit");
    const unchanged = (c: Readonly<TxRecord>) => open(c) && c.updatedAt === latest.updatedAt;
    if (await ledger.transition(refId, ["pending"], { messageId, detail: photo ? { ...detail, photo: true } : detail }, unchanged)) return true;
  }
}

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
