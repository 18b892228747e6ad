/**
 * A transfer's draft fields to a checked destination, shared by the owner's /transfer, a shop refund and
 * a downline's payout request (Telegram or H2H): the fee shown before the create is an estimate from the
 * chat's last transfer to the same kind of destination, else the most such a transfer costs.
 */
import type { Ledger } from "./ledger.js";
import { TRANSFER_FEE_MAX, type DestinationType } from "./transferFees.js";

/** The smallest transfer (the owner's /transfer, a downline's /tarik and H2H transfer/create). */
export const MIN_TRANSFER = 10_000;

export type BankType = DestinationType;

/** A transfer's `tx.detail` (records.ts) with the defaults filled in. */
export interface TransferDetail {
  holderName: string;
  bankType: BankType;
  /** "" when the user skipped the note. */
  note: string;
  /** The fee of an earlier transfer to the same kind of destination, shown as an estimate. */
  feeEstimate?: number;
  /** The most a transfer to this kind of destination costs, shown when there is no estimate. */
  feeBound?: number;
  /** Drafts saved before feeBound: the highest fee of the chat's earlier transfers. */
  feeHighest?: number;
}

/** A checked destination: the account exists and the provider named its holder. */
export interface TransferDestination {
  bankCode: string;
  bankName: string;
  bankType: BankType;
  accountNumber: string;
  holderName: string;
}

export function bankTypeOf(type: string): BankType {
  return type === "ewallet" ? "ewallet" : "bank";
}

/** How far back to look for an earlier fee: enough for any active chat, bounded for a huge history. */
export const FEE_LOOKBACK = 200;
export const LOOKUP_PAGE = 50;

/** The fee the provider charged on the chat's latest transfer to the same kind of destination. */
export async function lastTransferFee(ledger: Ledger, chatId: number, bankType: BankType): Promise<number | undefined> {
  for (let offset = 0; offset < FEE_LOOKBACK; offset += LOOKUP_PAGE) {
    const { items, total } = await ledger.page(chatId, offset, LOOKUP_PAGE);
    for (const tx of items) {
      if (tx.kind === "transfer" && tx.detail?.bankType === bankType && typeof tx.fee === "number") return tx.fee;
    }
    if (offset + LOOKUP_PAGE >= total) break;
  }
  return undefined;
}

/** What a transfer draft holds beyond its kind, status and owner. */
export interface TransferFields {
  code: string;
  title: string;
  target: string;
  amount: number;
  detail: TransferDetail;
}

/** The draft of a transfer to a checked destination (fee estimate, else the bound of its kind, looked up now). */
export async function transferFields(
  ledger: Ledger,
  chatId: number,
  dest: TransferDestination,
  amount: number,
  note: string,
): Promise<TransferFields> {
  const feeEstimate = await lastTransferFee(ledger, chatId, dest.bankType);
  const detail: TransferDetail = {
    holderName: dest.holderName,
    bankType: dest.bankType,
    note,
    ...(feeEstimate === undefined ? { feeBound: TRANSFER_FEE_MAX[dest.bankType] } : { feeEstimate }),
  };
  return { code: dest.bankCode, title: dest.bankName, target: dest.accountNumber, amount, detail };
}

