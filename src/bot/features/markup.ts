/**
 * The reseller's selling prices: /markup shows and sets the chat's rules, /hargajual (/sellprice)
 * fixes one product's price. A downline's are its own, on top of its price (never what it pays). The rules are pure (domain/pricing.ts); this file reads commands.
 *   /markup 2000 | 5% | pulsa 1500 | PLN100 2500 | tagihan 2500 | hapus [pulsa|PLN100|tagihan|semua]
 *   /hargajual S10 12000 | /hargajual S10 hapus
 * The words work in both languages (hapus/clear, semua/all, tagihan/bills).
 */
import { Composer, type CommandContext } from "grammy";
import { noRules } from "../../domain/pricing.js";
import { html, rupiah } from "../../render/format.js";
import { ruleLines } from "../../render/pricingRules.js";
import { hideKeys } from "../../domain/keyShape.js";
import type { Lang, Markup, PricingRules } from "../../store/index.js";
import { UpstreamError } from "../../upstream/errors.js";
import type { PrepaidProduct } from "../../upstream/types.js";
import { parseRupiah } from "../amount.js";
import { categories, findByCode } from "../catalog.js";
import { groupKey } from "../../domain/groupKey.js";
import type { BaseContext, BotContext } from "../context.js";
import { requireKey } from "../guards.js";
import type { FeatureModule } from "../module.js";
import { chatSeller, quoteOf, sellingChat, sellingRules } from "../pricing.js";
import { upstreamErrorText } from "../replies.js";
import { commands } from "../../telegram/commands.js";
import { audit } from "../../domain/audit.js";

/** A word the reseller typed, shown back: escaped, and never an api key typed by mistake. */
function typed(word: string): string {
  return html(hideKeys(word));
}

/** A flat markup above this is a typo, not a price. */
export const MAX_FLAT_MARKUP = 1_000_000;
export const MAX_PERCENT_MARKUP = 100;
/** A fixed selling price above this is a typo. */
export const MAX_FIXED_PRICE = 100_000_000;

const CLEAR_WORDS = new Set(["hapus", "clear"]);
const ALL_WORDS = new Set(["semua", "all"]);
const BILL_WORDS = new Set(["tagihan", "bills", "bill"]);

export type MarkupInput = { ok: true; markup: Markup } | { ok: false; error: string; vars?: Record<string, string> };

/** "2000", "2.000", "2rb", "0" (sold at cost), "5%", "2,5%". */
export function parseMarkup(text: string, lang: Lang): MarkupInput {
  const s = text.trim().toLowerCase();
  const pct = /^(\d{1,3})(?:[.,](\d{1,2}))?\s*%$/.exec(s);
  if (pct) {
    const percent = Number(`${pct[1]}.${pct[2] ?? "0"}`);
    if (percent > MAX_PERCENT_MARKUP) return { ok: false, error: "markup-percent-range" };
    return { ok: true, markup: { percent } };
  }
  if (/^(rp\.?\s*)?0+$/.test(s)) return { ok: true, markup: { flat: 0 } };
  const flat = parseRupiah(s);
  if (flat === undefined) return { ok: false, error: "markup-unreadable" };
  if (flat > MAX_FLAT_MARKUP) return { ok: false, error: "markup-flat-range", vars: { max: rupiah(MAX_FLAT_MARKUP, lang) } };
  return { ok: true, markup: { flat } };
}

/** The rules without empty maps; undefined when nothing is left (the chat record drops the field). */
function tidy(rules: PricingRules): PricingRules | undefined {
  const out: PricingRules = {};
  if (rules.all) out.all = rules.all;
  for (const k of ["categories", "products", "fixed"] as const) {
    const map = rules[k];
    if (map && Object.keys(map).length > 0) Object.assign(out, { [k]: map });
  }
  if (rules.billFee) out.billFee = rules.billFee;
  return noRules(out) ? undefined : out;
}

/**
 * Saves the owner's rules (a shop admin changes its owner's; a downline its own, on top of its price)
 * and logs the change with both versions.
 */
async function save(ctx: BaseContext, rules: PricingRules): Promise<void> {
  const chat = sellingChat(ctx);
  const before = await ctx.deps.settings.pricing(chat);
  const after = tidy(rules);
  await ctx.deps.settings.setPricing(chat, after);
  await audit(ctx, "prices_changed", before, after ?? {});
}

/** A copy of `map` without `key`. */
function without<T>(map: Readonly<Record<string, T>> | undefined, key: string): Record<string, T> {
  const { [key]: _dropped, ...rest } = map ?? {};
  return rest;
}

/** A key of `map` equal to `word` ignoring case (product codes are typed in any case). */
function keyLike(map: Readonly<Record<string, unknown>> | undefined, word: string): string | undefined {
  return Object.keys(map ?? {}).find((k) => k.toLowerCase() === word.toLowerCase());
}

/** The chat's rules, most general first, then how they combine and examples. */
export function rulesText(ctx: BaseContext, rules: PricingRules): string {
  const lines = [ctx.t("markup-title"), ...(noRules(rules) ? [ctx.t("markup-none")] : []), ...ruleLines(ctx.translate, ctx.lang, rules)];
  return `${lines.join("\n")}\n\n${ctx.t("markup-explain")}`;
}

/** The chat's price list; on a provider failure the user is told and undefined returned. */
async function priceList(ctx: BaseContext, key: string): Promise<readonly PrepaidProduct[] | undefined> {
  try {
    return await ctx.deps.lists.prepaid(key);
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    await ctx.reply(upstreamErrorText(ctx, err));
    return undefined;
  }
}

async function saved(ctx: BaseContext, rules: PricingRules): Promise<void> {
  await save(ctx, rules);
  await ctx.reply(`${ctx.t("markup-saved")}\n\n${rulesText(ctx, await sellingRules(ctx))}`);
}

async function removeRule(ctx: BaseContext, rules: PricingRules, words: string[]): Promise<void> {
  const [word, ...extra] = words;
  if (extra.length > 0) {
    await ctx.reply(ctx.t("markup-unreadable"));
    return;
  }
  const w = word?.toLowerCase();
  const notFound = (what: string) => ctx.reply(ctx.t("markup-no-rule", { what: typed(what) }));
  if (w === undefined) {
    if (!rules.all) return void (await notFound(ctx.t("markup-what-all")));
    return saved(ctx, { ...rules, all: undefined });
  }
  if (ALL_WORDS.has(w)) {
    await save(ctx, {});
    await ctx.reply(`${ctx.t("markup-cleared")}\n\n${rulesText(ctx, {})}`);
    return;
  }
  if (BILL_WORDS.has(w)) {
    if (!rules.billFee) return void (await notFound(word!));
    return saved(ctx, { ...rules, billFee: undefined });
  }
  const category = groupKey(word!);
  if (rules.categories && Object.hasOwn(rules.categories, category)) {
    return saved(ctx, { ...rules, categories: without(rules.categories, category) });
  }
  const code = keyLike(rules.products, word!);
  if (code !== undefined) return saved(ctx, { ...rules, products: without(rules.products, code) });
  await notFound(word!);
}

async function markupCommand(ctx: CommandContext<BotContext>): Promise<void> {
  const key = await requireKey(ctx);
  if (!key) return;
  const words = ctx.match.trim().split(/\s+/).filter(Boolean);
  const rules = await sellingRules(ctx);
  if (words.length === 0) {
    await ctx.reply(rulesText(ctx, rules));
    return;
  }
  if (CLEAR_WORDS.has(words[0]!.toLowerCase())) return removeRule(ctx, rules, words.slice(1));
  if (words.length > 2) {
    await ctx.reply(ctx.t("markup-unreadable"));
    return;
  }
  // The value first: a wrong one is answered without asking the provider anything.
  const parsed = parseMarkup(words.at(-1)!, ctx.lang);
  if (!parsed.ok) {
    await ctx.reply(ctx.t(parsed.error, parsed.vars));
    return;
  }
  const markup = parsed.markup;
  const target = words.length === 2 ? words[0]! : undefined;
  if (target === undefined || ALL_WORDS.has(target.toLowerCase())) return saved(ctx, { ...rules, all: markup });
  if (BILL_WORDS.has(target.toLowerCase())) {
    if (!("flat" in markup)) {
      await ctx.reply(ctx.t("markup-bills-flat"));
      return;
    }
    return saved(ctx, { ...rules, billFee: markup.flat });
  }
  const list = await priceList(ctx, key);
  if (!list) return;
  const groups = categories(list);
  const category = groupKey(target);
  if (groups.some((g) => g.key === category)) {
    return saved(ctx, { ...rules, categories: { ...rules.categories, [category]: markup } });
  }
  const product = findByCode(list, target);
  if (product) return saved(ctx, { ...rules, products: { ...rules.products, [product.code]: markup } });
  await ctx.reply(ctx.t("markup-unknown-target", { word: typed(target), categories: groups.map((g) => html(g.key)).join(", ") }));
}

async function sellPriceCommand(ctx: CommandContext<BotContext>): Promise<void> {
  const key = await requireKey(ctx);
  if (!key) return;
  const words = ctx.match.trim().split(/\s+/).filter(Boolean);
  const rules = await sellingRules(ctx);
  if (words.length === 2 && CLEAR_WORDS.has(words[1]!.toLowerCase())) {
    const code = keyLike(rules.fixed, words[0]!);
    if (code === undefined) {
      await ctx.reply(ctx.t("sellprice-none-for", { code: typed(words[0]!) }));
      return;
    }
    await save(ctx, { ...rules, fixed: without(rules.fixed, code) });
    await ctx.reply(ctx.t("sellprice-removed", { code: html(code) }));
    return;
  }
  const price = words.length === 2 ? parseRupiah(words[1]!) : undefined;
  if (price === undefined || price > MAX_FIXED_PRICE) {
    await ctx.reply(words.length === 0 ? ctx.t("sellprice-usage") : `${ctx.t("sellprice-unreadable")}\n${ctx.t("sellprice-usage")}`);
    return;
  }
  const list = await priceList(ctx, key);
  if (!list) return;
  const product = findByCode(list, words[0]!);
  if (!product) {
    await ctx.reply(ctx.t("sellprice-unknown-code", { code: typed(words[0]!) }));
    return;
  }
  await save(ctx, { ...rules, fixed: { ...rules.fixed, [product.code]: price } });
  const quote = quoteOf((await chatSeller(ctx))(product));
  const lines = [
    ctx.t("sellprice-set", { name: html(product.name), code: html(product.code), price: rupiah(price, ctx.lang), cost: rupiah(quote.cost, ctx.lang), profit: rupiah(quote.profit, ctx.lang) }),
    ...(quote.profit < 0 ? [ctx.t("sellprice-below-cost", { cost: rupiah(quote.cost, ctx.lang) })] : []),
  ];
  await ctx.reply(lines.join("\n"));
}

const composer = new Composer<BotContext>();
composer.command(commands.markup, markupCommand);
composer.command(commands.hargajual, sellPriceCommand);

/** The menu's "selling prices": the rules, as /markup alone shows them. */
async function showRules(ctx: BotContext): Promise<void> {
  if (!(await requireKey(ctx))) return;
  await ctx.reply(rulesText(ctx, await sellingRules(ctx)));
}

export const markupModule: FeatureModule = {
  name: "markup",
  composer,
  commands: { markup: "admin", hargajual: "admin" },
  menu: { markup: showRules },
};
