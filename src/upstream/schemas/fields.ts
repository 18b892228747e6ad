/**
 * The provider's quirks, absorbed once for every endpoint family's schemas (docs/provider.md lists
 * them): amounts as numbers or numeric strings, alternative key spellings (`metode`/`method`,
 * `ref_id`/`reff_id`), WIB timestamps, placeholders ("xxxx", "Saldo Anda"), `sn: null`, absent
 * `tambahan`, a list sent as one object, nested objects sent as `[]`, long display strings, and lists
 * where one broken item is skipped. One file: every family reads the same parsers. Unknown fields
 * are dropped; the envelope (`status`, `message`, `code`) is decode.ts's.
 */
import * as z from "../../tools/zod.js";
import { parseWib } from "../../tools/time.js";
import type { AccountCheck, DepositState, TxState } from "../types.js";

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
export const input = () => z.optional(z.unknown());

/** `schema`'s output through `fn` (classic zod's `.transform`; zod/mini has none, zod.ts says why mini). */
export function mapped<S extends z.ZodMiniType, T>(schema: S, fn: (v: z.output<S>, ctx: z.core.ParsePayload) => T) {
  return z.pipe(schema, z.transform(fn));
}

/** A schema that accepts anything `fn` can convert and fails with `expected <what>` otherwise. */
export function coerce<T>(what: string, fn: (v: unknown) => T | undefined) {
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

export const asText = (v: unknown): string | undefined =>
  typeof v === "string" ? v : typeof v === "number" && Number.isFinite(v) ? String(v) : undefined;

/** Required amount; a non-numeric value is a schema failure. */
export const money = coerce("a numeric amount", parseMoney);
/** Amount where types.ts allows null: absent or non-numeric becomes null. */
export const moneyOrNull = mapped(input(), (v) => parseMoney(v) ?? null);
/** `tambahan`: absent or null means 0; present but non-numeric is still a failure. */
/** Amount an older answer shape may leave out: absent or null is undefined; present, it must be a number. */
export const optMoney = mapped(
  coerce("a numeric amount", (v) => (v === undefined || v === null ? null : parseMoney(v))),
  (v) => v ?? undefined,
);
export const moneyDefault0 = coerce("a numeric amount", (v) => (v === undefined || v === null ? 0 : parseMoney(v)));
export const percent = coerce("a numeric percentage", parsePercent);
export const optInt = mapped(input(), (v) => parseInteger(v));

/** Identifier: string or number (some ids may arrive as JSON numbers), must not be empty. */
export const id = coerce("a non-empty identifier", (v) => {
  const t = asText(v)?.trim();
  return t ? t : undefined;
});
/** Required string-ish value that may be empty. */
export const reqText = coerce("a string", asText);
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
export const text = mapped(input(), (v) => clipText(asText(v) ?? "", MAX_TEXT));
/** A product's note (instructions): longer than a name, still bounded. */
export const note = mapped(input(), (v) => clipText(asText(v) ?? "", MAX_NOTE));
/** Optional text: absent, null or blank becomes undefined. */
export const optText = mapped(input(), (v) => {
  const t = asText(v);
  return t !== undefined && t.trim() !== "" ? t : undefined;
});
/** Serial number: null (or blank) until the provider has one. */
export const sn = mapped(input(), (v) => {
  const t = asText(v);
  return t !== undefined && t.trim() !== "" ? t : null;
});
/** WIB timestamp; placeholders, absent or malformed values become null. */
export const wibTime = mapped(input(), (v) => (typeof v === "string" ? parseWib(v) : null));

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

export function stateOf<S extends string>(what: string, table: Record<string, S>) {
  return coerce(what, (v) => (typeof v === "string" ? table[v.trim().toLowerCase()] : undefined));
}
export const txState = stateOf("pending, success or failed", TX_STATES);
export const depositState = stateOf("a deposit state", DEPOSIT_STATES);
export const accountState = stateOf("valid, invalid or processing", ACCOUNT_STATES);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Fills a canonical key from its alternative spellings when the canonical one is absent or null
 * (`metode`/`method`, `reff_id`/`ref_id`, `harga`/`price`...). Failures still name the canonical key.
 */
export function withAliases<S extends z.ZodMiniType>(aliases: Record<string, string[]>, schema: S) {
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
export function listOf<S extends z.ZodMiniType>(item: S) {
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
export function lenientListOf<S extends z.ZodMiniType>(item: S, codeKeys: readonly string[] = ["code"]) {
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
export function looseObject<T extends z.core.$ZodShape>(shape: T) {
  return z.pipe(z.transform((v: unknown) => (isRecord(v) ? v : undefined)), z.optional(z.object(shape)));
}

/** Drops keys whose value is undefined, so optional fields are absent rather than undefined. */
export function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}
