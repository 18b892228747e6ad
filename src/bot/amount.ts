/** Rupiah amounts as resellers type them, for every flow that asks for one. */

const MULTIPLIERS: Record<string, number> = { k: 1_000, rb: 1_000, ribu: 1_000, jt: 1_000_000, juta: 1_000_000 };
/** Up to 999 miliar: far above any amount here, far below where numbers stop being exact. */
const MAX_DIGITS = 12;

/**
 * "100.000,00", "100,000.00", "100000,00", "100.000,-" as a bank app or a receipt writes them: the zero
 * sen dropped when the decimal mark is the other one than the grouping (or an Indonesian comma on
 * plain digits). "50.00" stays refused: with no grouping it cannot be told from a typo.
 */
function dropZeroSen(s: string): string {
  const m = /^(\d{1,3}(?:\.\d{3})+|\d+),(?:00?|-)$/.exec(s) ?? /^(\d{1,3}(?:,\d{3})+)\.00?$/.exec(s);
  return m ? m[1]! : s;
}

/**
 * Whole rupiah: "50000", "50.000", "50,000", "Rp 50.000", "50rb", "50 ribu", "50k", "1jt", "1,5jt",
 * "1.25 juta", "Rp 100.000,00". Undefined when it is not a whole, positive number of rupiah. Works on the digits as
 * text, so "1,5jt" is exactly 1.500.000 with no floating point in between.
 */
export function parseRupiah(text: string): number | undefined {
  const s = dropZeroSen(text.toLowerCase().replace(/\s+/g, "").replace(/^rp\.?/, ""));
  const short = /^(\d+)(?:[.,](\d+))?(k|rb|ribu|jt|juta)$/.exec(s);
  let digits: string;
  if (short) {
    const [, whole, fraction = "", unit] = short;
    const zeros = String(MULTIPLIERS[unit!]!).length - 1;
    if (fraction.length > zeros) return undefined; // "1,2345rb" is not whole rupiah
    digits = whole! + fraction.padEnd(zeros, "0");
  } else if (/^\d+$/.test(s) || /^\d{1,3}(?:\.\d{3})+$/.test(s) || /^\d{1,3}(?:,\d{3})+$/.test(s)) {
    digits = s.replace(/[.,]/g, "");
  } else {
    return undefined;
  }
  digits = digits.replace(/^0+(?=\d)/, "");
  const value = Number(digits);
  return digits.length > MAX_DIGITS || value <= 0 ? undefined : value;
}
