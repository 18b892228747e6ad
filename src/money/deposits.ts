/**
 * A deposit's record as every way in makes it (the bot's /deposit, a downline's wallet top-up, H2H's
 * deposit/create): the draft from the method and amount, the wallet part of a downline's top-up, and
 * the record's patch from the provider's create answer. Knows no Telegram and no HTTP.
 */
import { depositFee } from "../domain/depositFee.js";
import { detailOf, type DepositDetail, type TxRecord, type WalletPart } from "../store/index.js";
import type { UpstreamClient } from "../upstream/client.js";
import type { DepositMethod } from "../upstream/types.js";

/** The draft's fields of a deposit of `amount` with `method` (the estimate uses the method's published fee). */
export function depositDraft(method: DepositMethod, amount: number): { code: string; title: string; amount: number; detail: DepositDetail } {
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

/**
 * A downline's top-up (docs/wallets.md "By QRIS"): it holds nothing; once paid the wallet gets what
 * the owner's balance receives, as estimated on the draft.
 */
export function depositWalletPart(chat: number, tx: Pick<TxRecord, "kind" | "detail">): WalletPart {
  const credit = detailOf(tx as TxRecord, "deposit").estimatedCredited ?? 0;
  return { chat, price: 0, state: "draft", credit };
}

/** The provider's create with `apiKey` for the draft `tx`, as the record's patch. */
export async function createDeposit(upstream: UpstreamClient, apiKey: string, tx: Readonly<TxRecord>) {
  const draft = detailOf(tx, "deposit");
  const type = draft.type ?? "";
  const method = tx.code ?? draft.method ?? "";
  const d = await upstream.createDeposit(apiKey, { reffId: tx.refId, amount: tx.amount, type, method });
  const detail: DepositDetail = {
    ...draft,
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
}
