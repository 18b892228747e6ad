/**
 * Another route to the same thing: when a product is out of order, the products of the same operator,
 * category and face value that are available, cheapest first. Pure, so the purchase flow and the
 * shop's paid orders choose the same way.
 *
 * The face value is read from the product's name, as providers name their routes ("Telkomsel 10.000",
 * "TSEL 10K Jalur 2", "Data 3 GB / 30 Hari", "86 Diamonds"): amounts and quantities with their unit.
 * A bare number ("Jalur 2") is not part of it, unless the name has nothing else.
 */
import type { PrepaidProduct } from "../upstream/types.js";

/** Units a quantity in a name is counted in; the value a unit word stands for. */
const UNITS: ReadonlyMap<string, string> = new Map([
  ["gb", "gb"], ["mb", "mb"], ["hari", "d"], ["day", "d"], ["days", "d"], ["jam", "h"], ["hour", "h"], ["hours", "h"],
  ["diamond", "dm"], ["diamonds", "dm"], ["dm", "dm"], ["uc", "uc"], ["menit", "min"], ["min", "min"], ["sms", "sms"],
]);

const TOKEN = /(\d{1,3}(?:\.\d{3})+|\d+(?:[.,]\d+)?)\s*(k|rb|ribu|[a-z]+)?/gi;

/**
 * The face value of a product's name as a comparable signature ("10000", "3gb 30d"); empty when the
 * name names no number at all.
 */
export function faceValue(name: string): string {
  const measured: string[] = [];
  const bare: string[] = [];
  for (const m of name.matchAll(TOKEN)) {
    const [, digits = "", unitWord] = m;
    const unit = unitWord?.toLowerCase();
    if (/^\d{1,3}(\.\d{3})+$/.test(digits)) {
      measured.push(String(Number(digits.replace(/\./g, ""))));
    } else if (unit === "k" || unit === "rb" || unit === "ribu") {
      measured.push(String(Number(digits.replace(",", ".")) * 1000));
    } else if (unit !== undefined && UNITS.has(unit)) {
      measured.push(`${Number(digits.replace(",", "."))}${UNITS.get(unit)}`);
    } else if (/^\d+$/.test(digits) && Number(digits) >= 1000) {
      measured.push(digits);
    } else {
      bare.push(digits);
    }
  }
  return (measured.length > 0 ? measured : bare).join(" ");
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** True when `other` sells what `product` sells: same operator, category and face value. */
export function sameValue(product: PrepaidProduct, other: PrepaidProduct): boolean {
  const face = faceValue(product.name);
  return face !== "" && same(product.provider, other.provider) && same(product.category, other.category) && faceValue(other.name) === face;
}

/** The available products that sell what `product` sells under another code, cheapest first. */
export function sameValueAlternatives(list: readonly PrepaidProduct[], product: PrepaidProduct): PrepaidProduct[] {
  return list
    .filter((p) => p.available && p.code !== product.code && sameValue(product, p))
    .sort((a, b) => a.price - b.price || a.code.localeCompare(b.code));
}

/**
 * When nothing sells the same value: the available products of the same operator and category
 * nearest in price to `product` (at most `n`), cheapest first.
 */
export function nearestOfOperator(list: readonly PrepaidProduct[], product: PrepaidProduct, n = 2): PrepaidProduct[] {
  return list
    .filter((p) => p.available && p.code !== product.code && same(product.provider, p.provider) && same(product.category, p.category))
    .sort((a, b) => Math.abs(a.price - product.price) - Math.abs(b.price - product.price) || a.code.localeCompare(b.code))
    .slice(0, n)
    .sort((a, b) => a.price - b.price);
}

/**
 * True for the provider's answer to a create that says the product is out of order or out of stock
 * ("Layanan sedang gangguan / stok kosong", "Produk sedang gangguan"): another route may still work.
 * Not for refusals about the buyer (balance, target, a price rise).
 */
export function isOutOfOrderAnswer(message: string): boolean {
  return /gangguan|(stok|produk|layanan)\s*(sedang\s*)?(kosong|habis)|out of stock|maintenance|disturb/i.test(message);
}

/**
 * For an order already paid at `paid` whose product went out of order: the cheapest alternative if its
 * cost still leaves the reseller a margin (below `paid`), else undefined (the refund path).
 */
export function alternativeWithinPaid(list: readonly PrepaidProduct[], product: PrepaidProduct, paid: number): PrepaidProduct | undefined {
  const [cheapest] = sameValueAlternatives(list, product);
  return cheapest && cheapest.price < paid ? cheapest : undefined;
}
