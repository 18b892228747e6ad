/** Transfer destinations and deposit methods, in the provider's wire shape. */

export interface BankDef {
  id: string;
  bank_code: string;
  bank_name: string;
  type: "bank" | "ewallet";
}

const BANKS: [string, string, string, "bank" | "ewallet"][] = [
  ["1", "mandiri", "Bank Mandiri", "bank"],
  ["2", "bca", "Bank Central Asia (BCA)", "bank"],
  ["3", "bni", "Bank Negara Indonesia (BNI)", "bank"],
  ["4", "bri", "Bank Rakyat Indonesia (BRI)", "bank"],
  ["5", "bsi", "Bank Syariah Indonesia (BSI)", "bank"],
  ["6", "cimb", "Bank CIMB Niaga", "bank"],
  ["7", "danamon", "Bank Danamon", "bank"],
  ["8", "permata", "Bank Permata", "bank"],
  ["9", "btn", "Bank Tabungan Negara (BTN)", "bank"],
  ["10", "ocbc", "Bank OCBC NISP", "bank"],
  ["11", "panin", "Bank Panin", "bank"],
  ["12", "mega", "Bank Mega", "bank"],
  ["13", "bjb", "Bank BJB", "bank"],
  ["14", "dki", "Bank DKI", "bank"],
  ["15", "seabank", "SeaBank Indonesia", "bank"],
  ["16", "jago", "Bank Jago", "bank"],
  ["166", "bpd_kaltim", "Bank BPD Kaltim", "bank"],
  ["167", "jago_syariah", "Bank Jago Syariah", "bank"],
  ["201", "dana", "DANA", "ewallet"],
  ["202", "ovo", "OVO", "ewallet"],
  ["203", "gopay", "GoPay", "ewallet"],
  ["204", "shopeepay", "ShopeePay", "ewallet"],
  ["205", "linkaja", "LinkAja", "ewallet"],
];

export function bankList(): BankDef[] {
  return BANKS.map(([id, bank_code, bank_name, type]) => ({ id, bank_code, bank_name, type }));
}

/** Transfer fee by destination type. */
export const TRANSFER_FEE = { bank: 2500, ewallet: 1000 } as const;

export type DepositType = "ewallet" | "bank" | "va";

export interface DepositMethodDef {
  metode: string;
  type: DepositType;
  name: string;
  min: number;
  max: number;
  fee: number;
  fee_persen: string;
  status: "aktif" | "nonaktif";
  img_url: string;
  /** Settles on payment (no H+1 processing step): qrisfast and bank transfers. */
  instant: boolean;
  /** Which create fields it returns. */
  kind: "qris" | "url" | "va" | "bank";
  expiry: "1h" | "3h" | "24h" | "endOfDay";
  /** For va/bank: the bank shown to the payer and its number prefix / account. */
  bank?: string;
  prefix?: string;
}

const m = (d: Omit<DepositMethodDef, "img_url" | "status"> & { status?: "aktif" | "nonaktif" }): DepositMethodDef => ({
  status: "aktif",
  img_url: `https://sandbox.invalid/img/deposit/${d.metode}.png`,
  ...d,
});

export function depositMethods(): DepositMethodDef[] {
  return [
    m({ metode: "qris", type: "ewallet", name: "QRIS", min: 10000, max: 10000000, fee: 0, fee_persen: "0.7", instant: false, kind: "qris", expiry: "1h" }),
    m({ metode: "qrisfast", type: "ewallet", name: "QRIS Fast", min: 10000, max: 5000000, fee: 0, fee_persen: "1.4", instant: true, kind: "qris", expiry: "1h" }),
    m({ metode: "dana", type: "ewallet", name: "E-Wallet DANA", min: 10000, max: 2000000, fee: 0, fee_persen: "1.5", instant: false, kind: "url", expiry: "3h" }),
    m({ metode: "ovo", type: "ewallet", name: "E-Wallet OVO", min: 10000, max: 2000000, fee: 0, fee_persen: "1.67", instant: false, kind: "url", expiry: "3h" }),
    m({ metode: "shopeepay", type: "ewallet", name: "E-Wallet ShopeePay", min: 10000, max: 2000000, fee: 0, fee_persen: "1.5", instant: false, kind: "url", expiry: "3h", status: "nonaktif" }),
    m({ metode: "bcava", type: "va", name: "Virtual Account BCA", min: 10000, max: 50000000, fee: 4000, fee_persen: "0", instant: false, kind: "va", expiry: "24h", bank: "BCA", prefix: "39358" }),
    m({ metode: "bniva", type: "va", name: "Virtual Account BNI", min: 10000, max: 50000000, fee: 3500, fee_persen: "0", instant: false, kind: "va", expiry: "24h", bank: "BNI", prefix: "8808" }),
    m({ metode: "briva", type: "va", name: "Virtual Account BRI", min: 10000, max: 50000000, fee: 3000, fee_persen: "0", instant: false, kind: "va", expiry: "24h", bank: "BRI", prefix: "26215" }),
    m({ metode: "bca", type: "bank", name: "Bank BCA", min: 10000, max: 100000000, fee: 0, fee_persen: "0", instant: true, kind: "bank", expiry: "endOfDay", bank: "BCA", prefix: "8730451122" }),
    m({ metode: "mandiri", type: "bank", name: "Bank Mandiri", min: 10000, max: 100000000, fee: 0, fee_persen: "0", instant: true, kind: "bank", expiry: "endOfDay", bank: "Mandiri", prefix: "1370017788991" }),
  ];
}

/** Wire shape of a method entry: every value a string. */
export function methodEntry(d: DepositMethodDef): Record<string, string> {
  return {
    metode: d.metode,
    type: d.type,
    name: d.name,
    min: String(d.min),
    max: String(d.max),
    fee: String(d.fee),
    fee_persen: d.fee_persen,
    status: d.status,
    img_url: d.img_url,
  };
}

/** Fixed fee plus percentage, rounded up as payment gateways do. */
export function depositFee(d: DepositMethodDef, amount: number): number {
  // Work in hundredths of a percent to keep 0.7% of 50000 exactly 350.
  const bp = Math.round(Number(d.fee_persen) * 100);
  return d.fee + Math.ceil((amount * bp) / 10000);
}

/** Holder name shown for bank deposits. */
export const DEPOSIT_ACCOUNT_HOLDER = "PT SANDBOX PEMBAYARAN NUSANTARA";
