/**
 * A downline's payout request (docs/wallets.md "Money out"), the one place it is made for both entrances:
 * the downline's /tarik (bot/flows/payout.ts) and its system's transfer/create over H2H (h2hPayouts.ts).
 * A transfer draft of the owner's ledger made by the downline, its wallet part held in the draft's own
 * write (the store refuses it when the wallet has too little, nothing saved). Nothing is sent here: the
 * owner confirms it in Telegram. Knows no Telegram.
 */
import type { Ledger } from "../domain/ledger.js";
import { transferFields, type TransferDestination } from "../domain/transferDrafts.js";
import { DuplicateTxError, WalletShortError, type NewTx, type TxRecord } from "../store/index.js";
import type { MoneyEngine } from "./createOnce.js";

export interface PayoutAsk {
  /** The network's owner, whose ledger, key and confirmation it is. */
  owner: number;
  /** The downline whose wallet pays. */
  chat: number;
  /** The downline's name, shown on the owner's confirm screen. */
  name: string;
  dest: TransferDestination;
  amount: number;
  note: string;
  /** Our reference: a fresh one (/tarik) or made from the downline system's ref_id (H2H). */
  refId: string;
  /** H2H: the downline system's own ref_id, answered back as `reff_id`. */
  clientRef?: string;
}

/** The request saved (`fresh`: by this call; else one of the same reference made before), or the wallet's available when short. */
export type PayoutRequested =
  | { readonly ok: true; readonly tx: Readonly<TxRecord>; readonly fresh: boolean }
  | { readonly ok: false; readonly available: number };

export async function requestPayout(money: MoneyEngine, ledger: Ledger, ask: PayoutAsk): Promise<PayoutRequested> {
  const fields = await transferFields(ledger, ask.owner, ask.dest, ask.amount, ask.note);
  const draft: NewTx & { status: "draft" } = {
    ...fields,
    detail: { ...fields.detail, payoutName: ask.name },
    refId: ask.refId,
    chatId: ask.owner,
    by: ask.chat,
    kind: "transfer",
    status: "draft",
    wallet: { chat: ask.chat, price: ask.amount, state: "held" },
    ...(ask.clientRef !== undefined ? { clientRef: ask.clientRef } : {}),
  };
  try {
    return { ok: true, tx: await money.reserve(draft, true), fresh: true };
  } catch (err) {
    if (!(err instanceof WalletShortError) && !(err instanceof DuplicateTxError)) throw err;
    // Another call of the same reference saved it first (its hold may be what made this one short): that one.
    const earlier = await ledger.get(ask.refId);
    if (earlier) return { ok: true, tx: earlier, fresh: false };
    if (err instanceof WalletShortError) return { ok: false, available: err.available };
    throw err;
  }
}
