/**
 * Zod schemas for the `data` part of every response, transforming the provider's loose payloads
 * into the clean types of `types.ts`. The quirks they absorb are listed in docs/provider.md: amounts
 * as numbers or numeric strings, `metode`/`method`, `ref_id`/`reff_id`, WIB timestamps, placeholders
 * ("xxxx", "Saldo Anda"), `sn: null`, absent `tambahan`. Unknown fields are dropped. The envelope (`status`, `message`, `code`) is handled in
 * `decode.ts`.
 *
 * Over 350 lines: one schema per endpoint (15) plus the quirk parsers they share; split by endpoint,
 * each file would import the same parsers and the quirks would be read in many places.
 */
import * as z from "../tools/zod.js";
import { parseWib } from "../tools/time.js";
import type {
  AccountCheck,
  Bank,
  BillInquiry,
  BillPayment,
  BillPeriod,
  Deposit,
  DepositCancel,
  DepositMethod,
  DepositState,
  InstantDeposit,
  PostpaidProduct,
  PrepaidProduct,
  PrepaidTransaction,
  Profile,
  Transfer,
  TxState,
} from "./types.js";

// ---------------------------------------------------------------------------------------------
// Primitive coercions

/**
 * Whole rupiah, optionally with 1-2 decimals ("100113", "100113.00"). A dot followed by three
 * digits is rejected on purpose: in id-ID formatting "1.000" means one thousand, not one.
 */
const MONEY_TEXT = /^\d+(\.\d{1,2})?$/;
const PERCENT_TEXT = /^\d+([.,]\d+)?$/;
const INT_TEXT = /^\d+$/;

/** Number from a JSON number or numeric string; undefined when it is not an amount. */
export function parseMoney(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) && v >= 0 ? v : undefined;
  if (typeof v === "string" && MONEY_TEXT.test(v.trim())) return Number(v.trim());
  return undefined;
}

function parsePercent(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) && v >= 0 ? v : undefined;
  if (typeof v === "string" && PERCENT_TEXT.test(v.trim())) return Number(v.trim().replace(",", "."));
  return undefined;
}

function parseInteger(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isInteger(v) ? v : undefined;
  if (typeof v === "string" && INT_TEXT.test(v.trim())) return Number(v.trim());
  return undefined;
}

/**
 * Start of every field coercion. `z.optional` matters in zod 4: without it an absent key fails
 * with "expected nonoptional" before our transform can supply a default (or name what is missing).
 */
const input = () => z.optional(z.unknown());

/** `schema`'s output through `fn` (classic zod's `.transform`; zod/mini has none, zod.ts says why mini). */
function mapped<S extends z.ZodMiniType, T>(schema: S, fn: (v: z.output<S>, ctx: z.core.ParsePayload) => T) {
  return z.pipe(schema, z.transform(fn));
}

/** A schema that accepts anything `fn` can convert and fails with `expected <what>` otherwise. */
function coerce<T>(what: string, fn: (v: unknown) => T | undefined) {
  return mapped(input(), (v, ctx): T => {
    const out = fn(v);
    if (out === undefined) {
      // No input value in the message: it could be anything the provider sent.
      ctx.issues.push({ code: "custom", message: `expected ${what}`, input: v });
      return z.NEVER;
    }
    return out;
  });
}

const asText = (v: unknown): string | undefined =>
  typeof v === "string" ? v : typeof v === "number" && Number.isFinite(v) ? String(v) : undefined;

/** Required amount; a non-numeric value is a schema failure. */
const money = coerce("a numeric amount", parseMoney);
/** Amount where types.ts allows null: absent or non-numeric becomes null. */
const moneyOrNull = mapped(input(), (v) => parseMoney(v) ?? null);
/** `tambahan`: absent or null means 0; present but non-numeric is still a failure. */
/** Amount an older answer shape may leave out: absent or null is undefined; present, it must be a number. */
const optMoney = mapped(
  coerce("a numeric amount", (v) => (v === undefined || v === null ? null : parseMoney(v))),
  (v) => v ?? undefined,
);
const moneyDefault0 = coerce("a numeric amount", (v) => (v === undefined || v === null ? 0 : parseMoney(v)));
const percent = coerce("a numeric percentage", parsePercent);
const optInt = mapped(input(), (v) => parseInteger(v));

/** Identifier: string or number (some ids may arrive as JSON numbers), must not be empty. */
const id = coerce("a non-empty identifier", (v) => {
  const t = asText(v)?.trim();
  return t ? t : undefined;
});
/** Required string-ish value that may be empty. */
const reqText = coerce("a string", asText);
/**
 * Display strings from the provider can be any length (a 6,000-character name was seen); longer
 * ones are cut with an ellipsis here, so no screen has to guard each insertion.
 */
const MAX_TEXT = 256;
const MAX_NOTE = 1000;
function clipText(t: string, max: number): string {
  if (t.length <= max) return t;
  const cut = /[\uD800-\uDBFF]/.test(t[max - 2] ?? "") ? max - 2 : max - 1; // keep surrogate pairs whole
  return `${t.slice(0, cut)}…`;
}
/** Display text: absent or null becomes "". */
const text = mapped(input(), (v) => clipText(asText(v) ?? "", MAX_TEXT));
/** A product's note (instructions): longer than a name, still bounded. */
const note = mapped(input(), (v) => clipText(asText(v) ?? "", MAX_NOTE));
/** Optional text: absent, null or blank becomes undefined. */
const optText = mapped(input(), (v) => {
  const t = asText(v);
  return t !== undefined && t.trim() !== "" ? t : undefined;
});
/** Serial number: null (or blank) until the provider has one. */
const sn = mapped(input(), (v) => {
  const t = asText(v);
  return t !== undefined && t.trim() !== "" ? t : null;
});
/** WIB timestamp; placeholders, absent or malformed values become null. */
const wibTime = mapped(input(), (v) => (typeof v === "string" ? parseWib(v) : null));

/** Case-insensitive state names. "processing" on a purchase is still pending for us. */
const TX_STATES: Record<string, TxState> = {
  pending: "pending",
  processing: "pending",
  success: "success",
  failed: "failed",
};
const DEPOSIT_STATES: Record<string, DepositState> = {
  pending: "pending",
  processing: "processing",
  success: "success",
  expired: "expired",
  failed: "failed",
  cancel: "cancel",
  canceled: "cancel",
  cancelled: "cancel",
};
const ACCOUNT_STATES: Record<string, AccountCheck["status"]> = {
  valid: "valid",
  invalid: "invalid",
  processing: "processing",
};

function stateOf<S extends string>(what: string, table: Record<string, S>) {
  return coerce(what, (v) => (typeof v === "string" ? table[v.trim().toLowerCase()] : undefined));
}
const txState = stateOf("pending, success or failed", TX_STATES);
const depositState = stateOf("a deposit state", DEPOSIT_STATES);
const accountState = stateOf("valid, invalid or processing", ACCOUNT_STATES);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Fills a canonical key from its alternative spellings when the canonical one is absent or null
 * (`metode`/`method`, `reff_id`/`ref_id`, `harga`/`price`...). Failures still name the canonical key.
 */
function withAliases<S extends z.ZodMiniType>(aliases: Record<string, string[]>, schema: S) {
  return z.pipe(z.transform((raw: unknown) => {
    if (!isRecord(raw)) return raw;
    const out: Record<string, unknown> = { ...raw };
    for (const [key, alternatives] of Object.entries(aliases)) {
      if (out[key] !== undefined && out[key] !== null) continue;
      const found = alternatives.find((a) => out[a] !== undefined && out[a] !== null);
      if (found) out[key] = out[found];
    }
    return out;
  }), schema);
}

/** A list that the provider may send as a single object (e.g. price list filtered by `code`). */
function listOf<S extends z.ZodMiniType>(item: S) {
  return z.pipe(z.transform((v: unknown) => (isRecord(v) ? [v] : v)), z.array(item));
}

/** An item a lenient list left out: where it was and why (no values: they may be anything). */
export interface SkippedItem {
  index: number;
  code?: string;
  problem: string;
}

const skippedOf = new WeakMap<object, SkippedItem[]>();

/** The items a lenient list (price lists, banks, deposit methods) left out of `list` because they did not parse. */
export function skippedItems(list: object): readonly SkippedItem[] {
  return skippedOf.get(list) ?? [];
}

/**
 * A list where one malformed item is skipped rather than sinking the whole list (a catalogue with
 * one broken product still sells the rest). Skipped items are kept for `skippedItems` to log.
 * When every item fails, the shape itself is wrong: that is a failure naming the first one.
 */
function lenientListOf<S extends z.ZodMiniType>(item: S, codeKeys: readonly string[] = ["code"]) {
  return mapped(z.pipe(z.transform((v: unknown) => (isRecord(v) ? [v] : v)), z.array(z.unknown())), (raw, ctx) => {
    const out: z.output<S>[] = [];
    const skipped: SkippedItem[] = [];
    let firstIssues: readonly z.core.$ZodIssue[] = [];
    raw.forEach((value, index) => {
      const parsed = item.safeParse(value);
      if (parsed.success) {
        out.push(parsed.data);
        return;
      }
      if (skipped.length === 0) firstIssues = parsed.error.issues.map((i) => ({ ...i, path: [index, ...i.path] }));
      const issue = parsed.error.issues[0];
      const code = isRecord(value) ? codeKeys.map((k) => asText(value[k])).find(Boolean)?.slice(0, 40) : undefined;
      skipped.push({ index, ...(code ? { code } : {}), problem: `${issue?.path.join(".") || "item"}: ${issue?.message ?? "invalid"}` });
    });
    if (raw.length > 0 && out.length === 0) {
      for (const issue of firstIssues) ctx.issues.push({ ...issue, input: undefined } as never);
      return z.NEVER;
    }
    if (skipped.length > 0) skippedOf.set(out, skipped);
    return out;
  });
}

/**
 * An optional nested object. Anything that is not an object becomes absent: PHP backends encode
 * an empty object as `[]`, and a nested extra must not sink the whole response.
 */
function looseObject<T extends z.core.$ZodShape>(shape: T) {
  return z.pipe(z.transform((v: unknown) => (isRecord(v) ? v : undefined)), z.optional(z.object(shape)));
}

/** Drops keys whose value is undefined, so optional fields are absent rather than undefined. */
function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

// ---------------------------------------------------------------------------------------------
// Resources

export const profileSchema = mapped(
  z.object({ name: text, username: text, email: text, phone: text, balance: input(), status: text }),
  (d): Profile => ({
    name: d.name,
    username: d.username,
    email: d.email,
    phone: d.phone,
    // The vendor's docs send "Saldo Anda" here: keep the text, report no number.
    balance: parseMoney(d.balance) ?? null,
    balanceText: asText(d.balance) ?? "",
    status: d.status,
  }),
);

export const prepaidProductSchema = mapped(
  z.object({
    code: id,
    name: text,
    category: text,
    type: text,
    provider: text,
    price: money,
    note: note,
    status: text,
    img_url: optText,
  }),
  (d): PrepaidProduct =>
    compact({
      code: d.code,
      name: d.name,
      category: d.category,
      type: d.type,
      provider: d.provider,
      price: d.price,
      note: d.note,
      available: d.status.trim().toLowerCase() === "available",
      imgUrl: d.img_url,
    }),
);

export const postpaidProductSchema = mapped(withAliases(
  { layanan: ["name"] },
  z.object({
    code: id,
    layanan: text,
    type: text,
    category: text,
    // Some lists leave the fee out (or write words): the bill's inquiry then says it.
    admin: moneyOrNull,
    komisi: moneyOrNull,
    note: note,
    status: text,
  }),
),
  (d): PostpaidProduct => ({
    code: d.code,
    name: d.layanan,
    type: d.type,
    category: d.category,
    admin: d.admin,
    commission: d.komisi,
    note: d.note,
    available: d.status.trim().toLowerCase() === "available",
  }),
);

export const prepaidListSchema = lenientListOf(prepaidProductSchema);
export const postpaidListSchema = lenientListOf(postpaidProductSchema);

export const prepaidTransactionSchema = mapped(withAliases(
  { status: ["status_transaksi"], price: ["harga"], target: ["nomor_pelanggan"] },
  z.object({
    id,
    reff_id: reqText,
    layanan: text,
    code: reqText,
    target: text,
    price: money,
    sn,
    status: txState,
    created_at: wibTime,
  }),
),
  (d): PrepaidTransaction => ({
    id: d.id,
    reffId: d.reff_id,
    productName: d.layanan,
    code: d.code,
    target: d.target,
    price: d.price,
    sn: d.sn,
    status: d.status,
    createdAt: d.created_at,
  }),
);

const billPeriodSchema = mapped(
  z.object({ periode: text, nilai_tagihan: moneyOrNull, admin: moneyOrNull, denda: moneyOrNull }),
  (d): BillPeriod => ({ period: d.periode, amount: d.nilai_tagihan, admin: d.admin, penalty: d.denda }),
);

const billDetailSchema = looseObject({
  tarif: optText,
  daya: optInt,
  jumlah_peserta: optText,
  lembar_tagihan: optInt,
  detail: z.nullish(listOf(billPeriodSchema)),
});

export const billInquirySchema = mapped(
  z.object({
    reff_id: reqText,
    nomor_pelanggan: text,
    nama_pelanggan: text,
    code: reqText,
    harga: money,
    biaya_admin: money,
    total_tagihan: money,
    detail: billDetailSchema,
  }),
  (d): BillInquiry =>
    compact({
      reffId: d.reff_id,
      customerNo: d.nomor_pelanggan,
      customerName: d.nama_pelanggan,
      code: d.code,
      price: d.harga,
      adminFee: d.biaya_admin,
      total: d.total_tagihan,
      tariff: d.detail?.tarif,
      power: d.detail?.daya,
      participants: d.detail?.jumlah_peserta,
      sheets: d.detail?.lembar_tagihan,
      periods: d.detail?.detail ?? [],
    }),
);

/**
 * Bill payment (2.3). Also used for the postpaid status lookup, whose shape is undocumented: it
 * accepts the prepaid transaction spelling too (`price`, `target`, `layanan`).
 */
export const billPaymentSchema = mapped(withAliases(
  { harga: ["price"], nomor_pelanggan: ["target", "customer_no"], status: ["status_transaksi"] },
  z.object({
    id: optText,
    reff_id: reqText,
    nomor_pelanggan: text,
    nama_pelanggan: text,
    code: reqText,
    harga: money,
    sn,
    status: txState,
    created_at: wibTime,
    layanan: optText,
  }),
),
  (d): BillPayment =>
    compact({
      id: d.id,
      reffId: d.reff_id,
      customerNo: d.nomor_pelanggan,
      customerName: d.nama_pelanggan,
      code: d.code,
      price: d.harga,
      sn: d.sn,
      status: d.status,
      createdAt: d.created_at,
      productName: d.layanan,
    }),
);

export const bankSchema = mapped(
  z.object({ id, bank_code: id, bank_name: text, type: text }),
  (d): Bank => ({ id: d.id, code: d.bank_code, name: d.bank_name, type: d.type }),
);
export const bankListSchema = lenientListOf(bankSchema, ["bank_code"]);

export const accountCheckSchema = mapped(withAliases(
  { kode_bank: ["bank_code"], nomor_akun: ["account_number"] },
  z.object({ kode_bank: text, nomor_akun: text, nama_pemilik: text, status: accountState }),
),
  (d): AccountCheck => ({
    bankCode: d.kode_bank,
    accountNumber: d.nomor_akun,
    holderName: d.nama_pemilik,
    status: d.status,
  }),
);

export const transferSchema = mapped(withAliases(
  { reff_id: ["ref_id"], status: ["status_transaksi"] },
  z.object({
    id,
    reff_id: reqText,
    nama: text,
    nomor_tujuan: text,
    nominal: money,
    fee: money,
    total: money,
    status: txState,
    bank_code: optText,
    detail: looseObject({ email: optText, phone: optText, note: optText }),
    created_at: wibTime,
  }),
),
  (d): Transfer =>
    compact({
      id: d.id,
      reffId: d.reff_id,
      holderName: d.nama,
      accountNumber: d.nomor_tujuan,
      amount: d.nominal,
      fee: d.fee,
      total: d.total,
      status: d.status,
      bankCode: d.bank_code,
      email: d.detail?.email,
      phone: d.detail?.phone,
      note: d.detail?.note,
      createdAt: d.created_at,
    }),
);

export const depositMethodSchema = mapped(withAliases(
  { metode: ["method"] },
  z.object({
    metode: id,
    type: text,
    name: text,
    min: money,
    max: money,
    fee: money,
    fee_persen: percent,
    status: text,
    img_url: optText,
  }),
),
  (d): DepositMethod =>
    compact({
      method: d.metode,
      type: d.type,
      name: d.name,
      min: d.min,
      max: d.max,
      fee: d.fee,
      feePercent: d.fee_persen,
      active: ["aktif", "active"].includes(d.status.trim().toLowerCase()),
      imgUrl: d.img_url,
    }),
);
export const depositMethodListSchema = lenientListOf(depositMethodSchema, ["metode", "method"]);

export const depositSchema = mapped(withAliases(
  { metode: ["method"] },
  z.object({
    id,
    reff_id: reqText,
    nominal: money,
    tambahan: moneyDefault0,
    // Older answers have neither: the deposit (and its QR) still stands.
    fee: optMoney,
    get_balance: optMoney,
    status: depositState,
    metode: optText,
    created_at: wibTime,
    expired_at: wibTime,
    // type-specific fields returned by create
    qr_string: optText,
    qr_image: optText,
    bank: optText,
    tujuan: optText,
    atas_nama: optText,
    url: optText,
    nomor_va: optText,
  }),
),
  (d): Deposit =>
    compact({
      id: d.id,
      reffId: d.reff_id,
      amount: d.nominal,
      extra: d.tambahan,
      fee: d.fee,
      credited: d.get_balance,
      status: d.status,
      method: d.metode,
      createdAt: d.created_at,
      expiresAt: d.expired_at,
      qrString: d.qr_string,
      qrImage: d.qr_image,
      bank: d.bank,
      accountNumber: d.tujuan,
      accountHolder: d.atas_nama,
      url: d.url,
      vaNumber: d.nomor_va,
    }),
);

export const depositCancelSchema = mapped(
  z.object({ id, status: depositState, created_at: wibTime }),
  (d): DepositCancel => ({ id: d.id, status: d.status, createdAt: d.created_at }),
);

export const instantDepositSchema = mapped(
  z.object({
    id,
    reff_id: text,
    nominal: money,
    penanganan: money,
    total_fee: money,
    total_diterima: money,
    status: depositState,
    created_at: wibTime,
  }),
  (d): InstantDeposit => ({
    id: d.id,
    reffId: d.reff_id,
    amount: d.nominal,
    handlingFee: d.penanganan,
    totalFee: d.total_fee,
    received: d.total_diterima,
    status: d.status,
    createdAt: d.created_at,
  }),
);
