/** The price browser's buttons (features/priceScreens.ts). */
import { InlineKeyboard } from "grammy";
import { cb, type PricesMode } from "../buttons.js";
import { addPager } from "../paging.js";
import type { Translator } from "./translator.js";

/** A product to buy from a button: its label (name and price) and its list reference. */
export interface ProductButton {
  label: string;
  ref: string;
}

/** An empty product with nothing of its value: the nearest of its operator to buy, and the operator's whole list. */
export function emptyProductKeyboard(tr: Translator, nearest: readonly ProductButton[], operator: { name: string; cat: string; prov: string }): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const p of nearest) kb.text(p.label, cb.pricesProduct.encode({ mode: "b", product: p.ref })).row();
  return kb.text(tr.t("prices-button-operator", { provider: operator.name }), cb.pricesProducts.encode({ mode: "b", cat: operator.cat, prov: operator.prov, page: 0 }));
}

/** A group's button (a category or an operator): its key and its label. */
export interface GroupButton {
  key: string;
  label: string;
}
type Page<T> = { items: readonly T[]; page: number; pages: number };

/** The categories two a row, then bills and refresh. */
export function rootKeyboard(tr: Translator, mode: PricesMode, groups: readonly GroupButton[]): InlineKeyboard {
  const kb = new InlineKeyboard();
  groups.forEach((g, i) => {
    kb.text(g.label, cb.pricesProviders.encode({ mode, cat: g.key, page: 0 }));
    if (i % 2 === 1) kb.row();
  });
  return kb.row().text(tr.t("prices-button-bills"), cb.pricesBills.encode({ mode, page: 0 })).text(tr.t("prices-button-refresh"), cb.pricesRootRefresh.encode({ mode }));
}

/** A category's operators two a row, the pager, back. */
export function providersKeyboard(tr: Translator, mode: PricesMode, cat: string, shown: Page<GroupButton>): InlineKeyboard {
  const kb = new InlineKeyboard();
  shown.items.forEach((g, i) => {
    kb.text(g.label, cb.pricesProducts.encode({ mode, cat, prov: g.key, page: 0 }));
    if (i % 2 === 1) kb.row();
  });
  addPager(kb, tr, shown, (p) => cb.pricesProviders.encode({ mode, cat, page: p }));
  return kb.row().text(tr.t("button-back"), cb.pricesRoot.encode({ mode }));
}

/** An operator's products one a row, the pager, back (to the categories when `single` operator) and refresh. */
export function productsKeyboard(tr: Translator, mode: PricesMode, cat: string, prov: string, shown: Page<ProductButton>, single: boolean): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const p of shown.items) kb.text(p.label, cb.pricesProduct.encode({ mode, product: p.ref })).row();
  addPager(kb, tr, shown, (n) => cb.pricesProducts.encode({ mode, cat, prov, page: n }));
  kb.row().text(tr.t("button-back"), single ? cb.pricesRoot.encode({ mode }) : cb.pricesProviders.encode({ mode, cat, page: 0 }));
  return kb.text(tr.t("prices-button-refresh"), cb.pricesProductsRefresh.encode({ mode, cat, prov }));
}

/** One product: buy (or, out of order, its same-value alternatives) when `buy` says so, back to its operator. */
export function productKeyboard(tr: Translator, ref: string, buy: "buy" | "alternatives" | undefined, back: { cat: string; prov: string }): InlineKeyboard {
  const kb = new InlineKeyboard();
  if (buy) kb.text(tr.t(buy === "buy" ? "prices-button-buy" : "prices-alt-button"), cb.pricesProduct.encode({ mode: "b", product: ref })).row();
  return kb.text(tr.t("button-back"), cb.pricesProducts.encode({ mode: "h", cat: back.cat, prov: back.prov, page: 0 }));
}

/** Search results one a row, the pager when the query rides on the buttons (`query`), then the whole list. */
export function searchKeyboard(tr: Translator, mode: PricesMode, shown: Page<ProductButton>, query: string | undefined): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const p of shown.items) kb.text(p.label, cb.pricesProduct.encode({ mode, product: p.ref })).row();
  if (query !== undefined) addPager(kb, tr, shown, (n) => cb.pricesSearch.encode({ mode, page: n, query }));
  return kb.row().text(tr.t("prices-button-all"), cb.pricesRoot.encode({ mode }));
}

/** The bills list: pay a bill, the pager, back. */
export function billsKeyboard(tr: Translator, mode: PricesMode, shown: { page: number; pages: number }): InlineKeyboard {
  const kb = new InlineKeyboard().text(tr.t("prices-button-pay-bill"), cb.menu.encode({ name: "bill" }));
  addPager(kb, tr, shown, (n) => cb.pricesBills.encode({ mode, page: n }));
  return kb.row().text(tr.t("button-back"), cb.pricesRoot.encode({ mode }));
}
