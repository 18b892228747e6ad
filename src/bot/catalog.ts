/**
 * The cached prepaid price list as the reseller browses it: grouped by category, then provider,
 * then product; searched with the words resellers type ("tsel 10", "ff 70", "pln 50rb"). Pure
 * functions over the list, so callback data can name a group or a product by a short key and the
 * screen can be rebuilt from any button press (no state on the server).
 */
import { shortHash } from "../tools/hash.js";
import { groupKey } from "../domain/groupKey.js";
import type { PrepaidProduct } from "../upstream/types.js";

export interface Group {
  /** Short, stable key for callback data (a slug of the name, at most 16 bytes). */
  key: string;
  name: string;
  count: number;
  available: number;
}

/** Categories resellers sell most, first; the rest follow alphabetically. */
const PREFERRED_CATEGORIES = ["pulsa", "data", "pln", "e-money", "games"];

const CODE_AS_REF = /^[A-Za-z0-9._-]{1,40}$/;

/** How callback data names a product: its code, or a hash when the code is long or unusual. */
export function productRef(code: string): string {
  return CODE_AS_REF.test(code) && !code.startsWith("#") ? code : `#${shortHash(code, 10)}`;
}

export function findByRef(list: readonly PrepaidProduct[], ref: string): PrepaidProduct | undefined {
  if (ref.startsWith("#")) return list.find((p) => productRef(p.code) === ref);
  return findByCode(list, ref);
}

/** Exact code first, then ignoring case (resellers type codes in lower case). */
export function findByCode(list: readonly PrepaidProduct[], code: string): PrepaidProduct | undefined {
  const wanted = code.trim();
  return list.find((p) => p.code === wanted) ?? list.find((p) => p.code.toLowerCase() === wanted.toLowerCase());
}

function rankCategory(key: string): number {
  const i = PREFERRED_CATEGORIES.indexOf(key);
  return i === -1 ? PREFERRED_CATEGORIES.length : i;
}

function groupBy(list: readonly PrepaidProduct[], name: (p: PrepaidProduct) => string): Group[] {
  const groups = new Map<string, Group>();
  for (const p of list) {
    const key = groupKey(name(p));
    const g = groups.get(key) ?? { key, name: name(p), count: 0, available: 0 };
    g.count++;
    if (p.available) g.available++;
    groups.set(key, g);
  }
  return [...groups.values()];
}

// One collator: `localeCompare(x, "id")` builds a new one on every call. Made on first use: ~3 ms at start-up.
let collator: Intl.Collator | undefined;
const compareNames = (a: string, b: string) => (collator ??= new Intl.Collator("id")).compare(a, b);
const byName = (a: Group, b: Group) => compareNames(a.name, b.name);
const byPrice = (a: PrepaidProduct, b: PrepaidProduct) => a.price - b.price || compareNames(a.name, b.name);

/**
 * Groupings are derived once per price list: the cached list is the same array until it is
 * refreshed, and every page press would otherwise regroup and resort it (the hot path of browsing).
 */
const derived = new WeakMap<readonly PrepaidProduct[], Map<string, unknown>>();
/** What `make` derives from `list` (named by `key`), made once per list. */
export function memo<T>(list: readonly PrepaidProduct[], key: string, make: () => T): T {
  let m = derived.get(list);
  if (!m) derived.set(list, (m = new Map()));
  if (!m.has(key)) m.set(key, make());
  return m.get(key) as T;
}

export function categories(list: readonly PrepaidProduct[]): Group[] {
  return memo(list, "c", () =>
    groupBy(list, (p) => p.category).sort((a, b) => rankCategory(a.key) - rankCategory(b.key) || byName(a, b)),
  );
}

export function providers(list: readonly PrepaidProduct[], categoryKey: string): Group[] {
  return memo(list, `g:${categoryKey}`, () =>
    groupBy(
      list.filter((p) => groupKey(p.category) === categoryKey),
      (p) => p.provider,
    ).sort(byName),
  );
}

/** Products of one provider in one category, cheapest first. */
export function productsIn(list: readonly PrepaidProduct[], categoryKey: string, providerKey: string): PrepaidProduct[] {
  return memo(list, `p:${categoryKey}:${providerKey}`, () =>
    list.filter((p) => groupKey(p.category) === categoryKey && groupKey(p.provider) === providerKey).sort(byPrice),
  );
}

// ------------------------------------------------------------------------------------------
// Search

/** Words resellers use for the same thing; each maps to words found in product names. */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  tsel: ["telkomsel"],
  telkomsel: ["telkomsel"],
  simpati: ["telkomsel"],
  telkom: ["telkomsel"],
  isat: ["indosat"],
  indosat: ["indosat"],
  im3: ["indosat"],
  ooredoo: ["indosat"],
  mentari: ["indosat"],
  xl: ["xl"],
  axiata: ["xl"],
  axis: ["axis"],
  tri: ["tri"],
  three: ["tri"],
  // Telkomsel's digital brand; only its own products (a list names it "BY.U" or "byU").
  byu: ["by u", "byu"],
  sf: ["smartfren"],
  smart: ["smartfren"],
  ff: ["free fire"],
  freefire: ["free fire"],
  ml: ["mobile legends"],
  mlbb: ["mobile legends"],
  mole: ["mobile legends"],
  hok: ["honor of kings"],
  pubgm: ["pubg"],
  listrik: ["pln"],
  token: ["pln"],
  pln: ["pln"],
  gojek: ["gopay"],
  gopay: ["gopay"],
  spay: ["shopeepay"],
  shopee: ["shopeepay"],
  kuota: ["data"],
  paket: ["data"],
  internet: ["data"],
  emoney: ["e money"],
  ewallet: ["e money"],
  game: ["games"],
  dm: ["diamonds"],
  diamond: ["diamonds"],
};

const words = (text: string) => ` ${text.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim()} `;

/** "10", "10k", "10rb", "10ribu", "10.000" -> 10 or 10000; undefined for other words. */
function numberOf(token: string): number | undefined {
  const m = /^(\d{1,3}(?:\.\d{3})+|\d+)(k|rb|ribu)?$/.exec(token);
  if (!m) return undefined;
  const n = Number(m[1]!.replace(/\./g, ""));
  return m[2] ? n * 1000 : n;
}

/** Numbers a product is known by: face values in its name ("10.000", "86 Diamonds") and its code. */
function numbersOf(p: PrepaidProduct): Set<number> {
  const out = new Set<number>();
  for (const m of p.name.matchAll(/\d{1,3}(?:\.\d{3})+|\d+/g)) out.add(Number(m[0].replace(/\./g, "")));
  for (const m of p.code.matchAll(/\d+/g)) out.add(Number(m[0]));
  return out;
}

/** A brand written with a digit or a dot ("im3", "by.u") is one word, as a synonym. */
function brandOf(token: string): string | undefined {
  const compact = token.replace(/[^a-z0-9]/g, "");
  return compact !== token && Object.hasOwn(SYNONYMS, compact) ? compact : undefined;
}

/** Splits the query into words; "tsel10" becomes "tsel", "10" (unless it is a product code or a brand). */
export function queryTokens(query: string, codes: ReadonlySet<string> = new Set()): string[] {
  const isWhole = (t: string) => codes.has(t) || numberOf(t) !== undefined || Object.hasOwn(SYNONYMS, t);
  return query
    .toLowerCase()
    .split(/[\s,;/+|]+/)
    .filter(Boolean)
    .flatMap((t) =>
      isWhole(t)
        ? [t]
        : brandOf(t) !== undefined
          ? [brandOf(t)!]
          : t
            .split(/(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])/)
            .flatMap((part) => (isWhole(part) ? [part] : part.split(/[^a-z0-9]+/)))
            .filter(Boolean),
    );
}

interface Indexed {
  product: PrepaidProduct;
  hay: string;
  numbers: Set<number>;
  code: string;
}

function tokenMatches(token: string, item: Indexed, alone: boolean): boolean {
  if (token === item.code) return true;
  const n = numberOf(token);
  // "3" is also the name of Tri (Three): alone or next to a face value it finds Tri.
  if (token === "3" && alone && item.hay.includes(" tri ")) return true;
  if (n !== undefined) return item.numbers.has(n) || (n < 1000 && item.numbers.has(n * 1000));
  // Units typed after a number ("10gb", "50rb") are in the name or the face value already.
  if (token === "gb" || token === "rb" || token === "k" || token === "ribu") return true;
  // Own entries only: a search for "constructor" must not find Object.prototype.constructor.
  const alternatives = Object.hasOwn(SYNONYMS, token) ? SYNONYMS[token] : undefined;
  if (alternatives) return alternatives.some((a) => item.hay.includes(` ${a} `)) || item.hay.includes(` ${token} `);
  // Short words only match the start of a word ("ax" is Axis, not "max"); longer ones anywhere.
  return token.length <= 2 ? item.hay.includes(` ${token}`) : item.hay.includes(token);
}

/** Products matching every word of the query, in browsing order (category, provider, price). */
export function searchProducts(list: readonly PrepaidProduct[], query: string): PrepaidProduct[] {
  const codes = new Set(list.map((p) => p.code.toLowerCase()));
  const tokens = queryTokens(query, codes);
  if (tokens.length === 0) return [];
  const index: Indexed[] = list.map((product) => ({
    product,
    hay: words(`${product.code} ${product.name} ${product.category} ${product.provider}`),
    numbers: numbersOf(product),
    code: product.code.toLowerCase(),
  }));
  // A "3" is an operator only where no other word names the operator.
  const operatorNamed = tokens.some((t) => t !== "3" && Object.hasOwn(SYNONYMS, t));
  const found = index.filter((item) => tokens.every((t) => tokenMatches(t, item, !operatorNamed))).map((i) => i.product);
  const exact = found.filter((p) => tokens.length === 1 && p.code.toLowerCase() === tokens[0]);
  const rest = found.filter((p) => !exact.includes(p));
  return [...exact, ...sortForBrowsing(rest)];
}

/** Category (preferred order), provider, then price. */
export function sortForBrowsing(list: readonly PrepaidProduct[]): PrepaidProduct[] {
  return [...list].sort(
    (a, b) =>
      rankCategory(groupKey(a.category)) - rankCategory(groupKey(b.category)) ||
      a.category.localeCompare(b.category, "id") ||
      a.provider.localeCompare(b.provider, "id") ||
      byPrice(a, b),
  );
}
