/**
 * The H2H answers in the provider's wire shapes (../shared/upstream-api-spec.md, as the sandbox answers
 * them): string `status` on get_profile and bank_list, numeric strings where the real payloads have
 * them. Only the downline's figures: `price` and `harga` are what its wallet pays.
 */
import { formatWib } from "../../tools/time.js";
import type { TxRecord, TxStatus } from "../../store/index.js";
import type { AccountCheck, Bank, DepositMethod, PostpaidProduct, PrepaidProduct } from "../../upstream/types.js";

export const ok = (data: unknown, code = 200) => ({ status: true, data, code });
export const refusal = (message: string, code: number) => ({ status: false, message, code });

/** Our statuses in the provider's three words. */
export function providerStatus(status: TxStatus): "pending" | "success" | "failed" {
  if (status === "success") return "success";
  if (status === "failed" || status === "cancel" || status === "expired") return "failed";
  return "pending";
}

/** What the downline pays: its wallet part's price. */
const paid = (tx: Readonly<TxRecord>) => tx.wallet?.price ?? tx.sale?.price ?? tx.amount;

export function prepaidData(tx: Readonly<TxRecord>) {
  return {
    id: tx.refId, reff_id: tx.clientRef ?? "", layanan: tx.title ?? tx.code ?? "", code: tx.code ?? "", target: tx.target ?? "",
    price: String(paid(tx)), sn: tx.sn ?? null, status: providerStatus(tx.status), created_at: formatWib(tx.createdAt),
  };
}

export function paymentData(tx: Readonly<TxRecord>) {
  const name = tx.kind === "postpaid" ? (tx.detail?.customerName ?? "") : "";
  return {
    id: tx.refId, reff_id: tx.clientRef ?? "", nomor_pelanggan: tx.target ?? "", nama_pelanggan: name, code: tx.code ?? "",
    harga: String(paid(tx)), sn: tx.sn ?? null, status: providerStatus(tx.status), created_at: formatWib(tx.createdAt),
  };
}

/** The inquiry as the provider answers it, from the saved bill; `harga` is the downline's price. */
export function inquiryData(tx: Readonly<TxRecord>) {
  const d = tx.kind === "postpaid" ? (tx.detail ?? {}) : {};
  const num = (v: number | null | undefined) => (v === null || v === undefined ? "0" : String(v));
  return {
    reff_id: tx.clientRef ?? "", nomor_pelanggan: tx.target ?? "", nama_pelanggan: d.customerName ?? "", code: tx.code ?? "",
    harga: paid(tx), biaya_admin: d.adminFee ?? 0, total_tagihan: tx.amount,
    detail: {
      ...(d.tariff !== undefined ? { tarif: d.tariff } : {}),
      ...(d.power !== undefined ? { daya: d.power } : {}),
      ...(d.participants !== undefined ? { jumlah_peserta: d.participants } : {}),
      lembar_tagihan: d.sheets ?? d.periods?.length ?? 1,
      detail: (d.periods ?? []).map((p) => ({ periode: p.period, nilai_tagihan: num(p.amount), admin: num(p.admin), denda: num(p.penalty) })),
    },
  };
}

export function prepaidEntry(p: PrepaidProduct) {
  return {
    code: p.code, name: p.name, category: p.category, type: p.type, provider: p.provider, price: String(p.price),
    note: p.note, status: p.available ? "available" : "empty", img_url: p.imgUrl ?? "",
  };
}

/** The commission is the owner's: a downline's list says 0. */
export function postpaidEntry(p: PostpaidProduct) {
  return {
    code: p.code, type: p.type, category: p.category, layanan: p.name, admin: String(p.admin ?? 0), komisi: "0",
    note: p.note, status: p.available ? "available" : "empty",
  };
}

export const bankEntry = (b: Bank) => ({ id: b.id, bank_code: b.code, bank_name: b.name, type: b.type });

export const accountCheckData = (a: AccountCheck) => ({ kode_bank: a.bankCode, nomor_akun: a.accountNumber, nama_pemilik: a.holderName, status: a.status });

export function profileAnswer(name: string, chat: number, available: number) {
  return {
    status: "true",
    message: "Data retrieved successfully",
    data: { name, username: `dl${chat}`, email: "", phone: "", balance: String(available), status: "active" },
  };
}

/**
 * A deposit's status in the provider's words: ours before the create answered is its `pending`. Paid
 * (`processing`) is `success` for the downline: its wallet, its balance, is credited then (the
 * provider's H+1 is the owner's; docs/h2h.md "Deposits").
 */
export function depositStatus(status: TxStatus): string {
  if (status === "processing") return "success";
  return status === "draft" || status === "sending" || status === "unknown" ? "pending" : status;
}

/** A deposit as the provider answers create and status; `get_balance` is what the downline's wallet receives. */
export function depositData(tx: Readonly<TxRecord>) {
  const d = tx.kind === "deposit" ? (tx.detail ?? {}) : {};
  return {
    id: tx.refId, reff_id: tx.clientRef ?? "", nominal: tx.amount, tambahan: d.extra ?? 0, fee: tx.fee ?? d.estimatedFee ?? 0,
    get_balance: tx.wallet?.credit ?? 0, metode: d.method ?? tx.code ?? "", status: depositStatus(tx.status),
    created_at: formatWib(tx.createdAt), expired_at: d.expiresAt ? formatWib(d.expiresAt) : null,
    ...(d.qrString ? { qr_string: d.qrString } : {}),
  };
}

export const depositCancelData = (tx: Readonly<TxRecord>) => ({ id: tx.refId, status: depositStatus(tx.status), created_at: formatWib(tx.createdAt) });

/**
 * A payout request over H2H as the provider's transfer (create, status, callback). The wallet pays the
 * amount only (the provider's fee is the owner's): `fee` 0, `total` the amount. A declined or expired
 * request is `failed` (providerStatus: the money is back in the wallet).
 */
export function transferData(tx: Readonly<TxRecord>, forStatus: boolean) {
  const d = tx.kind === "transfer" ? (tx.detail ?? {}) : {};
  return {
    id: tx.refId, reff_id: tx.clientRef ?? "", nama: d.holderName ?? "", nomor_tujuan: tx.target ?? "", nominal: String(tx.amount),
    fee: 0, total: tx.amount, status: providerStatus(tx.status),
    ...(forStatus ? { bank_code: tx.code ?? "" } : {}),
    detail: { email: "", phone: "", note: d.note ?? "" }, created_at: formatWib(tx.createdAt),
  };
}

/** A deposit method as the provider lists it (every value a string). */
export function depositMethodEntry(m: DepositMethod) {
  return {
    metode: m.method, type: m.type, name: m.name, min: String(m.min), max: String(m.max), fee: String(m.fee),
    fee_persen: String(m.feePercent), status: m.active ? "aktif" : "nonaktif", img_url: m.imgUrl ?? "",
  };
}
