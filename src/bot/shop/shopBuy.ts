/**
 * A customer's walk through a reseller's shop: the shop's catalogue (the owner's price list, fetched
 * with the owner's key, only available products of the shop's categories and operators, at the owner's
 * selling prices plus the QRIS fee when the customer carries it, the owner's best sellers first), then
 * product -> target (checked as the reseller's flow checks it) -> summary -> "Bayar dengan QRIS", which
 * hands over to the orders' `startPayment`. The steps live in the customer's cart (domain/shop/cart.ts),
 * so they survive a restart and a second tap on "Bayar" finds nothing. Nothing here shows the owner's
 * cost, balance or key: a customer sees selling prices only.
 */
import type { InlineKeyboard } from "grammy";
import { shopCancelKeyboard, shopSummaryKeyboard } from "../keyboards/shop.js";
import type { PrepaidProduct } from "../../upstream/types.js";
import type { ChatRecord, Lang } from "../../store/index.js";
import { UpstreamError } from "../../upstream/errors.js";
import type { Doc } from "../../domain/shop/shopDocs.js";
import type { Cart } from "../../domain/shop/cart.js";
import { shopStatus, type ShopConfig, type ShopStatus, payStepOf } from "../../domain/shop/settings.js";
import { shopQuote, type QrisMethod, type ShopQuote } from "../../domain/shop/checkout.js";
import { shopButtons } from "../../telegram/shopButtonData.js";
import { hideKeys } from "../../domain/keyShape.js";
import { clockText, html, productName, rupiah } from "../../render/format.js";
import { categories as categoriesOf, findByRef, productRef, searchProducts, sortForBrowsing } from "../catalog.js";
import { groupKey } from "../../domain/groupKey.js";
import type { BaseContext, BotContext, BotDeps } from "../context.js";
import { chatRules, quoteProduct } from "../pricing.js";
import { needsServer, operatorOf, targetKind, validateTarget } from "../targets.js";
import { moneyText } from "../replies.js";
import { startPayment, type OrderInput } from "./shopPayment.js";

/** What a customer types is refused beyond this many characters, before anything reads it. */
export const CUSTOMER_TEXT_MAX = 64;
/** A search is cut to this (it rides on the paging buttons). */
export const SEARCH_TEXT_MAX = 40;
const POPULAR_SHOWN = 4;
const POPULAR_FROM = 300;
const POPULAR_TTL_MS = 5 * 60_000;

export interface ShopItem {
  product: PrepaidProduct;
  quote: ShopQuote;
}

/** One shop as a customer sees it now. */
export interface Storefront {
  owner: number;
  name: string | undefined;
  shop: Readonly<ShopConfig>;
  status: ShopStatus;
  /** What the shop sells now, best sellers first, then in browsing order. Empty unless open. */
  items: ShopItem[];
  /** The owner's price list could not be read (provider down, key removed). */
  unavailable: boolean;
  /** The owner's listed products the shop does not sell now, and why (a search that finds nothing says it). */
  left?: LeftOut[];
  /** The smallest QRIS payment. */
  qrisMin?: number;
}

/** Why a listed product is not in the shop: out of stock, outside its categories and operators, or too cheap for a QRIS payment (or sold at a loss). */
export type LeftOutWhy = "soldout" | "notsold" | "belowmin";
export interface LeftOut {
  product: PrepaidProduct;
  why: LeftOutWhy;
}

const popularCache = new WeakMap<BotDeps, Map<number, { at: number; rank: Map<string, number> }>>();

/** How often each product code sold (successful prepaid sales) among the owner's recent transactions. */
async function popularity(deps: BotDeps, owner: number): Promise<Map<string, number>> {
  const now = deps.clock.now();
  let cache = popularCache.get(deps);
  if (!cache) popularCache.set(deps, (cache = new Map()));
  const hit = cache.get(owner);
  if (hit && now - hit.at < POPULAR_TTL_MS) return hit.rank;
  const rank = new Map<string, number>();
  for (const tx of await deps.ledger.recent(owner, POPULAR_FROM)) {
    if (tx.kind === "prepaid" && tx.status === "success" && tx.code) rank.set(tx.code, (rank.get(tx.code) ?? 0) + 1);
  }
  cache.set(owner, { at: now, rank });
  return rank;
}

/** The shop's QRIS method among the owner's deposit methods. */
function qrisOf(methods: readonly { method: string; active: boolean; fee: number; feePercent: number; min: number; max: number }[]): QrisMethod | undefined {
  return methods.find((m) => m.active && m.method.toLowerCase() === "qris");
}

/** Whether the shop sells this product at all (its categories and operators). */
export function inAssortment(shop: Readonly<ShopConfig>, product: PrepaidProduct): boolean {
  if (shop.categories?.length && !shop.categories.includes(groupKey(product.category))) return false;
  const operator = shop.operators?.length ? operatorOf(product) : undefined;
  return operator === undefined || shop.operators!.includes(operator);
}

/** The owner's record and key: the shop reads the owner's price list with it and never shows it. */
async function ownerKey(deps: BotDeps, owner: number): Promise<{ record: Readonly<ChatRecord>; key: string } | undefined> {
  const record = await deps.store.getChat(owner);
  const key = record && deps.store.apiKeyOf(record);
  return record && key ? { record, key } : undefined;
}

export async function loadStorefront(ctx: BaseContext, owner: number): Promise<Storefront> {
  const { deps } = ctx;
  const shop = await deps.shop.get(owner);
  const status = shopStatus(shop, deps.clock.now());
  const base = { owner, shop, status, items: [] as ShopItem[], unavailable: false };
  const found = await ownerKey(deps, owner).catch(() => undefined);
  const name = found?.record.shopName;
  if (!found) return { ...base, name, status: status === "open" ? "off" : status, unavailable: status === "open" };
  if (status !== "open") return { ...base, name };
  try {
    const [list, methods, rules, rank] = await Promise.all([
      deps.lists.prepaid(found.key),
      deps.lists.depositMethods(found.key),
      chatRules(ctx, owner),
      popularity(deps, owner),
    ]);
    const qris = qrisOf(methods);
    if (!qris) return { ...base, name, unavailable: true };
    const items: ShopItem[] = [];
    const left: LeftOut[] = [];
    for (const product of sortForBrowsing(list)) {
      if (!inAssortment(shop, product)) left.push({ product, why: "notsold" });
      else if (!product.available) left.push({ product, why: "soldout" });
      else {
        const price = quoteProduct(rules, product).price;
        const quote = shopQuote(price, product.price, qris, shop.feePayer, payStepOf(shop));
        if (quote) items.push({ product, quote });
        else left.push({ product, why: price < qris.min ? "belowmin" : "notsold" });
      }
    }
    const sold = (i: ShopItem) => rank.get(i.product.code) ?? 0;
    // A stable sort: equally popular products stay in browsing order.
    items.sort((a, b) => sold(b) - sold(a));
    return { ...base, name, items, left, qrisMin: qris.min };
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    return { ...base, name, unavailable: true };
  }
}

export function popularItems(front: Storefront, deps: BotDeps, owner: number): ShopItem[] {
  const rank = popularCache.get(deps)?.get(owner)?.rank;
  return front.items.filter((i) => (rank?.get(i.product.code) ?? 0) > 0).slice(0, POPULAR_SHOWN);
}

/** The shop's categories that have something to sell, in the price list's order. */
export function shopCategories(front: Storefront): { key: string; name: string; count: number }[] {
  const list = front.items.map((i) => i.product);
  return categoriesOf(list).map((g) => ({ key: g.key, name: g.name, count: g.count }));
}

export function itemsIn(front: Storefront, categoryKey: string): ShopItem[] {
  return front.items.filter((i) => groupKey(i.product.category) === categoryKey);
}

export function searchItems(front: Storefront, query: string): ShopItem[] {
  const byCode = new Map(front.items.map((i) => [i.product.code, i]));
  return searchProducts(front.items.map((i) => i.product), query).flatMap((p) => byCode.get(p.code) ?? []);
}

/** A product's button: its name and what the customer pays. */
export function itemLabel(item: ShopItem, lang: Lang): string {
  return `${productName(item.product.name, lang)} · ${rupiah(item.quote.pay, lang)}`;
}

export function itemButton(item: ShopItem, lang: Lang): [string, string] {
  return [itemLabel(item, lang), shopButtons.product.encode({ product: productRef(item.product.code) })];
}

export function cancelKeyboard(ctx: BaseContext): InlineKeyboard {
  return shopCancelKeyboard(ctx);
}

/** Why the shop does not sell now, in the customer's words; undefined when it does. */
export function closedText(ctx: BaseContext, front: Storefront): string | undefined {
  if (front.unavailable) return ctx.t("shopfront-unavailable");
  switch (front.status) {
    case "open":
      return undefined;
    case "off":
      return ctx.t("shopfront-off");
    case "paused":
      return ctx.t("shopfront-paused");
    case "closed":
      return ctx.t("shopfront-closed", { open: clockText(front.shop.hours?.open ?? "", ctx.lang), close: clockText(front.shop.hours?.close ?? "", ctx.lang) });
  }
}

/** The price lines of a product: what the customer pays, the QRIS fee when it is added. */
function priceLines(ctx: BaseContext, front: Storefront, item: ShopItem): string[] {
  const lines = [ctx.t("shopfront-product-line", { name: html(item.product.name), price: rupiah(item.quote.pay, ctx.lang) })];
  if (front.shop.feePayer === "customer" && item.quote.pay !== item.quote.price) {
    // The QRIS fee as the provider takes it; what the shop's rounding added is said apart.
    const rounding = item.quote.pay - item.quote.price - item.quote.fee;
    const fee = { price: rupiah(item.quote.price, ctx.lang), fee: rupiah(item.quote.fee, ctx.lang), rounding: rupiah(rounding, ctx.lang) };
    lines.push(`<i>${ctx.t(rounding > 0 ? "shopfront-fee-rounded" : "shopfront-fee-included", fee)}</i>`);
  }
  return lines;
}

/** A product was tapped: its price, note and what to type; the cart waits for the target. */
export async function chooseProduct(ctx: BotContext, front: Storefront, ref: string): Promise<void> {
  const closed = closedText(ctx, front);
  if (closed) {
    await ctx.reply(closed);
    return;
  }
  const product = findByRef(front.items.map((i) => i.product), ref);
  const item = product && front.items.find((i) => i.product.code === product.code);
  if (!item) {
    await ctx.reply(ctx.t("shopfront-product-gone"));
    return;
  }
  await ctx.deps.shop.carts.begin(ctx.chat!.id, front.owner, item.product.code, ctx.deps.clock.now());
  const kind = targetKind(item.product);
  const ask = kind === "game" && needsServer(item.product) ? "target-ask-game-server" : `target-ask-${kind}`;
  const note = item.product.note.trim();
  const lines = [...priceLines(ctx, front, item), ...(note ? [ctx.t("topup-note-line", { note: html(note) })] : []), "", ctx.t(ask)];
  await ctx.reply(lines.join("\n"), { reply_markup: cancelKeyboard(ctx) });
}

/** Whether `text` is a target the cart's product takes (a game id may look like a key: it is still a target). */
export function targetAccepted(front: Storefront, productCode: string, text: string): boolean {
  const item = front.items.find((i) => i.product.code === productCode);
  return item !== undefined && text.trim().length <= CUSTOMER_TEXT_MAX && validateTarget(item.product, text.trim()).ok;
}

/** Text while the cart waits for a target: checked, then the summary with the pay button. */
export async function takeTarget(ctx: BotContext, front: Storefront, cart: Doc<Cart>, text: string): Promise<void> {
  const closed = closedText(ctx, front);
  const item = front.items.find((i) => i.product.code === cart.value.productCode);
  if (closed || !item) {
    await ctx.deps.shop.carts.clear(ctx.chat!.id);
    await ctx.reply(closed ?? ctx.t("shopfront-product-gone"));
    return;
  }
  if (text.length > CUSTOMER_TEXT_MAX) {
    await ctx.reply(ctx.t("shopfront-text-too-long", { max: CUSTOMER_TEXT_MAX }), { reply_markup: cancelKeyboard(ctx) });
    return;
  }
  const checked = validateTarget(item.product, text);
  if (!checked.ok) {
    const vars = Object.fromEntries(Object.entries(checked.vars ?? {}).map(([k, v]) => [k, typeof v === "string" ? html(v) : v]));
    await ctx.reply(ctx.t(checked.error, vars), { reply_markup: cancelKeyboard(ctx) });
    return;
  }
  const summary = await ctx.deps.shop.carts.toSummary(cart, checked.value, item.quote.pay, ctx.deps.clock.now());
  if (!summary) return; // another tap of this chat changed the cart first
  await showSummary(ctx, front, item, summary);
}

async function showSummary(ctx: BotContext, front: Storefront, item: ShopItem, cart: Doc<Cart>): Promise<void> {
  const lines = [
    ctx.t("shopfront-summary-title"),
    "",
    ...priceLines(ctx, front, item),
    ctx.t("shopfront-summary-target", { target: html(cart.value.target ?? "") }),
    "",
    ctx.t("shopfront-summary-total", { total: rupiah(item.quote.pay, ctx.lang) }),
  ];
  const kb = shopSummaryKeyboard(ctx, cart.value.nonce);
  await ctx.reply(moneyText(ctx, lines.join("\n")), { reply_markup: kb });
}

/** "Bayar dengan QRIS": the first tap of a live summary goes on to the payment at today's price. */
export async function pay(ctx: BotContext, owner: number, nonce: string): Promise<void> {
  const chatId = ctx.chat!.id;
  const cart = await ctx.deps.shop.carts.claimPay(chatId, nonce, ctx.deps.clock.now());
  if (!cart || cart.value.owner !== owner || cart.value.target === undefined) {
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    return;
  }
  await ctx.answerCallbackQuery();
  await ctx.editMessageReplyMarkup().catch(() => undefined);
  const front = await loadStorefront(ctx, owner);
  const closed = closedText(ctx, front);
  const item = front.items.find((i) => i.product.code === cart.value.productCode);
  if (closed || !item) {
    await ctx.deps.shop.carts.clear(chatId);
    await ctx.reply(closed ?? ctx.t("shopfront-product-gone"));
    return;
  }
  if (item.quote.pay !== cart.value.pay) {
    const again = await ctx.deps.shop.carts.reprice(cart, item.quote.pay, ctx.deps.clock.now());
    await ctx.reply(ctx.t("shopfront-price-changed"));
    if (again) await showSummary(ctx, front, item, again);
    return;
  }
  const from = ctx.from;
  const customerName = [from?.first_name, from?.last_name].filter(Boolean).join(" ").slice(0, 64);
  const input: OrderInput = {
    owner,
    customer: chatId,
    customerName,
    productCode: item.product.code,
    productName: item.product.name,
    target: cart.value.target,
    price: item.quote.pay,
    cost: item.quote.cost,
    fee: item.quote.fee,
    feePayer: front.shop.feePayer,
    lang: ctx.lang,
  };
  await ctx.deps.shop.carts.clear(chatId);
  await startPayment(ctx, input);
}

/** What a customer typed, made safe to show back: one line, bounded, no key-shaped words, escaped. */
export function shownBack(text: string, max = SEARCH_TEXT_MAX): string {
  return html(hideKeys(text.replace(/\s+/g, " ").trim()).slice(0, max));
}
