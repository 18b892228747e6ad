/**
 * The one rendering of a transaction the user sees after a create, in a status notice, in
 * /status and in history details. Kind-specific lines come from `tx.detail` where present.
 */
import { detailOf, type TxRecord } from "../store/index.js";
import type { Lang } from "../store/index.js";
import type { Translate } from "./i18n.js";
import { html, rupiah, wibTime } from "./format.js";
import { costOf, isSale, sellingPrice } from "../domain/sale.js";
import { orderRefOfTx } from "../domain/shop/orders.js";

export const STATUS_ICON: Record<TxRecord["status"], string> = {
  draft: "📝",
  sending: "⏳",
  unknown: "❓",
  pending: "⏳",
  processing: "⏳",
  success: "✅",
  failed: "❌",
  expired: "⌛",
  cancel: "🚫",
};

/** A deposit's open states in its own words: unpaid is "waiting for payment", paid waits for settlement. */
const DEPOSIT_WORDS: Partial<Record<TxRecord["status"], string>> = {
  pending: "status-deposit-pending",
  processing: "status-deposit-processing",
};

export function statusLabel(t: Translate, lang: Lang, status: TxRecord["status"], kind?: TxRecord["kind"], releasing = false): string {
  const key = releasing && status === "processing" ? "status-deposit-releasing" : (kind === "deposit" && DEPOSIT_WORDS[status]) || `status-${status}`;
  return `${STATUS_ICON[status]} ${t(lang, key)}`;
}

/** A downline's deposit paid and waiting for the provider's settlement: its wallet is credited already (no H+1 for it). */
function walletPaid(tx: TxRecord): boolean {
  return tx.kind === "deposit" && tx.wallet !== undefined && tx.status === "processing";
}

/** What a transaction's sn is, for its label and copy button: a PLN token, a bill's reference, or a serial. */
export type SnKind = "token" | "bill" | "serial";

export function snKind(tx: TxRecord): SnKind {
  if (tx.kind === "postpaid") return "bill";
  const about = `${detailOf(tx, "prepaid").category ?? ""} ${tx.code ?? ""} ${tx.title ?? ""}`;
  return tx.kind === "prepaid" && /pln|listrik/i.test(about) ? "token" : "serial";
}

/** "Deposit", or "Deposit (toko online)" for a shop order's payment, purchase or refund in the owner's ledger. */
export function kindLabel(t: Translate, lang: Lang, tx: TxRecord): string {
  const kind = t(lang, `kind-${tx.kind}`);
  return orderRefOfTx(tx.refId) === undefined ? kind : `${kind} (${t(lang, "shop-sale-mark")})`;
}

/** A downline's own view of its purchase: what its wallet may spend once this outcome counts (walletLeftAfter). */
export type ReceiptTx = TxRecord & { readonly walletLeft?: number | undefined };

/** The wallet line of a downline's receipt: taken, back, or held, and what is left. */
function walletLine(t: Translate, lang: Lang, tx: ReceiptTx): string[] {
  if (!tx.wallet || tx.walletLeft === undefined || tx.kind === "deposit") return [];
  const key = tx.status === "success" ? "wallet-receipt-paid" : tx.status === "failed" || tx.status === "cancel" || tx.status === "expired" ? "wallet-receipt-back" : "wallet-receipt-held";
  return [t(lang, key, { price: rupiah(tx.wallet.price, lang), left: rupiah(tx.walletLeft, lang) })];
}

/** A receipt: what, to whom, how much, status, ids and times (HTML). */
export function receiptText(t: Translate, lang: Lang, tx: ReceiptTx): string {
  const line = (key: string, value: string | number | undefined | null) =>
    value === undefined || value === null || value === "" ? [] : [`${t(lang, key)}: ${value}`];
  const customer = detailOf(tx, "postpaid").customerName;
  const holder = detailOf(tx, "transfer").holderName;
  const orderRef = orderRefOfTx(tx.refId);
  // A failed sale or transfer charged nothing in the end: a fee and a total would read as a charge.
  const charged = tx.status !== "failed";
  const sale = charged && tx.sale !== undefined;
  const lines = [
    `<b>${html(kindLabel(t, lang, tx))}</b>${tx.title ? `: ${html(tx.title)}` : ""}`,
    ...line("receipt-target", tx.target && `<code>${html(tx.target)}</code>`),
    ...line("receipt-customer", customer === undefined ? undefined : html(customer)),
    ...line("receipt-holder", holder === undefined ? undefined : html(holder)),
    // A sale names its cost as the confirm screen did; a bill's amount is the customer's total, not the cost.
    // A sale with no cost kept (a cashier's view: domain/staff.ts withoutCost) has its selling price as
    // its amount: named as the price it is, as the owner's receipt names it.
    // A failed sale names its selling price too: its amount is the cost, and "Nominal" reads as face value.
    ...(sale ? line("receipt-cost", rupiah(costOf(tx), lang)) : isSale(tx) ? line("receipt-sale-price", rupiah(sellingPrice(tx), lang)) : line("receipt-amount", rupiah(tx.amount, lang))),
    ...line("receipt-fee", charged && tx.fee ? rupiah(tx.fee, lang) : undefined),
    ...line("receipt-total", charged && tx.total !== undefined && tx.total !== tx.amount ? rupiah(tx.total, lang) : undefined),
    // The reseller's own selling price and profit (never on the customer's receipt image).
    ...line("receipt-sale-price", sale ? rupiah(tx.sale!.price, lang) : undefined),
    ...line("receipt-profit", sale ? rupiah(tx.sale!.profit, lang) : undefined),
    ...line(`receipt-sn-${snKind(tx)}`, tx.sn ? `<code>${html(tx.sn)}</code>` : undefined),
    ...line("receipt-status", walletPaid(tx) ? `${STATUS_ICON.processing} ${t(lang, "wallet-deposit-status-paid")}` : statusLabel(t, lang, tx.status, tx.kind, tx.kind === "deposit" && detailOf(tx, "deposit").instant !== undefined)),
    // Only a refusal's reason helps the reader; internal notes of unknown outcomes stay out.
    ...line("receipt-message", tx.message && tx.status === "failed" ? html(tx.message) : undefined),
    ...walletLine(t, lang, tx),
    ...line("receipt-shop-order", orderRef && `<code>${html(orderRef)}</code>`),
    ...line("receipt-ref", `<code>${html(tx.refId)}</code>`),
    ...line("receipt-upstream-id", tx.upstreamId && `<code>${html(tx.upstreamId)}</code>`),
    ...line("receipt-created", wibTime(tx.createdAt, lang)),
  ];
  return lines.join("\n");
}
