/**
 * The H2H callbacks' durable outbox (docs/h2h.md "Callbacks"): one document per (transaction, status
 * word), written before the status change it tells is saved (the watcher's announce step), so a stop
 * loses none and a repeat of that step writes none twice. The body is fixed when queued: every retry
 * sends the same bytes, the same ids. Only the downline's figures (its wallet's price), as the
 * transaksi/status answer.
 */
import { DuplicateDocError, type DocKind, type Store, type TxRecord } from "../../store/index.js";
import * as z from "../../tools/zod.js";
import { H2hAccessKind } from "../../domain/h2hAccess.js";
import { depositData, depositStatus, paymentData, prepaidData, providerStatus, transferData } from "../../server/h2h/answers.js";

const OutboxSchema = z.object({
  /** The downline's chat (whose callback URL and key). */
  chat: z.int(),
  refId: z.string(),
  /** The JSON body, as sent on every try. */
  body: z.string().check(z.maxLength(8000)),
  attempts: z.int(),
  nextAt: z.number(),
  lastError: z.optional(z.string().check(z.maxLength(200))),
});
export type OutboxValue = z.infer<typeof OutboxSchema>;
/** id: `<refId>.<status word>`; owner: the network's owner; due | sent | dropped | expired. */
export const H2hCallbackKind: DocKind<OutboxValue> = { name: "h2h_callback", schema: OutboxSchema };

export type OutboxState = "due" | "sent" | "dropped" | "expired";

/** The provider's callback body for a transaction as it now stands (events as the provider names them). */
export function callbackBody(tx: Readonly<TxRecord>): string {
  if (tx.kind === "deposit") return JSON.stringify({ event: "deposit", status: depositStatus(tx.status), data: depositData(tx) });
  const status = providerStatus(tx.status);
  if (tx.kind === "postpaid") return JSON.stringify({ event: "transaksi.pascabayar", status, data: paymentData(tx) });
  if (tx.kind === "transfer") {
    // A payout request over H2H; the provider's transfer callback has no total.
    const { total: _total, ...data } = transferData(tx, false);
    return JSON.stringify({ event: "transfer", status, data });
  }
  return JSON.stringify({ event: "transaksi", status, data: prepaidData(tx) });
}

/** Made by a downline's system over H2H (a sale, a deposit, a payout request): told to that system by callback, not to its chat. */
export function madeOverH2h(tx: Pick<TxRecord, "clientRef" | "wallet">): boolean {
  return tx.clientRef !== undefined && tx.wallet !== undefined;
}

/**
 * Queues the callback for `tx` (already at its new status) when its downline set a callback URL.
 * The initial "pending" is the create's own answer, so only an outcome is queued (a deposit's paid is one). Idempotent: the
 * same (transaction, word) again queues nothing. Returns whether one is (now or already) queued.
 */
export async function queueH2hCallback(store: Store, tx: Readonly<TxRecord>, now: number): Promise<boolean> {
  if (!madeOverH2h(tx)) return false;
  const word = tx.kind === "deposit" ? depositStatus(tx.status) : providerStatus(tx.status);
  if (word === "pending") return false;
  const chat = tx.wallet!.chat;
  const access = await store.getDoc(H2hAccessKind, String(chat));
  if (access?.owner !== tx.chatId || access.value.callbackUrl === undefined) return false;
  const id = `${tx.refId}.${word}`;
  try {
    await store.createDoc(H2hCallbackKind, { id, owner: tx.chatId, state: "due", value: { chat, refId: tx.refId, body: callbackBody(tx), attempts: 0, nextAt: now } });
  } catch (err) {
    if (!(err instanceof DuplicateDocError)) throw err;
  }
  await store.flushDoc(H2hCallbackKind, id);
  return true;
}
