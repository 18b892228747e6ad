/**
 * The transfer money kind: a bank or e-wallet transfer confirmed through the shared confirm screen.
 * The provider tells the fee only in its answer to the create call (its bank list and account check
 * have none), so the confirm screen shows an estimate from the chat's last transfer to the same kind
 * of destination, else the most such a transfer costs (domain/transferFees.ts); the receipt shows the
 * real fee and total. `tx.amount` is always the nominal.
 */
import type { Ledger } from "../../domain/ledger.js";
import { detailOf, type TxRecord } from "../../store/index.js";
import type { BaseContext } from "../context.js";
import { html, rupiah } from "../../render/format.js";
import type { DraftFields, MoneyKind } from "./kinds.js";
import { TRANSFER_FEE_MAX } from "../../domain/transferFees.js";
import { FEE_LOOKBACK, LOOKUP_PAGE, lastTransferFee, transferFields, type BankType, type TransferDestination, type TransferDetail } from "../../domain/transferDrafts.js";
import { isPayout } from "../../domain/payouts.js";

export { bankTypeOf, lastTransferFee, type BankType, type TransferDestination, type TransferDetail } from "../../domain/transferDrafts.js";

/** How far back "paid before" looks: a false "new account" past it is only a warning too many. */
const PAID_LOOKBACK = 1000;

/** Whether the chat's ledger has a successful transfer to this bank and account (docs/pin.md: "Rekening baru"). */
export async function paidBefore(ledger: Ledger, chatId: number, bankCode: string, accountNumber: string): Promise<boolean> {
  for (let offset = 0; offset < PAID_LOOKBACK; offset += LOOKUP_PAGE) {
    const { items, total } = await ledger.page(chatId, offset, LOOKUP_PAGE);
    if (items.some((tx) => tx.kind === "transfer" && tx.status === "success" && tx.code === bankCode && tx.target === accountNumber)) return true;
    if (offset + LOOKUP_PAGE >= total) break;
  }
  return false;
}

/**
 * The highest fee the provider charged on any of the chat's recent transfers. The create takes no
 * fee limit, so the confirm step refuses a transfer the balance could not pay with this fee.
 */
export async function highestTransferFee(ledger: Ledger, chatId: number): Promise<number | undefined> {
  let highest: number | undefined;
  for (let offset = 0; offset < FEE_LOOKBACK; offset += LOOKUP_PAGE) {
    const { items, total } = await ledger.page(chatId, offset, LOOKUP_PAGE);
    for (const tx of items) {
      if (tx.kind === "transfer" && typeof tx.fee === "number") highest = Math.max(highest ?? 0, tx.fee);
    }
    if (offset + LOOKUP_PAGE >= total) break;
  }
  return highest;
}

/**
 * The most the fee of a transfer to `bankType` may be, as the balance is checked against it: the highest
 * fee charged so far, and the bound of the destination's kind while no fee of that kind is known.
 */
export async function feeAtMost(ledger: Ledger, chatId: number, bankType: BankType): Promise<number> {
  const known = await lastTransferFee(ledger, chatId, bankType);
  const highest = (await highestTransferFee(ledger, chatId)) ?? 0;
  return Math.max(highest, known === undefined ? TRANSFER_FEE_MAX[bankType] : known);
}

/** The draft of a transfer to a checked destination (domain/transferDrafts.ts). */
export async function transferDraft(ledger: Ledger, chatId: number, dest: TransferDestination, amount: number, note: string): Promise<DraftFields> {
  const fields = await transferFields(ledger, chatId, dest, amount, note);
  return { ...fields, detail: { ...fields.detail } };
}

/** A transfer's detail with defaults: fields are optional in older records. */
export function transferDetail(tx: TxRecord): TransferDetail {
  const d = detailOf(tx, "transfer");
  return {
    holderName: d.holderName ?? "",
    bankType: d.bankType ?? "bank",
    note: d.note ?? "",
    ...(d.feeEstimate === undefined ? {} : { feeEstimate: d.feeEstimate }),
    ...(d.feeBound === undefined ? {} : { feeBound: d.feeBound }),
    ...(d.feeHighest === undefined ? {} : { feeHighest: d.feeHighest }),
  };
}

/** The bank's name, marked when it is an e-wallet (HTML). */
export function destinationName(ctx: BaseContext, name: string, type: BankType): string {
  return ctx.t(type === "ewallet" ? "transfer-dest-ewallet" : "transfer-dest-bank", { name: html(name) });
}

/** The fee and what leaves the balance: the estimate, else the bound of the destination's kind (older drafts: the highest so far). */
function feeLines(ctx: BaseContext, amount: number, d: TransferDetail): string {
  if (d.feeEstimate !== undefined) {
    return ctx.t("transfer-fee-estimate", { fee: rupiah(d.feeEstimate, ctx.lang), total: rupiah(amount + d.feeEstimate, ctx.lang), type: d.bankType });
  }
  if (d.feeBound !== undefined) return ctx.t("transfer-fee-bound", { fee: rupiah(d.feeBound, ctx.lang), total: rupiah(amount + d.feeBound, ctx.lang), type: d.bankType });
  if (d.feeHighest !== undefined) return ctx.t("transfer-fee-highest", { fee: rupiah(d.feeHighest, ctx.lang), total: rupiah(amount + d.feeHighest, ctx.lang) });
  return ctx.t("transfer-fee-unknown", { amount: rupiah(amount, ctx.lang) });
}

export const transferKind: MoneyKind = {
  kind: "transfer",

  confirmText(ctx, tx) {
    const d = transferDetail(tx);
    const lines = [
      ctx.t("transfer-confirm", {
        bank: destinationName(ctx, tx.title ?? tx.code ?? "", d.bankType),
        number: html(tx.target ?? ""),
        holder: html(d.holderName || "-"),
        amount: rupiah(tx.amount, ctx.lang),
      }),
      feeLines(ctx, tx.amount, d),
    ];
    if (d.note) lines.push(ctx.t("transfer-confirm-note", { note: html(d.note) }));
    return lines.join("\n");
  },

  async cost(tx, ctx) {
    const highest = await highestTransferFee(ctx.deps.ledger, tx.chatId);
    const d = transferDetail(tx);
    return tx.amount + Math.max(d.feeEstimate ?? 0, d.feeBound ?? 0, highest ?? 0);
  },

  async create(ctx, apiKey, tx) {
    const d = transferDetail(tx);
    const t = await ctx.deps.upstream.createTransfer(apiKey, {
      refId: tx.refId,
      bankCode: tx.code ?? "",
      accountNumber: tx.target ?? "",
      holderName: d.holderName,
      amount: tx.amount,
      note: d.note || undefined,
    });
    return { upstreamId: t.id, status: t.status, fee: t.fee, total: t.total };
  },

  // Same destination and amount with a new reference id, after checking the account again.
  async retryDraft(ctx, apiKey, tx) {
    // A downline's payout is asked again by the downline (/tarik): a retry here would be the owner's own money.
    if (isPayout(tx)) return undefined;
    const d = transferDetail(tx);
    const bankCode = tx.code ?? "";
    const accountNumber = tx.target ?? "";
    const check = await ctx.deps.upstream.checkAccount(apiKey, { bankCode, accountNumber });
    if (check.status !== "valid") return undefined;
    const dest: TransferDestination = {
      bankCode,
      bankName: tx.title ?? bankCode,
      bankType: d.bankType,
      accountNumber,
      holderName: check.holderName,
    };
    return transferDraft(ctx.deps.ledger, tx.chatId, dest, tx.amount, d.note);
  },
};
