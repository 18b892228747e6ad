/**
 * Postpaid bills as a money kind. A bill is paid with the reference id of its inquiry, so the
 * draft the confirm screen shows was made (and persisted) by the bill flow before the inquiry; the
 * payment reuses `tx.refId`. Amounts: `amount` is `total_tagihan` (what the customer owes, never
 * recomputed); the reseller's cost (`harga`) and the bill's details live in `tx.detail`.
 */
import { detailOf, type PostpaidDetail, type TxRecord, type TxStatus } from "../../store/index.js";
import type { BillInquiry, BillPeriod } from "../../upstream/types.js";
import type { BaseContext } from "../context.js";
import { billMonth, html, rupiah } from "../../render/format.js";
import type { DraftFields, MoneyKind } from "./kinds.js";
import { quoteBill, recost } from "../../domain/pricing.js";
import { chatRules } from "../pricing.js";
import { newRefId } from "./refs.js";

/** What a postpaid transaction keeps in `tx.detail` (JSON only). */
export interface BillDetail {
  customerName: string;
  periods: BillPeriod[];
  adminFee: number;
  /** `harga`: what the provider debits from the reseller's balance. */
  cost: number;
  tariff?: string;
  power?: number;
  participants?: string;
  sheets?: number;
}

/** The bill-specific fields of a draft, straight from the inquiry. */
export function billFields(inquiry: BillInquiry): Pick<DraftFields, "amount" | "detail"> {
  // Absent extras stay undefined: the store drops undefined properties.
  const detail: BillDetail = {
    customerName: inquiry.customerName,
    periods: inquiry.periods,
    adminFee: inquiry.adminFee,
    cost: inquiry.price,
    tariff: inquiry.tariff,
    power: inquiry.power,
    participants: inquiry.participants,
    sheets: inquiry.sheets,
  };
  return { amount: inquiry.total, detail: { ...detail } };
}

function billDetail(tx: TxRecord): PostpaidDetail {
  return detailOf(tx, "postpaid");
}

/** "202512" -> "Des 2025" / "Dec 2025"; other labels are shown as the provider sent them. */
export function periodLabel(period: string, lang: string): string {
  return billMonth(period, lang) ?? html(period);
}

function periodLine(ctx: BaseContext, p: BillPeriod): string {
  // BPJS gives the number of months ("1"), not a month.
  const months = /^\d{1,2}$/.exec(p.period.trim());
  const period = months ? ctx.t("bill-period-months", { count: Number(months[0]) }) : periodLabel(p.period, ctx.lang);
  if (p.amount === null) return ctx.t("bill-period-only", { period });
  if (p.penalty) return ctx.t("bill-period-penalty", { period, amount: rupiah(p.amount, ctx.lang), penalty: rupiah(p.penalty, ctx.lang) });
  return ctx.t("bill-period", { period, amount: rupiah(p.amount, ctx.lang) });
}

/** The confirm screen body: who, which periods, bill, admin, total owed and the reseller's cost. */
export function billConfirmText(ctx: BaseContext, tx: TxRecord, view?: { hideCost?: boolean }): string {
  const d = billDetail(tx);
  const periods = d.periods ?? [];
  const adminFee = d.adminFee ?? 0;
  const lines = [
    `<b>${ctx.t("kind-postpaid")}</b>: ${html(tx.title ?? tx.code ?? "")}`,
    ctx.t("bill-line-number", { number: `<code>${html(tx.target ?? "")}</code>` }),
    ctx.t("bill-line-name", { name: html(d.customerName ?? "") }),
  ];
  if (d.tariff || d.power) {
    lines.push(ctx.t("bill-line-tariff", { tariff: html(d.tariff ?? "-"), power: d.power ? `${d.power} VA` : "-" }));
  }
  if (d.participants) lines.push(ctx.t("bill-line-participants", { count: html(d.participants) }));
  if (periods.length > 0) {
    lines.push(ctx.t("bill-line-periods", { sheets: d.sheets ?? periods.length }));
    for (const p of periods) lines.push(periodLine(ctx, p));
  }
  // The bill before admin, for reading only: the total below is the provider's, as sent.
  if (tx.amount - adminFee > 0) lines.push(ctx.t("bill-line-bill", { amount: rupiah(tx.amount - adminFee, ctx.lang) }));
  lines.push(ctx.t("bill-line-admin", { amount: rupiah(adminFee, ctx.lang) }));
  lines.push(ctx.t("bill-line-total", { amount: rupiah(tx.amount, ctx.lang) }));
  const shopFee = tx.sale ? tx.sale.price - tx.amount : 0;
  if (shopFee > 0) lines.push(ctx.t("bill-line-shop-fee", { amount: rupiah(shopFee, ctx.lang) }));
  if (tx.sale) lines.push(ctx.t("bill-line-sale", { amount: rupiah(tx.sale.price, ctx.lang) }));
  // The owner's cost and profit: not for a cashier the owner shows no cost to.
  if (d.cost !== undefined && !view?.hideCost) lines.push(ctx.t("bill-line-cost", { amount: rupiah(d.cost, ctx.lang) }));
  if (tx.sale && !view?.hideCost) lines.push(ctx.t("bill-line-profit", { amount: rupiah(tx.sale.profit, ctx.lang) }));
  return lines.join("\n");
}

const PAY_STATUS = new Map<string, TxStatus>([
  ["pending", "pending"],
  ["success", "success"],
  ["failed", "failed"],
]);

export const postpaidKind: MoneyKind = {
  kind: "postpaid",
  confirmText: billConfirmText,
  // The reseller's cost when the inquiry gave one, else the bill total.
  cost: (tx) => billDetail(tx).cost ?? tx.amount,
  // The customer pays the bill plus the reseller's own admin fee; the provider is paid the bill only.
  async sale(ctx, tx) {
    const { price, profit } = quoteBill(await chatRules(ctx, tx.chatId), tx.amount, billDetail(tx).cost ?? tx.amount);
    return { price, profit };
  },

  async create(ctx, apiKey, tx) {
    // Same reference id as the inquiry: the provider pays exactly the bill it showed.
    const paid = await ctx.deps.upstream.billPay(apiKey, { code: tx.code ?? "", reffId: tx.refId, customerNo: tx.target ?? "" });
    const status = PAY_STATUS.get(paid.status) ?? "pending";
    return {
      upstreamId: paid.id,
      status,
      sn: paid.sn,
      // The charge as the payment reports it (the inquiry's figure stays on the confirm screen).
      detail: { ...billDetail(tx), cost: paid.price },
      ...(tx.sale && paid.price > 0 ? { sale: recost(tx.sale, paid.price) } : {}),
      // A failed payment carries its reason in `sn` at this provider.
      ...(status === "failed" && paid.sn ? { message: paid.sn } : {}),
    };
  },

  // A bill refusal naming the balance at all is read as the balance too low (the provider's words vary).
  lowBalance: (err) => /saldo|balance/i.test(err.providerMessage),

  async explainRejection(ctx, apiKey, tx, err) {
    if (!/saldo|balance/i.test(err.providerMessage)) return undefined;
    // Staff pay from the owner's balance and cannot deposit: they are sent to the owner.
    if (ctx.role.kind === "staff") return ctx.t("bill-low-balance-staff");
    const profile = await ctx.deps.upstream.getProfile(apiKey);
    const cost = billDetail(tx).cost;
    if (profile.balance === null || cost === undefined) return ctx.t("bill-low-balance-short");
    return ctx.t("bill-low-balance", { balance: rupiah(profile.balance, ctx.lang), cost: rupiah(cost, ctx.lang) });
  },

  // A bill is paid with its inquiry's reference id, so trying again means a fresh inquiry under a
  // new id (the bill may have changed, or been paid meanwhile). The engine saves the draft under
  // that id before the confirm screen, so the payment still uses a persisted id.
  async retryDraft(ctx, apiKey, tx) {
    if (!tx.code || !tx.target) return undefined;
    const refId = newRefId("postpaid", ctx.deps.clock.now());
    const inquiry = await ctx.deps.upstream.billInquiry(apiKey, { code: tx.code, reffId: refId, customerNo: tx.target });
    return { refId, code: tx.code, title: tx.title, target: tx.target, ...billFields(inquiry) };
  },
};
