/**
 * The transfer money kind: a bank or e-wallet transfer confirmed through the shared confirm screen.
 * The provider tells the fee only in its answer to the create call (its bank list has no fees), so
 * the confirm screen shows an estimate from the chat's last transfer to the same kind of destination,
 * else the highest fee charged so far, else that the provider sets it; the receipt shows the real fee
 * and total. `tx.amount` is always the nominal.
 */
import type { Ledger } from "../../domain/ledger.js";
import { detailOf, type TxRecord } from "../../store/index.js";
import type { BaseContext } from "../context.js";
import { html, rupiah } from "../../render/format.js";
import type { DraftFields, MoneyKind } from "./kinds.js";

export type BankType = "bank" | "ewallet";

/** A transfer's `tx.detail` (records.ts) with the defaults filled in. */
export interface TransferDetail {
  holderName: string;
  bankType: BankType;
  /** "" when the user skipped the note. */
  note: string;
  /** The fee of an earlier transfer to the same kind of destination, shown as an estimate. */
  feeEstimate?: number;
  /** The highest fee of the chat's earlier transfers, shown when there is no estimate. */
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
const FEE_LOOKBACK = 200;
const LOOKUP_PAGE = 50;

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

/** The draft of a transfer to a checked destination (fee estimate, else the highest fee, looked up now). */
export async function transferDraft(
  ledger: Ledger,
  chatId: number,
  dest: TransferDestination,
  amount: number,
  note: string,
): Promise<DraftFields> {
  const feeEstimate = await lastTransferFee(ledger, chatId, dest.bankType);
  const feeHighest = feeEstimate === undefined ? await highestTransferFee(ledger, chatId) : undefined;
  const detail: TransferDetail = {
    holderName: dest.holderName,
    bankType: dest.bankType,
    note,
    ...(feeEstimate === undefined ? {} : { feeEstimate }),
    ...(feeHighest === undefined ? {} : { feeHighest }),
  };
  return { code: dest.bankCode, title: dest.bankName, target: dest.accountNumber, amount, detail: { ...detail } };
}

/** A transfer's detail with defaults: fields are optional in older records. */
export function transferDetail(tx: TxRecord): TransferDetail {
  const d = detailOf(tx, "transfer");
  return {
    holderName: d.holderName ?? "",
    bankType: d.bankType ?? "bank",
    note: d.note ?? "",
    ...(d.feeEstimate === undefined ? {} : { feeEstimate: d.feeEstimate }),
    ...(d.feeHighest === undefined ? {} : { feeHighest: d.feeHighest }),
  };
}

/** The bank's name, marked when it is an e-wallet (HTML). */
export function destinationName(ctx: BaseContext, name: string, type: BankType): string {
  return ctx.t(type === "ewallet" ? "transfer-dest-ewallet" : "transfer-dest-bank", { name: html(name) });
}

/** The fee and what leaves the balance: the estimate, else the highest fee so far, else neither is known. */
function feeLines(ctx: BaseContext, amount: number, d: TransferDetail): string {
  if (d.feeEstimate !== undefined) {
    return ctx.t("transfer-fee-estimate", { fee: rupiah(d.feeEstimate, ctx.lang), total: rupiah(amount + d.feeEstimate, ctx.lang), type: d.bankType });
  }
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
    return tx.amount + Math.max(transferDetail(tx).feeEstimate ?? 0, highest ?? 0);
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
