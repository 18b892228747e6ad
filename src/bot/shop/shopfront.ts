/**
 * The shop as its customers meet it. `/start <code>` (a shop link) makes a private chat a customer of
 * that shop; from then on the customer gate (middlewares/customerGate.ts) sends every update of the chat
 * here and nowhere else: the shop's home and catalogue, search, a product's walk to paying
 * (flows/shopBuy.ts), the customer's own orders, the shop's contact line, language and help. Reseller
 * commands, pasted keys and any other button get nothing of the reseller's.
 */
import { Composer, type InlineKeyboard } from "grammy";
import type { BotContext } from "../context.js";
import { cb, onCallback } from "../buttons.js";
import { paginate } from "../paging.js";
import { askLanguage, languageFeature } from "../features/language.js";
import { shopPayFeature } from "./shopPay.js";
import { commands } from "../../telegram/commands.js";
import { html, wibTime } from "../../render/format.js";
import { findKeys, isKeyShaped } from "../../domain/keyShape.js";
import { SHOP_CODE_PATTERN } from "../../domain/shop/settings.js";
import { shopButtons, SHOP_QUERY_MAX_BYTES, type ShopButton } from "../../telegram/shopButtonData.js";
import {
  chooseProduct,
  closedText,
  CUSTOMER_TEXT_MAX,
  itemButton,
  itemsIn,
  loadStorefront,
  pay,
  popularItems,
  searchItems,
  SEARCH_TEXT_MAX,
  shopCategories,
  shownBack,
  cancelKeyboard,
  takeTarget,
  targetAccepted,
  type ShopItem,
  type Storefront,
} from "./shopBuy.js";
import { customerOrders } from "./shopPayment.js";
import { explainMiss } from "./shopSearch.js";
import { searchMissKeyboard, shopHomeKeyboard, shopItemsKeyboard, storefrontHomeKeyboard } from "../keyboards/shop.js";
import type { FeatureModule } from "../module.js";
import { roleChanged } from "../roleMenu.js";

const PAGE_SIZE = 8;
const START_WITH_CODE = /^\/start(?:@\w+)?\s+(\S+)\s*$/i;

/** The shop code of a `/start <code>` message, if it carries one of a shop code's shape. */
export function shopStartCode(text: string | undefined): string | undefined {
  const code = text === undefined ? undefined : START_WITH_CODE.exec(text)?.[1];
  return code !== undefined && SHOP_CODE_PATTERN.test(code) ? code : undefined;
}

/** The shop this customer chat belongs to (the gate sends only customers here, /start <code> aside). */
function ownerOf(ctx: BotContext): number | undefined {
  const role = ctx.role;
  return role.kind === "customer" ? role.owner : undefined;
}

/** The shop's name as its owner set it in /toko, or a plain "Toko". */
function shopTitle(ctx: BotContext, front: Storefront): string {
  return front.name ? html(front.name) : ctx.t("shopfront-default-name");
}

/** Home: the shop's name, whether it sells now, its best sellers and categories, orders and contact. */
export async function showHome(ctx: BotContext, owner: number, edit = false): Promise<void> {
  const front = await loadStorefront(ctx, owner);
  const closed = closedText(ctx, front);
  const lines = [ctx.t("shopfront-home-title", { name: shopTitle(ctx, front) })];
  let selling: Parameters<typeof storefrontHomeKeyboard>[1];
  if (closed) lines.push("", closed);
  else if (front.items.length === 0) lines.push("", ctx.t("shopfront-empty"));
  else {
    lines.push("", ctx.t("shopfront-home-hint"));
    const popular = popularItems(front, ctx.deps, owner);
    if (popular.length > 0) lines.push("", ctx.t("shopfront-popular"));
    selling = { popular: popular.map((item) => itemButton(item, ctx.lang)), categories: shopCategories(front) };
  }
  const kb = storefrontHomeKeyboard(ctx, selling, Boolean(front.shop.contact));
  await show(ctx, lines.join("\n"), kb, edit);
}

async function show(ctx: BotContext, text: string, kb: InlineKeyboard, edit: boolean): Promise<void> {
  if (edit && ctx.callbackQuery?.message) {
    const done = await ctx.editMessageText(text, { reply_markup: kb }).then(() => true, () => false);
    if (done) return;
  }
  await ctx.reply(text, { reply_markup: kb });
}

/** A paged list of products, with the way back home. */
async function showItems(ctx: BotContext, title: string, items: readonly ShopItem[], page: number, to: (page: number) => string): Promise<void> {
  const shown = paginate(items, page, PAGE_SIZE);
  const kb = shopItemsKeyboard(ctx, shown.items.map((item) => itemButton(item, ctx.lang)), shown, to);
  await show(ctx, title, kb, true);
}

const looksLikeKey = (text: string) => isKeyShaped(text) || findKeys(text).length > 0;

/** Deletes a message that may be a key; at the target step the customer is asked for the target again. */
async function dropKey(ctx: BotContext, atTarget = false): Promise<void> {
  await ctx.deleteMessage().catch(() => undefined);
  if (atTarget) await ctx.reply(ctx.t("shopfront-target-like-key"), { reply_markup: cancelKeyboard(ctx) });
  else await ctx.reply(ctx.t("shopfront-no-keys"));
}

/** A typed search (`typed`: it may be a pasted key when it finds nothing), or a page of one. */
async function search(ctx: BotContext, owner: number, typed: string, page: number, typedNow = false): Promise<void> {
  const front = await loadStorefront(ctx, owner);
  const closed = closedText(ctx, front);
  if (closed) {
    await ctx.reply(closed);
    return;
  }
  const query = clipBytes(typed.replace(/\s+/g, " ").trim().slice(0, SEARCH_TEXT_MAX), SHOP_QUERY_MAX_BYTES);
  const found = query ? searchItems(front, query) : [];
  if (found.length === 0) {
    if (typedNow && looksLikeKey(typed)) return dropKey(ctx);
    const miss = query ? explainMiss(ctx, front, query, shownBack(query)) : { text: ctx.t("shopfront-search-none", { query: "" }), nearest: [] };
    const nearest = miss.nearest.length > 0 ? `\n\n${ctx.t("shopfront-search-nearest")}` : "";
    await ctx.reply(`${miss.text}${nearest}`, { reply_markup: searchMissKeyboard(ctx, miss.nearest.map((i) => itemButton(i, ctx.lang))) });
    return;
  }
  await showItems(ctx, ctx.t("shopfront-search-title", { query: shownBack(query) }), found, page, (p) =>
    shopButtons.search.encode({ page: p, query }),
  );
}

function clipBytes(text: string, max: number): string {
  let out = text;
  while (Buffer.byteLength(out, "utf8") > max) out = out.slice(0, -1);
  return out;
}

/** The customer's own orders in this shop, newest first. */
async function showOrders(ctx: BotContext, owner: number): Promise<void> {
  const orders = await customerOrders(ctx, owner, ctx.chat!.id);
  const kb = shopHomeKeyboard(ctx);
  if (orders.length === 0) {
    await ctx.reply(ctx.t("shopfront-orders-none"), { reply_markup: kb });
    return;
  }
  const lines = orders.slice(0, 10).map((o) =>
    ctx.t("shopfront-order-line", {
      product: html(o.productName),
      target: html(o.target),
      when: wibTime(o.createdAt, ctx.lang),
      state: ctx.t(`shopfront-order-${o.state}`),
    }),
  );
  await ctx.reply([ctx.t("shopfront-orders-title"), "", ...lines].join("\n"), { reply_markup: kb });
}

/**
 * A shop link opened in a private chat: the chat becomes that shop's customer (the shop it opened
 * last), unless it is a reseller's or staff chat. An unknown or retired code finds nothing.
 */
export async function openShop(ctx: BotContext, code: string): Promise<void> {
  const owner = await ctx.deps.shop.byCode(code);
  if (owner === undefined) {
    await ctx.reply(ctx.t("shopfront-not-found"));
    return;
  }
  const role = ctx.role;
  if (role.kind === "owner" || role.kind === "staff") {
    await ctx.reply(ctx.t("shopfront-reseller-cannot"));
    return;
  }
  if (role.kind !== "customer" || role.owner !== owner || role.code !== code) {
    await ctx.deps.shop.carts.clear(ctx.chat!.id);
    // A newcomer asked for a key earlier is not waiting for one any more: this chat shops.
    ctx.chatRecord = await ctx.deps.store.updateChat(ctx.chat!.id, { customerOf: { owner, code }, awaitingKey: false });
    await roleChanged(ctx, ctx.chat!.id, ctx.role);
  }
  await showHome(ctx, owner);
}

const front = new Composer<BotContext>();

front.command(commands.start, async (ctx) => {
  const code = shopStartCode(ctx.message?.text);
  if (code !== undefined) return openShop(ctx, code);
  const owner = ownerOf(ctx);
  if (owner !== undefined) await showHome(ctx, owner);
});

/** Everything else the front answers belongs to a customer chat. */
const customer = front.filter((ctx) => ownerOf(ctx) !== undefined);

customer.command([...commands.menu, ...commands.toko], (ctx) => showHome(ctx, ownerOf(ctx)!));
customer.command(commands.bantuan, (ctx) => ctx.reply(ctx.t("shopfront-help")));
customer.command(commands.pesanan, (ctx) => showOrders(ctx, ownerOf(ctx)!));
customer.command(commands.batal, async (ctx) => {
  const had = await ctx.deps.shop.carts.clear(ctx.chat!.id);
  await ctx.reply(ctx.t(had ? "cancelled" : "nothing-to-cancel"));
});
customer.use(languageFeature);
// Any other command is the reseller's: a customer chat gets the shop's way forward instead.
customer.on("message:text").filter((ctx) => ctx.message.text.startsWith("/"), async (ctx) => {
  const kb = shopHomeKeyboard(ctx);
  await ctx.reply(ctx.t("shopfront-customer-only"), { reply_markup: kb });
});

// The order's own buttons (Cek pembayaran, cancel, another product, refund) and the refund account reply.
customer.use(shopPayFeature);

function onShop<F>(shape: ShopButton<F>, handler: (ctx: BotContext, owner: number, fields: F) => Promise<unknown>): void {
  customer.on("callback_query:data", async (ctx, next) => {
    const fields = shape.decode(ctx.callbackQuery.data);
    if (fields === undefined) return next();
    await handler(ctx, ownerOf(ctx)!, fields);
  });
}

onShop(shopButtons.home, async (ctx, owner) => {
  await ctx.answerCallbackQuery();
  await showHome(ctx, owner, true);
});
onShop(shopButtons.category, async (ctx, owner, { cat, page }) => {
  await ctx.answerCallbackQuery();
  const front = await loadStorefront(ctx, owner);
  const closed = closedText(ctx, front);
  if (closed) return ctx.reply(closed);
  const items = itemsIn(front, cat);
  const name = items[0]?.product.category;
  if (!name) return showHome(ctx, owner, true);
  await showItems(ctx, ctx.t("shopfront-category-title", { category: html(name) }), items, page, (p) =>
    shopButtons.category.encode({ cat, page: p }),
  );
});
onShop(shopButtons.search, async (ctx, owner, { page, query }) => {
  await ctx.answerCallbackQuery();
  await search(ctx, owner, query, page);
});
onShop(shopButtons.product, async (ctx, owner, { product }) => {
  await ctx.answerCallbackQuery();
  await chooseProduct(ctx, await loadStorefront(ctx, owner), product);
});
onShop(shopButtons.pay, (ctx, owner, { nonce }) => pay(ctx, owner, nonce));
onShop(shopButtons.cancel, async (ctx) => {
  await ctx.answerCallbackQuery();
  await ctx.deps.shop.carts.clear(ctx.chat!.id);
  await ctx.editMessageReplyMarkup().catch(() => undefined);
  await ctx.reply(ctx.t("cancelled"));
});
onShop(shopButtons.orders, async (ctx, owner) => {
  await ctx.answerCallbackQuery();
  await showOrders(ctx, owner);
});
onShop(shopButtons.contact, async (ctx, owner) => {
  await ctx.answerCallbackQuery();
  const shop = await ctx.deps.shop.get(owner);
  await ctx.reply(shop.contact ? ctx.t("shopfront-contact", { contact: html(shop.contact) }) : ctx.t("shopfront-contact-none"));
});
// The menu's language button is the only menu button a customer has.
onCallback(customer, cb.menu, async (ctx, { name }) => {
  if (name !== "language") return ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
  await ctx.answerCallbackQuery();
  await askLanguage(ctx);
});
// Any other button (a reseller's, a forged one, one of another shop) is answered as expired.
customer.on("callback_query", (ctx) => ctx.answerCallbackQuery({ text: ctx.t("button-expired") }));

// Text: the target the cart waits for, else a search. A key pasted here is deleted and never used.
customer.on("message:text", async (ctx) => {
  const owner = ownerOf(ctx)!;
  const text = ctx.message.text;
  const cart = await ctx.deps.shop.carts.current(ctx.chat.id, ctx.deps.clock.now());
  if (cart?.state === "target" && cart.value.owner === owner) {
    const front = await loadStorefront(ctx, owner);
    // A target the product takes is a target, however it looks (a game id may look like a key).
    if (!targetAccepted(front, cart.value.productCode, text) && looksLikeKey(text)) return dropKey(ctx, true);
    await takeTarget(ctx, front, cart, text.trim());
    return;
  }
  if (findKeys(text).length > 0) return dropKey(ctx);
  if (text.length > CUSTOMER_TEXT_MAX) {
    await ctx.reply(ctx.t("shopfront-text-too-long", { max: CUSTOMER_TEXT_MAX }));
    return;
  }
  await search(ctx, owner, text, 0, true);
});
customer.on("message", (ctx) => ctx.reply(ctx.t("shopfront-hint")));

export const shopfrontFeature = front;

export const shopfrontModule: FeatureModule = {
  name: "shopfront",
  stage: "shopfront",
  composer: shopfrontFeature,
  families: ["sf"],
  // A customer's chat reaches nothing else: its /menu, /batal... and the language and order buttons land here.
  shares: {
    commands: ["start", "menu", "toko", "bantuan", "pesanan", "batal", "bahasa"],
    buttons: ["menu", "language"],
    families: ["so"],
  },
};
