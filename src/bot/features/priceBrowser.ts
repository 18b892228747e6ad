/**
 * The price browser on screen: a screen edited into the browser's own message (or sent), the lists
 * loaded with the provider's failure told, and the browser's buttons. A product's button opens its
 * details (mode `h`) or starts its purchase (mode `b`).
 */
import { UpstreamError } from "../../upstream/errors.js";
import type { PrepaidProduct } from "../../upstream/types.js";
import { findByRef } from "../catalog.js";
import { cb, isPricesData, onCallback, type CallbackContext, type CallbackShape } from "../buttons.js";
import type { Composer } from "grammy";
import type { BotContext } from "../context.js";
import { notLinkedText } from "../guards.js";
import { dropEmptyRows } from "../paging.js";
import { editOrReply, upstreamErrorText } from "../replies.js";
import { ledgerChat } from "../middlewares/roleGate.js";
import { sameValueAlternatives } from "../../domain/alternatives.js";
import { billsScreen, productScreen, productsScreen, providersScreen, rootScreen, searchScreen, type Mode, type Screen } from "./priceScreens.js";
import { startPurchase } from "./prepaidPurchase.js";

/** Edits the browser message on its own buttons; sends a new message otherwise. */
export async function show(ctx: BotContext, screen: Screen): Promise<void> {
  // Paging leaves empty rows behind where a screen has a single page.
  await editOrReply(ctx, screen.text, { reply_markup: dropEmptyRows(screen.keyboard) }, isPricesData(ctx.callbackQuery?.data));
}

/** Runs `load`; on a provider failure tells the user why and returns undefined. */
export async function loadOrExplain<T>(ctx: BotContext, load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => undefined);
    await ctx.reply(upstreamErrorText(ctx, err));
    return undefined;
  }
}

export async function showRoot(ctx: BotContext, mode: Mode, key: string): Promise<void> {
  const list = await loadOrExplain(ctx, () => ctx.deps.lists.prepaid(key));
  if (list) await show(ctx, rootScreen(ctx, mode, list));
}

export async function showSearch(ctx: BotContext, mode: Mode, key: string, query: string, page = 0): Promise<void> {
  const list = await loadOrExplain(ctx, () => ctx.deps.lists.prepaid(key));
  if (list) await show(ctx, await searchScreen(ctx, mode, list, query, page));
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
  composer: Composer<BotContext>,
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

/** Registers the browser's buttons on the topup feature's composer. */
export function addBrowserButtons(composer: Composer<BotContext>): void {
  onScreen(composer, cb.pricesRoot, false, (ctx, list, { mode }) => rootScreen(ctx, mode, list));
  onScreen(composer, cb.pricesRootRefresh, true, (ctx, list, { mode }) => rootScreen(ctx, mode, list));
  onScreen(composer, cb.pricesProviders, false, (ctx, list, { mode, cat, page }) => providersScreen(ctx, mode, list, cat, page));
  onScreen(composer, cb.pricesProducts, false, (ctx, list, { mode, cat, prov, page }) => productsScreen(ctx, mode, list, cat, prov, page));
  onScreen(composer, cb.pricesProductsRefresh, true, (ctx, list, { mode, cat, prov }) => productsScreen(ctx, mode, list, cat, prov, 0));
  onScreen(composer, cb.pricesSearch, false, (ctx, list, { mode, page, query }) => searchScreen(ctx, mode, list, query, page));

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
}
