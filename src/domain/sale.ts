/**
 * What a sale is, what it cost and what it earned: one definition for the receipt, the report,
 * the CSV export and the shop buttons.
 */
import { detailOf, type TxRecord } from "../store/index.js";

/** A sale to a customer: prepaid products and bills (transfers and deposits are the reseller's own). */
export function isSale(tx: TxRecord): boolean {
  return tx.kind === "prepaid" || tx.kind === "postpaid";
}

/**
 * What the provider took for it: the price charged (prepaid), what the provider debits for a bill
 * (its `harga`, the bill total less the provider's commission), the amount otherwise.
 */
export function costOf(tx: TxRecord): number {
  return tx.kind === "postpaid" ? (detailOf(tx, "postpaid").cost ?? tx.amount) : tx.amount;
}

/** What the customer paid: the selling price fixed at confirm time; a record from before selling prices, its amount. */
export function sellingPrice(tx: TxRecord): number {
  return tx.sale?.price ?? tx.amount;
}

/** What a downline's sale pays its uplines that are downlines themselves (docs/wallets.md rule 5). */
export function commissionsOf(tx: TxRecord): number {
  return (tx.wallet?.commissions ?? []).reduce((sum, c) => sum + c.amount, 0);
}

/**
 * What the reseller earned: selling price minus what the provider really took and, for a downline's
 * sale, minus the commissions its uplines earn (the owner keeps only its margin).
 */
export function profitOf(tx: TxRecord): number {
  return sellingPrice(tx) - costOf(tx) - commissionsOf(tx);
}
