/**
 * A downline's payout (docs/wallets.md "Money out"): a transfer record of the owner's ledger, made by the
 * downline, saved as a draft with its wallet part already held. Only the owner confirms it (with the
 * owner's key and balance, which pays the provider's fee); the wallet pays the amount only.
 */
import type { TxRecord } from "../store/index.js";

/** How long the owner has to confirm a payout before its draft is cancelled and the hold released. */
export const PAYOUT_CONFIRM_MS = 24 * 60 * 60_000;

/** A downline's payout: a transfer paid from a wallet (no other transfer has a wallet part). */
export function isPayout(tx: Pick<TxRecord, "kind" | "wallet">): boolean {
  return tx.kind === "transfer" && tx.wallet !== undefined;
}

/** A payout draft the owner left unconfirmed past its time. */
export function payoutExpired(tx: Pick<TxRecord, "kind" | "wallet" | "status" | "createdAt">, now: number): boolean {
  return isPayout(tx) && tx.status === "draft" && now - tx.createdAt > PAYOUT_CONFIRM_MS;
}
