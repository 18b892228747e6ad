/**
 * What a prepaid product is sent to, and whether what the user typed can be it. Pure functions:
 * the flow shows the returned locale key when the input is refused, and the user types again.
 *
 * - phone products (pulsa, data, SMS/telephone packages): 08…, 628…, +628… with spaces or dashes,
 *   normalised to 08…; a number of another operator is refused (it would be a lost sale);
 * - e-money (DANA, OVO, GoPay, ShopeePay…): the registered phone number, any operator;
 * - PLN tokens: the 11–12 digit meter number or the 12-digit customer id (10–13 digits accepted);
 * - games and everything else: the text the product's note asks for, on one line. When the note
 *   mentions a server, "id server", "id(server)" and "id|server" are all understood.
 */
import type { PrepaidProduct } from "../upstream/types.js";

export type TargetKind = "phone" | "emoney" | "pln" | "game" | "text";

export type TargetResult =
  | { ok: true; value: string }
  | { ok: false; error: string; vars?: Record<string, string | number> };

export type Operator = "telkomsel" | "indosat" | "xl" | "axis" | "tri" | "smartfren";

/** Four-digit prefixes (08xx) of each mobile operator. */
export const OPERATOR_PREFIXES: Readonly<Record<Operator, readonly string[]>> = {
  telkomsel: ["0811", "0812", "0813", "0821", "0822", "0823", "0851", "0852", "0853"],
  indosat: ["0814", "0815", "0816", "0855", "0856", "0857", "0858"],
  xl: ["0817", "0818", "0819", "0859", "0877", "0878"],
  axis: ["0831", "0832", "0833", "0838"],
  tri: ["0895", "0896", "0897", "0898", "0899"],
  smartfren: ["0881", "0882", "0883", "0884", "0885", "0886", "0887", "0888", "0889"],
};

export const OPERATOR_NAMES: Readonly<Record<Operator, string>> = {
  telkomsel: "Telkomsel",
  indosat: "Indosat",
  xl: "XL",
  axis: "Axis",
  tri: "Tri",
  smartfren: "Smartfren",
};

const OPERATOR_WORDS: readonly [Operator, RegExp][] = [
  ["telkomsel", /\b(telkomsel|tsel|simpati|kartu ?as|loop|by\.?u)\b/],
  ["indosat", /\b(indosat|isat|im3|mentari|ooredoo)\b/],
  ["axis", /\baxis\b/],
  ["xl", /\bxl\b/],
  ["tri", /\b(tri|three)\b/],
  ["smartfren", /\bsmartfren\b/],
];

const EMONEY_WORDS = /\b(e-?money|e-?wallet|dompet|dana|ovo|gopay|go-pay|shopee ?pay|linkaja|link aja|doku|isaku|sakuku)\b/;
const PHONE_WORDS = /\b(pulsa|data|kuota|paket|internet|sms|telpon|telepon|nelpon|voucher data|transfer pulsa)\b/;
const PLN_WORDS = /\b(pln|token listrik|listrik)\b/;
const GAME_WORDS = /\b(games?|voucher game|diamonds?|uc)\b/;

const lower = (p: PrepaidProduct) => `${p.category} ${p.provider} ${p.name}`.toLowerCase();

/** The operator a phone product belongs to, if its provider or name says so. */
export function operatorOf(product: PrepaidProduct): Operator | undefined {
  const provider = product.provider.toLowerCase();
  for (const [op, re] of OPERATOR_WORDS) if (re.test(provider)) return op;
  const text = `${product.name}`.toLowerCase();
  for (const [op, re] of OPERATOR_WORDS) if (re.test(text)) return op;
  return undefined;
}

/** What kind of target a product takes (decides the prompt and the validation). */
export function targetKind(product: PrepaidProduct): TargetKind {
  const category = product.category.toLowerCase();
  const all = lower(product);
  if (PLN_WORDS.test(category) || (PLN_WORDS.test(all) && !PHONE_WORDS.test(category))) return "pln";
  if (EMONEY_WORDS.test(category) || EMONEY_WORDS.test(product.provider.toLowerCase())) return "emoney";
  if (GAME_WORDS.test(category)) return "game";
  if (PHONE_WORDS.test(category) || operatorOf(product)) return "phone";
  if (GAME_WORDS.test(all)) return "game";
  return "text";
}

/** 08…, 628…, +628…, with spaces, dashes, dots or brackets -> 08… (undefined when not a phone number). */
export function normalisePhone(text: string): string | undefined {
  const compact = text.trim().replace(/[\s\-.()]/g, "");
  let local: string;
  if (/^\+62/.test(compact)) local = `0${compact.slice(3)}`;
  else if (/^62/.test(compact)) local = `0${compact.slice(2)}`;
  else local = compact;
  return /^08\d{8,11}$/.test(local) ? local : undefined;
}

/** The operator a phone number (08…) belongs to, by its prefix. */
export function operatorOfNumber(phone: string): Operator | undefined {
  const prefix = phone.slice(0, 4);
  for (const [op, list] of Object.entries(OPERATOR_PREFIXES) as [Operator, readonly string[]][]) {
    if (list.includes(prefix)) return op;
  }
  return undefined;
}

const MAX_TEXT = 40;
const MIN_TEXT = 4;
/** What providers accept in a free-text target (game ids, usernames, voucher destinations). */
const TEXT_CHARS = /^[0-9A-Za-z .\-_()#@]+$/;

function validatePhone(text: string, product: PrepaidProduct, checkOperator: boolean): TargetResult {
  const phone = normalisePhone(text);
  if (!phone) return { ok: false, error: "target-phone-invalid" };
  if (!checkOperator) return { ok: true, value: phone };
  const wanted = operatorOf(product);
  const actual = operatorOfNumber(phone);
  // XL and Axis share one network: their products are sold across both number ranges.
  const sameGroup = (a: Operator, b: Operator) => a === b || (["xl", "axis"].includes(a) && ["xl", "axis"].includes(b));
  if (wanted && actual && !sameGroup(wanted, actual)) {
    return {
      ok: false,
      error: "target-phone-operator",
      vars: { number: phone, numberOperator: OPERATOR_NAMES[actual], productOperator: OPERATOR_NAMES[wanted] },
    };
  }
  // A prefix missing from the table is let through: the table must not block a real new range.
  return { ok: true, value: phone };
}

function validatePln(text: string): TargetResult {
  const digits = text.trim().replace(/[\s\-.]/g, "");
  if (!/^\d{10,13}$/.test(digits)) return { ok: false, error: "target-pln-invalid" };
  return { ok: true, value: digits };
}

/** True when the product's note asks for a server (or zone) besides the player id. */
export function needsServer(product: PrepaidProduct): boolean {
  return /\b(server|zone|zona)\b/i.test(product.note);
}

/** The note asks for id and server written together ("tanpa spasi", "without space"). */
function joinedServer(product: PrepaidProduct): boolean {
  return /tanpa spasi|without (a )?space|digabung/i.test(product.note);
}

function validateGameWithServer(text: string, product: PrepaidProduct): TargetResult {
  const t = text.trim();
  // "id server", "id(server)", "id|server", "id/server"
  const parts = /^(\d{3,16})\s*[(|/:,\s]\s*(\d{1,6})\s*\)?$/.exec(t);
  if (parts) {
    const [, id, server] = parts;
    return { ok: true, value: joinedServer(product) ? `${id}${server}` : `${id}(${server})` };
  }
  // Already written together, as some notes ask.
  if (/^\d{6,22}$/.test(t)) return { ok: true, value: t };
  return { ok: false, error: "target-game-server-invalid" };
}

function validateText(text: string): TargetResult {
  const t = text.trim().replace(/\s+/g, " ");
  if (/[\r\n]/.test(text.trim())) return { ok: false, error: "target-one-line" };
  if (t.length < MIN_TEXT || t.length > MAX_TEXT) return { ok: false, error: "target-text-length", vars: { min: MIN_TEXT, max: MAX_TEXT } };
  if (!TEXT_CHARS.test(t)) return { ok: false, error: "target-text-chars" };
  return { ok: true, value: t };
}

/** Checks and normalises what the user typed as the target of `product`. */
export function validateTarget(product: PrepaidProduct, text: string): TargetResult {
  if (!text.trim()) return { ok: false, error: "target-empty" };
  if (/[\r\n]/.test(text.trim())) return { ok: false, error: "target-one-line" };
  switch (targetKind(product)) {
    case "phone":
      return validatePhone(text, product, true);
    case "emoney":
      return validatePhone(text, product, false);
    case "pln":
      return validatePln(text);
    case "game":
      return needsServer(product) ? validateGameWithServer(text, product) : validateText(text);
    case "text":
      return validateText(text);
  }
}
