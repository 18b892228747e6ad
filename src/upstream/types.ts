/**
 * Clean domain types of the reseller API, as the rest of the bot sees them. The zod schemas in
 * `schemas/` (one module per endpoint family, the quirk parsers in fields.ts) absorb the provider's
 * quirks (string booleans, numeric strings, `metode`/`method`, WIB timestamps) and produce exactly
 * these shapes. Amounts are always numbers (rupiah).
 */

export type TxState = "pending" | "success" | "failed";
export type DepositState = "pending" | "processing" | "success" | "expired" | "failed" | "cancel";

export interface Profile {
  name: string;
  username: string;
  email: string;
  phone: string;
  /** null when the provider sends a non-numeric placeholder (its own docs send "Saldo Anda"). */
  balance: number | null;
  balanceText: string;
  status: string;
}

export interface PrepaidProduct {
  code: string;
  name: string;
  category: string;
  type: string;
  provider: string;
  price: number;
  note: string;
  available: boolean;
  imgUrl?: string;
}

export interface PostpaidProduct {
  code: string;
  name: string; // `layanan`
  type: string;
  category: string;
  /** null: the list does not say (the bill's inquiry does). */
  admin: number | null;
  commission: number | null; // `komisi`
  note: string;
  available: boolean;
}

export interface PrepaidTransaction {
  id: string;
  reffId: string;
  productName: string; // `layanan`
  code: string;
  target: string;
  price: number;
  sn: string | null;
  status: TxState;
  /** Provider time parsed as WIB; null when the provider sent a placeholder. */
  createdAt: Date | null;
}

export interface BillPeriod {
  period: string; // `periode`
  amount: number | null; // `nilai_tagihan`
  admin: number | null;
  penalty: number | null; // `denda`
}

export interface BillInquiry {
  reffId: string;
  customerNo: string; // `nomor_pelanggan`
  customerName: string; // `nama_pelanggan`
  code: string;
  /** `harga`: the reseller's cost. Not what the customer owes. */
  price: number;
  adminFee: number; // `biaya_admin`
  /** `total_tagihan`: what the customer owes. Never recompute it. */
  total: number;
  tariff?: string; // `detail.tarif`
  power?: number; // `detail.daya`
  participants?: string; // `detail.jumlah_peserta`
  sheets?: number; // `detail.lembar_tagihan`
  periods: BillPeriod[];
}

export interface BillPayment {
  /** Provider id, when the response carries one (status lookups need it). */
  id?: string;
  reffId: string;
  customerNo: string;
  customerName: string;
  code: string;
  price: number; // `harga`
  sn: string | null;
  status: TxState;
  createdAt: Date | null;
  /** `layanan`, when a postpaid status lookup answers in the prepaid shape. */
  productName?: string;
}

export interface Bank {
  id: string;
  code: string; // `bank_code`
  name: string; // `bank_name`
  type: "bank" | "ewallet" | string;
}

export interface AccountCheck {
  bankCode: string; // `kode_bank`
  accountNumber: string; // `nomor_akun`
  holderName: string; // `nama_pemilik`
  status: "valid" | "invalid" | "processing";
}

export interface Transfer {
  id: string;
  reffId: string;
  holderName: string; // `nama`
  accountNumber: string; // `nomor_tujuan`
  amount: number; // `nominal`
  fee: number;
  total: number;
  status: TxState;
  bankCode?: string;
  email?: string;
  phone?: string;
  note?: string;
  createdAt: Date | null;
}

export type DepositType = "ewallet" | "bank" | "va";

export interface DepositMethod {
  method: string; // `metode`
  type: DepositType | string;
  name: string;
  min: number;
  max: number;
  fee: number;
  feePercent: number; // `fee_persen`
  active: boolean; // status `aktif`
  imgUrl?: string;
}

export interface Deposit {
  id: string;
  reffId: string;
  amount: number; // `nominal`
  extra: number; // `tambahan` (0 when absent)
  /** Absent in older answer shapes. */
  fee?: number;
  credited?: number; // `get_balance`, absent in older answer shapes
  status: DepositState;
  method?: string; // `metode` or `method` in status responses
  createdAt: Date | null;
  expiresAt: Date | null; // `expired_at`
  // type-specific fields from create
  qrString?: string;
  qrImage?: string;
  bank?: string;
  accountNumber?: string; // `tujuan`
  accountHolder?: string; // `atas_nama`
  url?: string;
  vaNumber?: string; // `nomor_va`
}

export interface DepositCancel {
  id: string;
  status: DepositState;
  createdAt: Date | null;
}

export interface InstantDeposit {
  id: string;
  reffId: string;
  amount: number; // `nominal`
  handlingFee: number; // `penanganan`
  totalFee: number; // `total_fee`
  received: number; // `total_diterima`
  status: DepositState;
  createdAt: Date | null;
}
