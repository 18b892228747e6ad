/**
 * Deterministic behaviour of the sandbox: which inputs fail, who has a bill, which accounts are
 * valid. Rules depend only on the input so tests and demo users can pick an outcome by number.
 *
 * - Prepaid purchase: a target ending in "0000" fails after settleMs (price refunded); one ending
 *   in "5555" is answered successful at once, in the create's own answer; anything else succeeds
 *   after settleMs.
 *   A product listed `empty` is refused at create ("gangguan / stok kosong"); one set disturbed
 *   (`setDisturbed`) is listed available yet refused at create as out of order.
 * - Transfer: an account number ending in "000" fails after settleMs (total refunded).
 * - Account check: ending "999" -> invalid, ending "777" -> processing, otherwise valid with a
 *   masked holder name. Overridable per account with `setAccountStatus`.
 * - Bill inquiry (customer_no of 6..20 digits, else not found):
 *     ends in "99"           -> "Tagihan sudah dibayar" (paid elsewhere)
 *     last digit even        -> has a bill; sheets = 1 + (second-to-last digit % 3)
 *     last digit odd         -> "Nomor pelanggan tidak ditemukan"
 *   A BPJS number starting "8888802" gives each period as a number of months ("1"), as the
 *   provider does for some participants.
 *   A bill paid through the sandbox answers "Tagihan sudah dibayar" afterwards (unless the
 *   payment failed). Paying a customer number ending in "0000" fails (harga refunded).
 */
import type { PostpaidProductDef } from "./catalog.js";
import { fnv1a } from "../tools/hash.js";
import { WIB_OFFSET_MS } from "../tools/time.js";

/** A QRIS paid this long after its expired_at is still accepted (the provider's late-payment grace). */
export const LATE_QRIS_WINDOW_MS = 15 * 60_000;

export const prepaidFails = (target: string): boolean => target.endsWith("0000");
export const prepaidSucceedsAtOnce = (target: string): boolean => target.endsWith("5555");
export const transferFails = (accountNumber: string): boolean => accountNumber.endsWith("000");
export const billPaymentFails = (customerNo: string): boolean => customerNo.endsWith("0000");

/** Example customer numbers, valid for every postpaid code (the rules above decide). */
export const SANDBOX_CUSTOMERS = {
  oneSheet: "530112340002",
  twoSheets: "530112340012",
  threeSheets: "530112340022",
  paymentFails: "530112340000",
  notFound: "530112340001",
  alreadyPaid: "530112340099",
  bpjs: "8888801234560002",
  /** BPJS whose periods come as a number of months. */
  bpjsMonthCount: "8888802234560002",
} as const;

const NAMES = [
  "BUDI SANTOSO", "SITI RAHAYU", "AGUS PRASETYO", "DEWI LESTARI", "RUDI HARTONO", "NUR AINI",
  "EKO WIDODO", "SRI WAHYUNI", "DHIFO AKSA HERMAWAN", "PUTRI AMELIA", "HENDRA GUNAWAN", "RINA KURNIAWATI",
  "ARIF RAHMAN", "YULIANTI", "BAMBANG SUSILO", "FITRI HANDAYANI",
];

export function nameFor(seedText: string): string {
  return NAMES[fnv1a(seedText) % NAMES.length] ?? "PELANGGAN";
}

/** "DHIFO AKSA HERMAWAN" -> "DHXXX AKXX HEXXXXXX", as the provider masks holder names. */
export function maskName(name: string): string {
  return name
    .split(" ")
    .map((w) => w.slice(0, 2) + "X".repeat(Math.max(0, w.length - 2)))
    .join(" ");
}

export type AccountStatus = "valid" | "invalid" | "processing";

export function accountRule(accountNumber: string): { status: AccountStatus; holder: string } {
  if (!/^\d{5,20}$/.test(accountNumber) || accountNumber.endsWith("999")) return { status: "invalid", holder: "" };
  if (accountNumber.endsWith("777")) return { status: "processing", holder: "" };
  return { status: "valid", holder: maskName(nameFor(`acct:${accountNumber}`)) };
}

export interface BillDef {
  code: string;
  customerNo: string;
  name: string;
  /** What the customer owes: sum of periods (+ penalties) + admin per sheet. */
  total: number;
  /** The reseller's cost: total minus commission per sheet. Debited on payment. */
  harga: number;
  adminTotal: number;
  /** The `detail` object in wire shape (depends on the biller type). */
  detail: Record<string, unknown>;
}

export type BillLookup = { kind: "bill"; bill: BillDef } | { kind: "not_found" } | { kind: "paid" };


/** The `n` months before the current WIB month, oldest first, as "YYYYMM". */
function periodsBefore(now: number, n: number): string[] {
  const d = new Date(now + WIB_OFFSET_MS);
  const out: string[] = [];
  for (let i = n; i >= 1; i--) {
    const m = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - i, 1));
    out.push(`${m.getUTCFullYear()}${String(m.getUTCMonth() + 1).padStart(2, "0")}`);
  }
  return out;
}

export function lookupBill(product: PostpaidProductDef, customerNo: string, now: number): BillLookup {
  if (!/^\d{6,20}$/.test(customerNo)) return { kind: "not_found" };
  if (customerNo.endsWith("99")) return { kind: "paid" };
  const last = Number(customerNo.at(-1));
  if (last % 2 !== 0) return { kind: "not_found" };
  const sheets = 1 + (Number(customerNo.at(-2)) % 3);
  const h = fnv1a(`${product.code}:${customerNo}`);
  const periods = periodsBefore(now, sheets);
  const admin = product.admin;
  const amountFor = (periode: string): number => {
    const p = fnv1a(`${product.code}:${customerNo}:${periode}`);
    switch (product.type) {
      case "pln": return 50_000 + (p % 250_000);
      case "pdam": return 35_000 + (p % 120_000);
      case "internet": return ([245_000, 315_000, 385_000, 475_000][h % 4] ?? 245_000) + (p % 2_000);
      case "hp": return 50_000 + (p % 200_000);
      default: return 30_000 + (p % 80_000);
    }
  };
  let detail: Record<string, unknown>;
  let owed = 0;
  if (product.type === "bpjs") {
    // BPJS: premium per participant per month; periods carry only their label.
    const peserta = 1 + (h % 4);
    owed = peserta * 35_000 * sheets;
    const monthCount = customerNo.startsWith("8888802");
    detail = { jumlah_peserta: String(peserta), lembar_tagihan: sheets, detail: periods.map((periode) => ({ periode: monthCount ? "1" : periode })) };
  } else {
    const withPenalty = product.type === "pln" || product.type === "pdam";
    const rows = periods.map((periode, i) => {
      const nilai = amountFor(periode);
      // Older, unpaid sheets carry a late fee; the latest one does not.
      const denda = withPenalty && i < periods.length - 1 ? (product.type === "pln" ? 3_000 : 5_000) : 0;
      owed += nilai + denda;
      const row: Record<string, string> = { periode, nilai_tagihan: String(nilai), admin: String(admin) };
      if (withPenalty) row.denda = String(denda);
      return row;
    });
    detail = product.type === "pln"
      ? { tarif: ["R1", "R1M", "R2", "B1"][h % 4], daya: [900, 1300, 2200, 3500][(h >>> 3) % 4], lembar_tagihan: sheets, detail: rows }
      : { lembar_tagihan: sheets, detail: rows };
  }
  const adminTotal = admin * sheets;
  const total = owed + adminTotal;
  return {
    kind: "bill",
    bill: { code: product.code, customerNo, name: nameFor(`cust:${customerNo}`), total, harga: total - product.komisi * sheets, adminTotal, detail },
  };
}
