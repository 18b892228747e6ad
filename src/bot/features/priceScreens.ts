/**
 * The price browser's screens (categories, providers, products, a product, search, bills), built from
 * the cached lists: prices under the chat's rules, and an arrow on a cost that moved today. Stateless:
 * every button carries what its screen needs (the `prices*` shapes in src/telegram/buttonData.ts).
 */
import type { InlineKeyboard } from "grammy";
import type { PostpaidProduct, PrepaidProduct } from "../../upstream/types.js";
import { categories, memo, productRef, productsIn, providers, searchProducts, type Group } from "../catalog.js";
import { groupKey } from "../../domain/groupKey.js";
import { SEARCH_QUERY_MAX_BYTES, type PricesMode } from "../buttons.js";
import type { BaseContext } from "../context.js";
import { html, productName, rupiah } from "../../render/format.js";
import { hideKeys } from "../../domain/keyShape.js";
import { dropEmptyRows, paginate } from "../paging.js";
import { noRules } from "../../domain/pricing.js";
import { chatRules, chatSeller, quoteOf, sellingRules } from "../pricing.js";
import { hidesCost, ledgerChat } from "../middlewares/roleGate.js";
import { nearestOfOperator, sameValueAlternatives } from "../../domain/alternatives.js";
import { billsKeyboard, emptyProductKeyboard, productKeyboard, productsKeyboard, providersKeyboard, rootKeyboard, searchKeyboard, type ProductButton } from "../keyboards/prices.js";
import { costMovesSince, type CostMove } from "../../domain/priceChanges.js";
import { wibDay, wibDayStart } from "../../domain/report.js";
import { accountOf } from "../../upstream/cache.js";
import type { Lang } from "../../store/index.js";

export type Mode = PricesMode;
export interface Screen {
  text: string;
  keyboard: InlineKeyboard;
}

const PRODUCTS_PER_PAGE = 8;
const GROUPS_PER_PAGE = 12;
const BILLS_PER_PAGE = 12;

// A Map: a category named like an Object member ("constructor") must not find a function.
const CATEGORY_ICONS = new Map([
  ["pulsa", "📱"],
  ["data", "🌐"],
  ["pln", "⚡"],
  ["e-money", "💳"],
  ["games", "🎮"],
]);

/**
 * A product's selling price under the chat's rules, with its cost unless this chat may not see it (a
 * cashier the owner shows no cost to); undefined when no rule applies to it (shown as without rules).
 */
type Seller = (p: PrepaidProduct) => { price: number; cost?: number } | undefined;

async function seller(ctx: BaseContext): Promise<Seller> {
  const rules = await chatRules(ctx);
  // A downline always reads prices of its own (chatSeller), never the list's.
  if (ctx.role.kind !== "downline" && noRules(rules)) return () => undefined;
  // A downline's "cost" is its own price: shown beside its selling price once it has rules of its own.
  const showCost = !(await hidesCost(ctx)) || (ctx.role.kind === "downline" && !noRules(await sellingRules(ctx)));
  const sell = await chatSeller(ctx);
  return (p) => {
    const quote = quoteOf(sell(p));
    if (quote.source === "none") return undefined;
    return showCost ? { price: quote.price, cost: quote.cost } : { price: quote.price };
  };
}

/** " ⬆️" / " ⬇️" after a product whose cost moved today, else "". */
type MovedMark = (p: PrepaidProduct) => string;

/**
 * Today's cost moves of a list's account, read from the price-change log once per fetched list (the
 * cached list is the same array until it is refreshed, and the log changes only with a refresh).
 */
const movesOfList = new WeakMap<readonly PrepaidProduct[], { day: string; moves: Promise<ReadonlyMap<string, CostMove>> }>();

async function movedToday(ctx: BaseContext, list: readonly PrepaidProduct[]): Promise<MovedMark> {
  // The arrows tell cost moves: not for a cashier the owner shows no cost to.
  if (await hidesCost(ctx)) return () => "";
  const day = wibDay(ctx.deps.clock.now());
  let known = movesOfList.get(list);
  if (!known || known.day !== day) {
    const key = ctx.chat && await ctx.deps.providerLink.keyOf(ledgerChat(ctx));
    if (!key) return () => "";
    // A log that cannot be read just shows no arrows.
    known = { day, moves: costMovesSince(ctx.deps.store, accountOf(key), wibDayStart(day)).catch(() => new Map<string, CostMove>()) };
    movesOfList.set(list, known);
  }
  const moves = await known.moves;
  return (p) => {
    const m = moves.get(p.code);
    return m ? (m.newCost > m.oldCost ? " ⬆️" : " ⬇️") : "";
  };
}

function productLabel(p: PrepaidProduct, sell: Seller, moved: MovedMark, lang: Lang): string {
  return `${p.available ? "" : "⛔ "}${productName(p.name, lang)} · ${rupiah(sell(p)?.price ?? p.price, lang)}${moved(p)}`;
}

/** The selling price, and the cost (when shown) on a second, quieter line when a rule applies. */
function productLine(ctx: BaseContext, p: PrepaidProduct, sell: Seller, moved: MovedMark): string {
  const quote = sell(p);
  const line = `${p.available ? "✅" : "⛔"} <code>${html(p.code)}</code> ${html(p.name)}: <b>${rupiah(quote?.price ?? p.price, ctx.lang)}</b>${moved(p)}`;
  return quote?.cost !== undefined ? `${line}\n<i>${ctx.t("prices-cost-line", { cost: rupiah(quote.cost, ctx.lang) })}</i>` : line;
}

/** The arrows' legend, when a shown product has one. */
function movedLegend(ctx: BaseContext, shown: readonly PrepaidProduct[], moved: MovedMark): string[] {
  return shown.some((p) => moved(p) !== "") ? [ctx.t("prices-moved-today")] : [];
}

/** A product's button in a list: its label and its list reference. */
function productButton(p: PrepaidProduct, sell: Seller, moved: MovedMark, lang: Lang): ProductButton {
  return { label: productLabel(p, sell, moved, lang), ref: productRef(p.code) };
}

function groupLabel(g: Group, icon = ""): string {
  return `${icon ? `${icon} ` : ""}${g.name} (${g.available})`;
}

function pageNote(ctx: BaseContext, page: number, pages: number): string {
  return pages > 1 ? `\n${ctx.t("prices-page", { page: page + 1, pages })}` : "";
}

/**
 * The same for every chat of a language until the list is refreshed: made once per list, language and
 * mode (the most shown screen). Frozen, so nothing can change the one every chat is shown.
 */
export function rootScreen(ctx: BaseContext, mode: Mode, list: readonly PrepaidProduct[]): Screen {
  return memo(list, `root:${ctx.lang}:${mode}`, () => frozen(makeRootScreen(ctx, mode, list)));
}

function frozen(screen: Screen): Screen {
  for (const row of dropEmptyRows(screen.keyboard).inline_keyboard) {
    for (const button of row) Object.freeze(button);
    Object.freeze(row);
  }
  Object.freeze(screen.keyboard.inline_keyboard);
  return Object.freeze(screen);
}

function makeRootScreen(ctx: BaseContext, mode: Mode, list: readonly PrepaidProduct[]): Screen {
  const kb = rootKeyboard(ctx, mode, categories(list).map((g) => ({ key: g.key, label: groupLabel(g, CATEGORY_ICONS.get(g.key) ?? "📦") })));
  const title = ctx.t(mode === "b" ? "topup-title" : "prices-title");
  return { text: `${title}\n\n${ctx.t("prices-hint")}`, keyboard: kb };
}

export async function providersScreen(ctx: BaseContext, mode: Mode, list: readonly PrepaidProduct[], catKey: string, page: number): Promise<Screen | undefined> {
  const all = providers(list, catKey);
  if (all.length === 0) return undefined;
  if (all.length === 1) return await productsScreen(ctx, mode, list, catKey, all[0]!.key, 0);
  const category = categories(list).find((g) => g.key === catKey)!;
  const shown = paginate(all, page, GROUPS_PER_PAGE);
  const kb = providersKeyboard(ctx, mode, catKey, { ...shown, items: shown.items.map((g) => ({ key: g.key, label: groupLabel(g) })) });
  const text = `${ctx.t("prices-choose-provider", { category: html(category.name) })}${pageNote(ctx, shown.page, shown.pages)}`;
  return { text, keyboard: kb };
}

export async function productsScreen(
  ctx: BaseContext,
  mode: Mode,
  list: readonly PrepaidProduct[],
  catKey: string,
  provKey: string,
  page: number,
): Promise<Screen | undefined> {
  const all = productsIn(list, catKey, provKey);
  if (all.length === 0) return undefined;
  const shown = paginate(all, page, PRODUCTS_PER_PAGE);
  const sell = await seller(ctx);
  const moved = await movedToday(ctx, list);
  const single = providers(list, catKey).length === 1;
  const kb = productsKeyboard(ctx, mode, catKey, provKey, { ...shown, items: shown.items.map((p) => productButton(p, sell, moved, ctx.lang)) }, single);
  const first = all[0]!;
  const text = [
    ctx.t("prices-products-title", { category: html(first.category), provider: html(first.provider) }),
    "",
    ...shown.items.map((p) => productLine(ctx, p, sell, moved)),
    "",
    ctx.t(mode === "b" ? "topup-pick-product" : "prices-pick-product"),
    ...movedLegend(ctx, shown.items, moved),
  ].join("\n");
  return { text: `${text}${pageNote(ctx, shown.page, shown.pages)}`, keyboard: kb };
}

export async function productScreen(ctx: BaseContext, list: readonly PrepaidProduct[], product: PrepaidProduct): Promise<Screen> {
  const quote = (await seller(ctx))(product);
  const lines = [
    `📦 <b>${html(product.name)}</b>`,
    `${ctx.t("topup-confirm-code")}: <code>${html(product.code)}</code>`,
    `${ctx.t("prices-category")}: ${html(product.category)} › ${html(product.provider)}`,
    ...(quote
      ? [
          `${ctx.t("prices-sale-price")}: <b>${rupiah(quote.price, ctx.lang)}</b>`,
          ...(quote.cost !== undefined ? [`${ctx.t("prices-cost")}: ${rupiah(quote.cost, ctx.lang)}`] : []),
        ]
      : [`${ctx.t("topup-confirm-price")}: <b>${rupiah(product.price, ctx.lang)}</b>`]),
    `${ctx.t("prices-availability")}: ${ctx.t(product.available ? "prices-available" : "prices-empty")}`,
    ...(product.note.trim() ? [ctx.t("topup-note-line", { note: html(product.note.trim()) })] : []),
  ];
  // Out of order: the buy button of the purchase flow offers the products of the same face value.
  const buy = product.available ? "buy" : sameValueAlternatives(list, product).length > 0 ? "alternatives" : undefined;
  const kb = productKeyboard(ctx, productRef(product.code), buy, { cat: groupKey(product.category), prov: groupKey(product.provider) });
  return { text: lines.join("\n"), keyboard: kb };
}

/**
 * `/beli` of an empty product nothing else of its value replaces: says so, and offers the nearest
 * products of its operator (bought through the purchase flow) and the operator's list.
 */
export async function emptyScreen(ctx: BaseContext, list: readonly PrepaidProduct[], product: PrepaidProduct): Promise<Screen> {
  const nearest = nearestOfOperator(list, product);
  const sell = await seller(ctx);
  const moved = await movedToday(ctx, list);
  const named = { name: html(product.name), code: html(product.code) };
  const text = [
    ctx.t("topup-empty-no-alt", named),
    ...(nearest.length > 0 ? ["", ctx.t("topup-empty-nearest", { provider: html(product.provider) }), ...nearest.map((p) => productLine(ctx, p, sell, moved))] : []),
  ].join("\n");
  const buttons = nearest.map((p) => ({ label: productLabel(p, sell, moved, ctx.lang), ref: productRef(p.code) }));
  const keyboard = emptyProductKeyboard(ctx, buttons, { name: product.provider, cat: groupKey(product.category), prov: groupKey(product.provider) });
  return { text, keyboard };
}

/** The query as carried in callback data: lower case, single spaces. */
const normaliseQuery = (query: string) => query.toLowerCase().replace(/\s+/g, " ").trim();

export async function searchScreen(ctx: BaseContext, mode: Mode, list: readonly PrepaidProduct[], query: string, page: number): Promise<Screen> {
  const q = normaliseQuery(query);
  const found = searchProducts(list, q);
  if (found.length === 0) {
    const kb = searchKeyboard(ctx, mode, { items: [], page: 0, pages: 1 }, undefined);
    return { text: ctx.t("prices-search-none", { query: html(normaliseQuery(hideKeys(query)).slice(0, 50)) }), keyboard: kb };
  }
  const shown = paginate(found, page, PRODUCTS_PER_PAGE);
  const sell = await seller(ctx);
  const moved = await movedToday(ctx, list);
  // A query too long to carry in the buttons gets no paging: the user narrows it instead.
  const pageable = Buffer.byteLength(q, "utf8") <= SEARCH_QUERY_MAX_BYTES;
  const kb = searchKeyboard(ctx, mode, { ...shown, items: shown.items.map((p) => productButton(p, sell, moved, ctx.lang)) }, pageable ? q : undefined);
  const text = [
    ctx.t("prices-search-title", { query: html(q), count: found.length }),
    "",
    ...shown.items.map((p) => productLine(ctx, p, sell, moved)),
    "",
    ctx.t(mode === "b" ? "topup-pick-product" : "prices-pick-product"),
    ...movedLegend(ctx, shown.items, moved),
    ...(!pageable && shown.pages > 1 ? [ctx.t("prices-search-narrow")] : []),
  ].join("\n");
  return { text: `${text}${pageable ? pageNote(ctx, shown.page, shown.pages) : ""}`, keyboard: kb };
}

export function billsScreen(ctx: BaseContext, mode: Mode, list: readonly PostpaidProduct[], page: number): Screen {
  const shown = paginate(
    [...list].sort((a, b) => a.category.localeCompare(b.category, "id") || a.name.localeCompare(b.name, "id")),
    page,
    BILLS_PER_PAGE,
  );
  const lines = shown.items.map((b) =>
    ctx.t(b.available ? "prices-bill-line" : "prices-bill-line-empty", {
      name: html(b.name),
      code: html(b.code),
      admin: b.admin === null ? ctx.t("prices-admin-on-bill") : rupiah(b.admin, ctx.lang),
    }),
  );
  const kb = billsKeyboard(ctx, mode, shown);
  const text = [ctx.t("prices-bills-title"), "", ...(lines.length ? lines : [ctx.t("prices-bills-none")])].join("\n");
  return { text: `${text}${pageNote(ctx, shown.page, shown.pages)}`, keyboard: kb };
}
