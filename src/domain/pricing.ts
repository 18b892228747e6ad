/**
 * The reseller's selling prices: pure rules, no bot or store access. A chat's rules (records.ts
 * PricingRules) turn the provider's price (the cost) into what the reseller charges the customer.
 *
 * Prepaid: the most specific rule wins: a fixed selling price (/hargajual) > a markup for the
 * product code > a markup for its category > the markup for everything. A markup's result is
 * rounded UP to Rp100 (a fixed price is taken as typed). No rule: sold at cost.
 * Bills: the bill total plus the reseller's own admin fee (`billFee`), not rounded: the total is
 * the bill's own figure. Transfers and deposits have no selling price.
 */
import type { Markup, PricingRules } from "../store/index.js";

/** A markup's selling price is rounded up to a multiple of this. */
export const ROUND_TO = 100;

/** Which rule decided a price. */
export type PriceSource = "fixed" | "product" | "category" | "all" | "none";

export interface Quote {
  /** What the provider charges the reseller. */
  cost: number;
  /** What the reseller charges the customer. */
  price: number;
  /** price - cost; negative when a fixed price is below the cost. */
  profit: number;
  source: PriceSource;
}

/** What a record keeps (`tx.sale`). */
export interface Sale {
  price: number;
  profit: number;
}

/** What pricing needs of a prepaid product. */
export interface Priced {
  code: string;
  /** The category's key as the rules store it (domain/groupKey.ts). */
  categoryKey: string;
  /** The provider's price. */
  cost: number;
}

/** An own property only: a code or category named like an Object member ("constructor") finds nothing. */
function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** `cost` plus `markup`, rounded up to Rp100; a zero markup leaves the cost as it is. */
export function applyMarkup(cost: number, markup: Markup): number {
  if ("flat" in markup) {
    return markup.flat === 0 ? cost : Math.ceil((cost + markup.flat) / ROUND_TO) * ROUND_TO;
  }
  // In basis points on whole numbers: 2.5% of 10.500 must not become 262.50000001 and round a step up.
  const bp = Math.round(markup.percent * 100);
  if (bp === 0) return cost;
  return Math.ceil((cost * (10_000 + bp)) / (10_000 * ROUND_TO)) * ROUND_TO;
}

/** The markup rule that applies to a product, and where it came from (fixed prices aside). */
export function markupFor(rules: PricingRules, code: string, categoryKey: string): { markup: Markup; source: PriceSource } | undefined {
  const product = own(rules.products, code);
  if (product) return { markup: product, source: "product" };
  const category = own(rules.categories, categoryKey);
  if (category) return { markup: category, source: "category" };
  if (rules.all) return { markup: rules.all, source: "all" };
  return undefined;
}

/** The selling price of a prepaid product under the chat's rules. */
export function quotePrepaid(rules: PricingRules, item: Priced): Quote {
  const fixed = own(rules.fixed, item.code);
  if (fixed !== undefined) return { cost: item.cost, price: fixed, profit: fixed - item.cost, source: "fixed" };
  const rule = markupFor(rules, item.code, item.categoryKey);
  const price = rule ? applyMarkup(item.cost, rule.markup) : item.cost;
  return { cost: item.cost, price, profit: price - item.cost, source: rule?.source ?? "none" };
}

/**
 * A bill's selling price: what the customer owes (`total`) plus the reseller's own fee. The profit
 * also holds the provider's commission: `cost` (what the provider debits) is below the total.
 */
export function quoteBill(rules: PricingRules, total: number, cost: number): Quote & { fee: number } {
  const fee = rules.billFee ?? 0;
  const price = total + fee;
  return { cost, price, profit: price - cost, fee, source: fee > 0 ? "all" : "none" };
}

/** True when no rule is set: price lists look as they do without selling prices. */
export function noRules(rules: PricingRules | undefined): boolean {
  if (!rules) return true;
  const empty = (r: Readonly<Record<string, unknown>> | undefined) => !r || Object.keys(r).length === 0;
  return !rules.all && empty(rules.categories) && empty(rules.products) && empty(rules.fixed) && !rules.billFee;
}

/** A recorded sale after the provider charged `charged` instead of the confirmed cost: the selling price stays. */
export function recost(sale: Sale | undefined, charged: number): Sale | undefined {
  return sale && { price: sale.price, profit: sale.price - charged };
}

/** A product's selling price, or why it must not be sold at all. */
export type SellingPrice =
  | { ok: true; quote: Quote }
  /** A fixed selling price (/hargajual) a cost rise has put below the cost: never sold at a loss. */
  | { ok: false; reason: "below-cost"; fixed: number; cost: number };

/**
 * The selling price of a prepaid product, or its refusal: the one check every place that sells a
 * product (the confirm screen, the shop's catalogue) goes through. A markup never sells below the
 * cost; only a fixed price can, once the cost rose above it.
 */
export function sellingPriceOrRefusal(rules: PricingRules, item: Priced): SellingPrice {
  const quote = quotePrepaid(rules, item);
  if (quote.source === "fixed" && quote.price < quote.cost) return { ok: false, reason: "below-cost", fixed: quote.price, cost: quote.cost };
  return { ok: true, quote };
}

/** The chat's fixed selling prices that `costs` (code -> the provider's price now) put below the cost, by code. */
export function fixedBelowCost(rules: PricingRules, costs: ReadonlyMap<string, number>): { code: string; fixed: number; cost: number }[] {
  const out: { code: string; fixed: number; cost: number }[] = [];
  for (const [code, fixed] of Object.entries(rules.fixed ?? {})) {
    const cost = costs.get(code);
    if (cost !== undefined && fixed < cost) out.push({ code, fixed, cost });
  }
  return out.sort((a, b) => a.code.localeCompare(b.code));
}
