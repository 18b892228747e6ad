/**
 * A shop search that found nothing: why (the products it names are sold out, not sold in this shop,
 * or below the smallest QRIS payment; or nothing is called so), and the nearest the shop sells instead.
 */
import type { BaseContext } from "../context.js";
import { html, rupiah } from "../../render/format.js";
import { queryTokens, searchProducts } from "../catalog.js";
import { searchItems, type LeftOutWhy, type ShopItem, type Storefront } from "./shopBuy.js";

const NEAREST_SHOWN = 3;
const NAMES_SHOWN = 3;

export interface SearchMiss {
  /** What the customer reads: the reasons, or that nothing matched. */
  text: string;
  nearest: ShopItem[];
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** `query` found nothing the shop sells; `shown` is the query as shown back. */
export function explainMiss(ctx: BaseContext, front: Storefront, query: string, shown: string): SearchMiss {
  const left = front.left ?? [];
  const why = new Map(left.map((l) => [l.product.code, l.why]));
  const named = searchProducts(left.map((l) => l.product), query);
  if (named.length === 0) {
    return { text: ctx.t("shopfront-search-none", { query: shown }), nearest: byWords(front, query) };
  }
  const reasons = (["soldout", "notsold", "belowmin"] as const satisfies readonly LeftOutWhy[]).flatMap((w) => {
    const these = named.filter((p) => why.get(p.code) === w);
    if (these.length === 0) return [];
    const names = these.slice(0, NAMES_SHOWN).map((p) => `<b>${html(p.name)}</b>`).join(", ");
    return [ctx.t(`shopfront-search-why-${w}`, { names, min: rupiah(front.qrisMin ?? 0, ctx.lang) })];
  });
  // The shop's products of the same operator and category, nearest in price to what was asked for.
  const nearest = new Map<string, ShopItem>();
  for (const p of named) {
    const kin = front.items
      .filter((i) => same(i.product.provider, p.provider) && same(i.product.category, p.category))
      .sort((a, b) => Math.abs(a.product.price - p.price) - Math.abs(b.product.price - p.price));
    for (const i of kin.slice(0, NEAREST_SHOWN)) nearest.set(i.product.code, i);
  }
  const items = [...nearest.values()].slice(0, NEAREST_SHOWN).sort((a, b) => a.quote.pay - b.quote.pay);
  return { text: [ctx.t("shopfront-search-none-here", { query: shown }), ...reasons].join("\n"), nearest: items };
}

/** Nothing named so: what the query's words, each alone, find in the shop. */
function byWords(front: Storefront, query: string): ShopItem[] {
  const found = new Map<string, ShopItem>();
  for (const word of queryTokens(query)) {
    if (/^\d/.test(word)) continue;
    for (const i of searchItems(front, word)) if (found.size < NEAREST_SHOWN) found.set(i.product.code, i);
  }
  return [...found.values()];
}
