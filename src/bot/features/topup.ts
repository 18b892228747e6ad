/**
 * Prices and top-up: /harga (/prices) browses or searches the price list (an arrow on a cost that
 * moved today; `/harga ringkasan` sets the daily price digest), /beli (/topup) buys; an empty product,
 * or a create refused as out of order, offers the products of the same face value.
 *
 * The browser is stateless: every button carries what its screen needs, so it works after a
 * restart and in any order. Its callback data shapes are the `prices*` ones in
 * src/telegram/buttonData.ts: mode `h` (prices: a product opens its details) or `b` (buy: a product
 * starts the purchase), then the screen. Categories and providers are named by short slugs and
 * products by code (catalog.ts), so the data stays under Telegram's 64 bytes.
 *
 * Over 350 lines: the browser's screens (categories, providers, products, search, bills) share one
 * stateless render-and-edit path; apart, each screen would repeat it.
 */
import { Composer, InlineKeyboard } from "grammy";
import { UpstreamError } from "../../upstream/errors.js";
import type { PostpaidProduct, PrepaidProduct } from "../../upstream/types.js";
import {
  categories,
  findByCode,
  findByRef,
  groupKey,
  memo,
  productRef,
  productsIn,
  providers,
  searchProducts,
  type Group,
} from "../catalog.js";
import {
  cb,
  isPricesData,
  onCallback,
  SEARCH_QUERY_MAX_BYTES,
  type CallbackContext,
  type CallbackShape,
  type PricesMode,
} from "../buttons.js";
import type { BaseContext, BotContext } from "../context.js";
import { html, rupiah } from "../../render/format.js";
import { hideKeys } from "../../domain/keyShape.js";
import { TOPUP_FLOW, topupFlow } from "../flows/topup.js";
import { notLinkedText, requireKey, requireMoneyKey, requireStorage } from "../guards.js";
import { prepaidKind } from "../money/prepaid.js";
import type { FeatureModule } from "../module.js";
import { addPager, dropEmptyRows, paginate } from "../paging.js";
import { editOrReply, upstreamErrorText } from "../replies.js";
import { noRules } from "../../domain/pricing.js";
import { chatRules, quoteProduct } from "../pricing.js";
import { buttonsShown } from "../middlewares/buttonWait.js";
import { whileAskingProvider } from "../slowAnswer.js";
import { commands } from "../../telegram/commands.js";
import { hidesCost, ledgerChat, refusalText } from "../middlewares/roleGate.js";
import { isOutOfOrderAnswer, sameValueAlternatives } from "../../domain/alternatives.js";
import { changeDigest, costMovesSince, digestOf, digestTimeText, parseDigestTime, type CostMove } from "../../domain/priceChanges.js";
import { wibDay, wibDayStart } from "../../domain/report.js";
import { accountOf } from "../../upstream/cache.js";
import type { MoneyKind } from "../money/kinds.js";
import type { Lang } from "../../store/index.js";

type Mode = PricesMode;
interface Screen {
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
  if (noRules(rules)) return () => undefined;
  const showCost = !(await hidesCost(ctx));
  return (p) => {
    const quote = quoteProduct(rules, p);
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
  return `${p.available ? "" : "⛔ "}${p.name} · ${rupiah(sell(p)?.price ?? p.price, lang)}${moved(p)}`;
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

function groupLabel(g: Group, icon = ""): string {
  return `${icon ? `${icon} ` : ""}${g.name} (${g.available})`;
}

function pageNote(ctx: BaseContext, page: number, pages: number): string {
  return pages > 1 ? `\n${ctx.t("prices-page", { page: page + 1, pages })}` : "";
}

// ------------------------------------------------------------------------------------------
// Screens

/**
 * The same for every chat of a language until the list is refreshed: made once per list, language and
 * mode (the most shown screen). Frozen, so nothing can change the one every chat is shown.
 */
function rootScreen(ctx: BaseContext, mode: Mode, list: readonly PrepaidProduct[]): Screen {
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
  const kb = new InlineKeyboard();
  categories(list).forEach((g, i) => {
    kb.text(groupLabel(g, CATEGORY_ICONS.get(g.key) ?? "📦"), cb.pricesProviders.encode({ mode, cat: g.key, page: 0 }));
    if (i % 2 === 1) kb.row();
  });
  kb
    .row()
    .text(ctx.t("prices-button-bills"), cb.pricesBills.encode({ mode, page: 0 }))
    .text(ctx.t("prices-button-refresh"), cb.pricesRootRefresh.encode({ mode }));
  const title = ctx.t(mode === "b" ? "topup-title" : "prices-title");
  return { text: `${title}\n\n${ctx.t("prices-hint")}`, keyboard: kb };
}

async function providersScreen(ctx: BaseContext, mode: Mode, list: readonly PrepaidProduct[], catKey: string, page: number): Promise<Screen | undefined> {
  const all = providers(list, catKey);
  if (all.length === 0) return undefined;
  if (all.length === 1) return await productsScreen(ctx, mode, list, catKey, all[0]!.key, 0);
  const category = categories(list).find((g) => g.key === catKey)!;
  const shown = paginate(all, page, GROUPS_PER_PAGE);
  const kb = new InlineKeyboard();
  shown.items.forEach((g, i) => {
    kb.text(groupLabel(g), cb.pricesProducts.encode({ mode, cat: catKey, prov: g.key, page: 0 }));
    if (i % 2 === 1) kb.row();
  });
  addPager(kb, ctx, shown, (p) => cb.pricesProviders.encode({ mode, cat: catKey, page: p }));
  kb.row().text(ctx.t("button-back"), cb.pricesRoot.encode({ mode }));
  const text = `${ctx.t("prices-choose-provider", { category: html(category.name) })}${pageNote(ctx, shown.page, shown.pages)}`;
  return { text, keyboard: kb };
}

async function productsScreen(
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
  const kb = new InlineKeyboard();
  for (const p of shown.items) kb.text(productLabel(p, sell, moved, ctx.lang), cb.pricesProduct.encode({ mode, product: productRef(p.code) })).row();
  addPager(kb, ctx, shown, (n) => cb.pricesProducts.encode({ mode, cat: catKey, prov: provKey, page: n }));
  const single = providers(list, catKey).length === 1;
  kb.row().text(ctx.t("button-back"), single ? cb.pricesRoot.encode({ mode }) : cb.pricesProviders.encode({ mode, cat: catKey, page: 0 }));
  kb.text(ctx.t("prices-button-refresh"), cb.pricesProductsRefresh.encode({ mode, cat: catKey, prov: provKey }));
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

async function productScreen(ctx: BaseContext, list: readonly PrepaidProduct[], product: PrepaidProduct): Promise<Screen> {
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
  const kb = new InlineKeyboard();
  if (product.available) kb.text(ctx.t("prices-button-buy"), cb.pricesProduct.encode({ mode: "b", product: productRef(product.code) })).row();
  // Out of order: the buy button of the purchase flow offers the products of the same face value.
  else if (sameValueAlternatives(list, product).length > 0) kb.text(ctx.t("prices-alt-button"), cb.pricesProduct.encode({ mode: "b", product: productRef(product.code) })).row();
  const back = { mode: "h", cat: groupKey(product.category), prov: groupKey(product.provider), page: 0 } as const;
  kb.text(ctx.t("button-back"), cb.pricesProducts.encode(back));
  return { text: lines.join("\n"), keyboard: kb };
}

/** The query as carried in callback data: lower case, single spaces. */
const normaliseQuery = (query: string) => query.toLowerCase().replace(/\s+/g, " ").trim();

async function searchScreen(ctx: BaseContext, mode: Mode, list: readonly PrepaidProduct[], query: string, page: number): Promise<Screen> {
  const q = normaliseQuery(query);
  const found = searchProducts(list, q);
  const kb = new InlineKeyboard();
  if (found.length === 0) {
    kb.text(ctx.t("prices-button-all"), cb.pricesRoot.encode({ mode }));
    return { text: ctx.t("prices-search-none", { query: html(normaliseQuery(hideKeys(query)).slice(0, 50)) }), keyboard: kb };
  }
  const shown = paginate(found, page, PRODUCTS_PER_PAGE);
  const sell = await seller(ctx);
  const moved = await movedToday(ctx, list);
  for (const p of shown.items) kb.text(productLabel(p, sell, moved, ctx.lang), cb.pricesProduct.encode({ mode, product: productRef(p.code) })).row();
  // A query too long to carry in the buttons gets no paging: the user narrows it instead.
  const pageable = Buffer.byteLength(q, "utf8") <= SEARCH_QUERY_MAX_BYTES;
  if (pageable) addPager(kb, ctx, shown, (n) => cb.pricesSearch.encode({ mode, page: n, query: q }));
  kb.row().text(ctx.t("prices-button-all"), cb.pricesRoot.encode({ mode }));
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

function billsScreen(ctx: BaseContext, mode: Mode, list: readonly PostpaidProduct[], page: number): Screen {
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
  const kb = new InlineKeyboard().text(ctx.t("prices-button-pay-bill"), cb.menu.encode({ name: "bill" }));
  addPager(kb, ctx, shown, (n) => cb.pricesBills.encode({ mode, page: n }));
  kb.row().text(ctx.t("button-back"), cb.pricesRoot.encode({ mode }));
  const text = [ctx.t("prices-bills-title"), "", ...(lines.length ? lines : [ctx.t("prices-bills-none")])].join("\n");
  return { text: `${text}${pageNote(ctx, shown.page, shown.pages)}`, keyboard: kb };
}

// ------------------------------------------------------------------------------------------
// Showing a screen

/** Edits the browser message on its own buttons; sends a new message otherwise. */
async function show(ctx: BotContext, screen: Screen): Promise<void> {
  // Paging leaves empty rows behind where a screen has a single page.
  await editOrReply(ctx, screen.text, { reply_markup: dropEmptyRows(screen.keyboard) }, isPricesData(ctx.callbackQuery?.data));
}

/** Runs `load`; on a provider failure tells the user why and returns undefined. */
async function loadOrExplain<T>(ctx: BotContext, load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => undefined);
    await ctx.reply(upstreamErrorText(ctx, err));
    return undefined;
  }
}

async function showRoot(ctx: BotContext, mode: Mode, key: string): Promise<void> {
  const list = await loadOrExplain(ctx, () => ctx.deps.lists.prepaid(key));
  if (list) await show(ctx, rootScreen(ctx, mode, list));
}

async function showSearch(ctx: BotContext, mode: Mode, key: string, query: string, page = 0): Promise<void> {
  const list = await loadOrExplain(ctx, () => ctx.deps.lists.prepaid(key));
  if (list) await show(ctx, await searchScreen(ctx, mode, list, query, page));
}

/**
 * Starts the purchase flow (leaving whatever flow was running). `outOfOrder`: the provider refused
 * `code` as out of order, so the flow offers the products of the same face value first.
 */
export async function startPurchase(ctx: BotContext, code: string, target?: string, outOfOrder = false): Promise<void> {
  if (!(await requireStorage(ctx))) return;
  await ctx.conversation.exitAll();
  await ctx.conversation.enter(TOPUP_FLOW, code, target ?? "", ...(outOfOrder ? [true] : []));
}

// ------------------------------------------------------------------------------------------
// Commands and buttons

const composer = new Composer<BotContext>();

composer.command(commands.harga, async (ctx) => {
  const key = await requireKey(ctx);
  if (!key) return;
  const args = ctx.match.trim();
  if (/^(refresh|perbarui|segarkan)$/i.test(args)) {
    if (ctx.from && ctx.deps.adminIds.includes(ctx.from.id)) {
      ctx.deps.lists.invalidate();
      await ctx.reply(ctx.t("prices-refreshed-all"));
      return;
    }
    ctx.deps.lists.invalidate(key);
    await ctx.reply(ctx.t("prices-refreshed"));
    await showRoot(ctx, "h", key);
    return;
  }
  const digest = /^(ringkasan|digest)(?:\s+(.*))?$/i.exec(args);
  if (digest) {
    // The digest is the owner's own daily message about costs: staff neither get it nor set it.
    if (ctx.role.kind === "staff") {
      await ctx.reply(refusalText(ctx, "owner", `/${commands.harga[0]} ${digest[1]!.toLowerCase()}`));
      return;
    }
    await digestSetting(ctx, digest[2]?.trim() ?? "");
    return;
  }
  if (!args) await showRoot(ctx, "h", key);
  else await showSearch(ctx, "h", key, args);
});

/** `/harga ringkasan [on|off|08.00]`: the daily price digest's state, switched or set to a time. */
async function digestSetting(ctx: BotContext, arg: string): Promise<void> {
  const chatId = ctx.chat!.id;
  const store = ctx.deps.store;
  if (arg) {
    const on = /^(on|nyala|aktif)$/i.test(arg) ? true : /^(off|mati)$/i.test(arg) ? false : undefined;
    const at = on === undefined ? parseDigestTime(arg) : undefined;
    if (on === undefined && at === undefined) {
      await ctx.reply(ctx.t("prices-digest-bad-time"));
      return;
    }
    if (!(await requireStorage(ctx))) return;
    // A time set switches it on as well.
    await changeDigest(store, chatId, (c) => ({ on: on ?? true, value: at === undefined ? c.value : { ...c.value, at } }));
    await store.flush();
  }
  const now = await digestOf(store, chatId);
  await ctx.reply(now.on ? ctx.t("prices-digest-on", { time: digestTimeText(now.at, ctx.lang) }) : ctx.t("prices-digest-off"));
}

composer.command(commands.beli, async (ctx) => {
  const key = await requireMoneyKey(ctx);
  if (!key) return;
  const args = ctx.match.trim();
  if (!args) {
    await showRoot(ctx, "b", key);
    buttonsShown(ctx, "beli");
    return;
  }
  await whileAskingProvider(ctx, () => buyByCode(ctx, key, args));
});

/** /beli CODE TARGET (or words to search): the confirm screen, or what is missing. */
async function buyByCode(ctx: BotContext, key: string, args: string): Promise<void> {
  const list = await loadOrExplain(ctx, () => ctx.deps.lists.prepaid(key));
  if (!list) return;
  const [first = "", ...rest] = args.split(/\s+/);
  const product = findByCode(list, first);
  if (product) {
    // Empty with nothing of the same face value to offer: said at once, no flow.
    if (!product.available && sameValueAlternatives(list, product).length === 0) {
      await ctx.reply(ctx.t("topup-empty", { name: html(product.name), code: html(product.code) }));
      return;
    }
    await startPurchase(ctx, product.code, rest.join(" "));
    return;
  }
  // Not a code: words to search ("/beli tsel 10"), or a mistyped code.
  if (searchProducts(list, args).length > 0) await show(ctx, await searchScreen(ctx, "b", list, args, 0));
  else await ctx.reply(ctx.t("topup-unknown-code", { code: html(hideKeys(first)) }));
}

/** The chat's api key for a price-browser button; answers and returns undefined when not linked. */
async function keyForButton(ctx: CallbackContext<BotContext>): Promise<string | undefined> {
  const key = ctx.chat && await ctx.deps.providerLink.keyOf(ledgerChat(ctx));
  if (!key) await ctx.answerCallbackQuery({ text: notLinkedText(ctx), show_alert: true });
  return key ?? undefined;
}

/**
 * A browser button that shows a screen of the prepaid list (refreshing the list first when
 * `fresh`); a screen that vanished (a group gone after a refresh) goes back to the categories.
 */
function onScreen<F extends { mode: Mode }>(
  shape: CallbackShape<F>,
  fresh: boolean,
  build: (ctx: BotContext, list: readonly PrepaidProduct[], fields: F) => Screen | undefined | Promise<Screen | undefined>,
): void {
  onCallback(composer, shape, async (ctx, fields) => {
    const key = await keyForButton(ctx);
    if (!key) return;
    if (fresh) ctx.deps.lists.invalidate(key);
    const list = await loadOrExplain(ctx, () => ctx.deps.lists.prepaid(key));
    if (!list) return;
    const next = await build(ctx, list, fields);
    await ctx.answerCallbackQuery(next ? (fresh ? { text: ctx.t("prices-refreshed") } : {}) : { text: ctx.t("prices-list-changed") });
    await show(ctx, next ?? rootScreen(ctx, fields.mode, list));
  });
}

onScreen(cb.pricesRoot, false, (ctx, list, { mode }) => rootScreen(ctx, mode, list));
onScreen(cb.pricesRootRefresh, true, (ctx, list, { mode }) => rootScreen(ctx, mode, list));
onScreen(cb.pricesProviders, false, (ctx, list, { mode, cat, page }) => providersScreen(ctx, mode, list, cat, page));
onScreen(cb.pricesProducts, false, (ctx, list, { mode, cat, prov, page }) => productsScreen(ctx, mode, list, cat, prov, page));
onScreen(cb.pricesProductsRefresh, true, (ctx, list, { mode, cat, prov }) => productsScreen(ctx, mode, list, cat, prov, 0));
onScreen(cb.pricesSearch, false, (ctx, list, { mode, page, query }) => searchScreen(ctx, mode, list, query, page));

onCallback(composer, cb.pricesBills, async (ctx, { mode, page }) => {
  const key = await keyForButton(ctx);
  if (!key) return;
  const bills = await loadOrExplain(ctx, () => ctx.deps.lists.postpaid(key));
  if (!bills) return;
  await ctx.answerCallbackQuery();
  await show(ctx, billsScreen(ctx, mode, bills, page));
});

onCallback(composer, cb.pricesProduct, async (ctx, { mode, product: ref }) => {
  const key = await keyForButton(ctx);
  if (!key) return;
  const list = await loadOrExplain(ctx, () => ctx.deps.lists.prepaid(key));
  if (!list) return;
  const product = findByRef(list, ref);
  if (!product) {
    await ctx.answerCallbackQuery({ text: ctx.t("prices-list-changed") });
    await show(ctx, rootScreen(ctx, mode, list));
    return;
  }
  if (mode === "h") {
    await ctx.answerCallbackQuery();
    await show(ctx, await productScreen(ctx, list, product));
    return;
  }
  if (!product.available && sameValueAlternatives(list, product).length === 0) {
    await ctx.answerCallbackQuery({ text: ctx.t("topup-empty-alert", { name: product.name }), show_alert: true });
    return;
  }
  await ctx.answerCallbackQuery();
  await startPurchase(ctx, product.code);
});

/**
 * Prepaid purchases, and after a create the provider refused as out of order: the products of the same
 * face value to buy for the same target instead (the purchase flow, so again through a confirm screen).
 */
const prepaidPurchases: MoneyKind = {
  ...prepaidKind,
  async explainRejection(ctx, apiKey, tx, err) {
    const said = await prepaidKind.explainRejection?.(ctx, apiKey, tx, err);
    if (!tx.code || !tx.target || !("conversation" in ctx)) return said;
    const list = await ctx.deps.lists.prepaid(apiKey).catch(() => undefined);
    const product = list ? findByCode(list, tx.code) : undefined;
    if (!list || !product || (product.available && !isOutOfOrderAnswer(err.providerMessage))) return said;
    if (sameValueAlternatives(list, product).length === 0) return said;
    await startPurchase(ctx as BotContext, product.code, tx.target, true);
    return [said, ctx.t("prices-alt-above")].filter(Boolean).join("\n");
  },
};

async function menuAction(ctx: BotContext, mode: Mode): Promise<void> {
  const key = await (mode === "b" ? requireMoneyKey(ctx) : requireKey(ctx));
  if (key) await showRoot(ctx, mode, key);
}

export const topupModule: FeatureModule = {
  composer,
  flows: [{ id: TOPUP_FLOW, builder: topupFlow }],
  kinds: [prepaidPurchases],
  menu: { prices: (ctx) => menuAction(ctx, "h"), topup: (ctx) => menuAction(ctx, "b") },
};
