/**
 * "Toko online" in /toko: the owner sets the shop customers buy from by themselves. Buttons turn it
 * on or off, pause it in one tap, pick who carries the QRIS fee, allow instant release, pick the
 * categories and operators sold, show the link with its QR image and make a new link (the old one then
 * finds nothing). Typed settings: `/toko jam 08:00-21:00`, `/toko batas 30`, `/toko kontak WA 0812…`.
 */
import { Composer, InputFile, type InlineKeyboard } from "grammy";
import { newLinkAskKeyboard, onlineShopButton, pickerKeyboard, settingsKeyboard } from "../keyboards/shopOnline.js";
import type { BotContext } from "../context.js";
import { isPrivate, replyPrivateOnly } from "../guards.js";
import { clockText, html, rupiah } from "../../render/format.js";
import { qrPng } from "../../render/qr.js";
import { categories } from "../catalog.js";
import { OPERATOR_NAMES, type Operator } from "../targets.js";
import { feeDescription } from "../money/depositTexts.js";
import { withApiKey } from "../provider.js";
import { allows, ledgerChat, refusalText } from "../middlewares/roleGate.js";
import { audit } from "../../domain/audit.js";
import { shopButtons, type ShopButton } from "../../telegram/shopButtonData.js";
import { CONTACT_MAX, DAILY_CAP_MAX, HOUR_PATTERN, payStepOf, shopStatus, type ShopConfig } from "../../domain/shop/settings.js";

const HOURS_WORDS = new Set(["jam", "hours"]);
const CAP_WORDS = new Set(["batas", "cap"]);
const CONTACT_WORDS = new Set(["kontak", "contact"]);
const ONLINE_WORDS = new Set(["online"]);
const CLEAR_WORDS = new Set(["hapus", "clear", "off"]);
const OPERATORS = Object.keys(OPERATOR_NAMES) as Operator[];

/** The button under /toko that opens the online shop's settings. */
export function onlineShopKeyboard(ctx: BotContext): InlineKeyboard {
  return onlineShopButton(ctx);
}

export function shopLink(ctx: BotContext, code: string): string {
  return `https://t.me/${ctx.me.username}?start=${code}`;
}

/** The shop's owner: a reseller with a key sets its own, a shop admin its owner's; others are told so. */
async function ownerOnly(ctx: BotContext): Promise<number | undefined> {
  if (!isPrivate(ctx)) {
    await replyPrivateOnly(ctx);
    return undefined;
  }
  const role = ctx.role;
  if (role.kind !== "owner" && !(role.kind === "staff" && allows(role, "admin"))) {
    if (ctx.callbackQuery) await ctx.answerCallbackQuery();
    await ctx.reply(ctx.t("shop-online-owner-only"));
    return undefined;
  }
  return ledgerChat(ctx);
}

/** Changes the shop and notes it in the owner's audit log: the fields changed, before and after. */
async function save(ctx: BotContext, owner: number, patch: Partial<ShopConfig>): Promise<Readonly<ShopConfig>> {
  const before = await ctx.deps.shop.get(owner);
  const after = await ctx.deps.shop.update(owner, patch);
  const keys = Object.keys(patch) as (keyof ShopConfig)[];
  const pick = (shop: Readonly<ShopConfig>) => ({ online: Object.fromEntries(keys.map((k) => [k, shop[k] ?? null])) });
  await audit(ctx, "shop_changed", pick(before), pick(after));
  return after;
}

/** The QRIS fee as the provider publishes it for the owner's key, for the settings screen. */
async function qrisFeeText(ctx: BotContext): Promise<string> {
  const methods = await withApiKey(ctx, (key) => ctx.deps.lists.depositMethods(key));
  const qris = methods.ok ? methods.value.find((m) => m.active && m.method.toLowerCase() === "qris") : undefined;
  return qris ? feeDescription(ctx, qris.fee, qris.feePercent) : "?";
}

async function settingsText(ctx: BotContext, shop: Readonly<ShopConfig>): Promise<string> {
  const status = shopStatus(shop, ctx.deps.clock.now());
  const names = (keys: readonly string[] | undefined, name: (k: string) => string) =>
    keys?.length ? keys.map((k) => html(name(k))).join(", ") : ctx.t("shop-online-all");
  const lines = [
    ctx.t("shop-online-title"),
    "",
    ctx.t("shop-online-status", { status: ctx.t(`shop-online-status-${status}`) }),
    ctx.t("shop-online-link", { link: shop.code ? html(shopLink(ctx, shop.code)) : ctx.t("shop-not-set") }),
    ctx.t("shop-online-categories", { list: names(shop.categories, (k) => k) }),
    ctx.t("shop-online-operators", { list: names(shop.operators, (k) => OPERATOR_NAMES[k as Operator] ?? k) }),
    ctx.t("shop-online-hours", { hours: shop.hours ? `${clockText(shop.hours.open, ctx.lang)}–${clockText(shop.hours.close, ctx.lang)} WIB` : ctx.t("shop-online-hours-always") }),
    ctx.t("shop-online-fee", { payer: ctx.t(`shop-online-fee-${shop.feePayer}`), fee: await qrisFeeText(ctx) }),
    ctx.t("shop-online-step", { step: rupiah(payStepOf(shop), ctx.lang) }),
    ctx.t("shop-online-release", { on: ctx.t(shop.instantRelease ? "shop-online-yes" : "shop-online-no") }),
    ctx.t("shop-online-cap", { cap: shop.dailyUnpaidCap }),
    ctx.t("shop-online-contact", { contact: shop.contact ? html(shop.contact) : ctx.t("shop-not-set") }),
    "",
    ctx.t("shop-online-typed"),
  ];
  return lines.join("\n");
}

async function showSettings(ctx: BotContext, owner: number, edit: boolean): Promise<void> {
  const shop = await ctx.deps.shop.get(owner);
  const text = await settingsText(ctx, shop);
  const kb = settingsKeyboard(ctx, shop, ctx.lang);
  if (edit && ctx.callbackQuery?.message) {
    const done = await ctx.editMessageText(text, { reply_markup: kb, link_preview_options: { is_disabled: true } }).then(() => true, () => false);
    if (done) return;
  }
  await ctx.reply(text, { reply_markup: kb, link_preview_options: { is_disabled: true } });
}

/** The link as text and as a QR image to print or post. */
async function sendLink(ctx: BotContext, code: string): Promise<void> {
  const link = shopLink(ctx, code);
  const png = await qrPng(link);
  await ctx.replyWithPhoto(new InputFile(png, `${ctx.t("shop-online-qr-file")}.png`), { caption: ctx.t("shop-online-link-caption", { link: html(link) }) });
}

type Typed = { ok: true; patch: Partial<ShopConfig> } | { ok: false; error: string; vars?: Record<string, number> };

/** `jam 08:00-21:00` / `jam hapus`, `batas 30`, `kontak …` / `kontak hapus`: undefined when `args` is none of them. */
export function parseOnlineSetting(args: string): Typed | "show" | undefined {
  const trimmed = args.trim();
  const [first = "", ...rest] = trimmed.split(/\s+/);
  const word = first.toLowerCase();
  const value = rest.join(" ").trim();
  if (ONLINE_WORDS.has(word) && !value) return "show";
  if (HOURS_WORDS.has(word)) {
    if (CLEAR_WORDS.has(value.toLowerCase())) return { ok: true, patch: { hours: undefined } };
    const m = /^(\d{1,2})[:.](\d{2})\s*[-–]\s*(\d{1,2})[:.](\d{2})$/.exec(value);
    const open = m && `${m[1]!.padStart(2, "0")}:${m[2]}`;
    const close = m && `${m[3]!.padStart(2, "0")}:${m[4]}`;
    if (!open || !close || !HOUR_PATTERN.test(open) || !HOUR_PATTERN.test(close) || open === close) return { ok: false, error: "shop-online-hours-invalid" };
    return { ok: true, patch: { hours: { open, close } } };
  }
  if (CAP_WORDS.has(word)) {
    const cap = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
    if (!(cap >= 1 && cap <= DAILY_CAP_MAX)) return { ok: false, error: "shop-online-cap-invalid", vars: { max: DAILY_CAP_MAX } };
    return { ok: true, patch: { dailyUnpaidCap: cap } };
  }
  if (CONTACT_WORDS.has(word)) {
    if (!value) return { ok: false, error: "shop-online-contact-missing" };
    if (CLEAR_WORDS.has(value.toLowerCase())) return { ok: true, patch: { contact: undefined } };
    const contact = value.replace(/\s+/g, " ");
    if (contact.length > CONTACT_MAX) return { ok: false, error: "shop-online-contact-too-long", vars: { max: CONTACT_MAX } };
    return { ok: true, patch: { contact } };
  }
  return undefined;
}

/** `/toko <args>` when args is an online-shop setting: handled here (true), else left to the name/footer. */
export async function onlineShopCommand(ctx: BotContext, args: string): Promise<boolean> {
  const typed = parseOnlineSetting(args);
  if (typed === undefined) return false;
  const owner = await ownerOnly(ctx);
  if (owner === undefined) return true;
  if (typed === "show") {
    await showSettings(ctx, owner, false);
    return true;
  }
  if (!typed.ok) {
    await ctx.reply(ctx.t(typed.error, typed.vars));
    return true;
  }
  if (await refusedToStaff(ctx, typed.patch)) return true;
  await save(ctx, owner, typed.patch);
  await ctx.reply(ctx.t("shop-online-saved"));
  await showSettings(ctx, owner, false);
  return true;
}

export const onlineShopFeature = new Composer<BotContext>();

function onOwner<F>(shape: ShopButton<F>, handler: (ctx: BotContext, owner: number, fields: F) => Promise<unknown>): void {
  onlineShopFeature.on("callback_query:data", async (ctx, next) => {
    const fields = shape.decode(ctx.callbackQuery.data);
    if (fields === undefined) return next();
    const owner = await ownerOnly(ctx);
    if (owner !== undefined) await handler(ctx, owner, fields);
  });
}

/**
 * Turning the shop off and the instant release of deposits (the provider's fee, from the owner's money)
 * are the owner's alone; a shop admin sets the rest. True when refused (and said so).
 */
async function refusedToStaff(ctx: BotContext, patch: Partial<ShopConfig>): Promise<boolean> {
  if (ctx.role.kind !== "staff") return false;
  const what = patch.enabled === false ? "shop-online-what-off" : patch.instantRelease !== undefined ? "shop-online-what-release" : undefined;
  if (what === undefined) return false;
  const text = refusalText(ctx, "owner", ctx.t(what));
  if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text, show_alert: true });
  else await ctx.reply(text);
  return true;
}

/** Changes the shop and shows the settings again in place. */
async function change(ctx: BotContext, owner: number, patch: Partial<ShopConfig>): Promise<void> {
  if (await refusedToStaff(ctx, patch)) return;
  await save(ctx, owner, patch);
  await ctx.answerCallbackQuery({ text: ctx.t("shop-online-saved") });
  await showSettings(ctx, owner, true);
}

onOwner(shopButtons.settings, async (ctx, owner) => {
  await ctx.answerCallbackQuery();
  await showSettings(ctx, owner, false);
});
onOwner(shopButtons.enable, async (ctx, owner, { on }) => {
  // The first time on: the shop gets its link.
  if (on === "on" && !(await ctx.deps.shop.get(owner)).code) await ctx.deps.shop.newLink(owner);
  await change(ctx, owner, { enabled: on === "on", paused: false });
});
onOwner(shopButtons.pause, (ctx, owner, { on }) => change(ctx, owner, { paused: on === "on" }));
onOwner(shopButtons.feePayer, (ctx, owner, { payer }) => change(ctx, owner, { feePayer: payer === "reseller" ? "reseller" : "customer" }));
onOwner(shopButtons.payStep, (ctx, owner, { step }) => change(ctx, owner, { payStep: Number(step) }));
onOwner(shopButtons.instantRelease, (ctx, owner, { on }) => change(ctx, owner, { instantRelease: on === "on" }));

/** Toggling one of `all` in `chosen` (none chosen = all sold); "*" sells all again. */
export function toggled(all: readonly string[], chosen: readonly string[] | undefined, key: string): string[] | undefined {
  if (key === "*") return undefined;
  if (!all.includes(key)) return chosen ? [...chosen] : undefined;
  const current = chosen?.length ? chosen.filter((k) => all.includes(k)) : [...all];
  const next = current.includes(key) ? current.filter((k) => k !== key) : [...current, key];
  return next.length === 0 || next.length === all.length ? undefined : all.filter((k) => next.includes(k));
}

const toCat = (cat: string) => shopButtons.categoryToggle.encode({ cat });
const toOp = (op: string) => shopButtons.operatorToggle.encode({ op });

async function categoryOptions(ctx: BotContext): Promise<{ key: string; name: string }[] | undefined> {
  const list = await withApiKey(ctx, (key) => ctx.deps.lists.prepaid(key));
  return list.ok ? categories(list.value).map((g) => ({ key: g.key, name: g.name })) : undefined;
}

async function showPicker(ctx: BotContext, title: string, kb: InlineKeyboard): Promise<void> {
  const done = await ctx.editMessageText(title, { reply_markup: kb }).then(() => true, () => false);
  if (!done) await ctx.reply(title, { reply_markup: kb });
}

onOwner(shopButtons.categories, async (ctx, owner) => {
  await ctx.answerCallbackQuery();
  const options = await categoryOptions(ctx);
  if (!options) return ctx.reply(ctx.t("upstream-unavailable"));
  const shop = await ctx.deps.shop.get(owner);
  await showPicker(ctx, ctx.t("shop-online-categories-title"), pickerKeyboard(ctx, options, shop.categories, toCat));
});
onOwner(shopButtons.categoryToggle, async (ctx, owner, { cat }) => {
  const options = await categoryOptions(ctx);
  if (!options) return ctx.answerCallbackQuery({ text: ctx.t("upstream-unavailable") });
  const shop = await ctx.deps.shop.get(owner);
  const next = await save(ctx, owner, { categories: toggled(options.map((o) => o.key), shop.categories, cat) });
  await ctx.answerCallbackQuery();
  await showPicker(ctx, ctx.t("shop-online-categories-title"), pickerKeyboard(ctx, options, next.categories, toCat));
});
const operatorOptions = OPERATORS.map((op) => ({ key: op, name: OPERATOR_NAMES[op] }));
onOwner(shopButtons.operators, async (ctx, owner) => {
  await ctx.answerCallbackQuery();
  const shop = await ctx.deps.shop.get(owner);
  await showPicker(ctx, ctx.t("shop-online-operators-title"), pickerKeyboard(ctx, operatorOptions, shop.operators, toOp));
});
onOwner(shopButtons.operatorToggle, async (ctx, owner, { op }) => {
  const shop = await ctx.deps.shop.get(owner);
  const next = await save(ctx, owner, { operators: toggled(OPERATORS, shop.operators, op) });
  await ctx.answerCallbackQuery();
  await showPicker(ctx, ctx.t("shop-online-operators-title"), pickerKeyboard(ctx, operatorOptions, next.operators, toOp));
});
onOwner(shopButtons.link, async (ctx, owner) => {
  await ctx.answerCallbackQuery();
  const shop = await ctx.deps.shop.get(owner);
  if (shop.code) await sendLink(ctx, shop.code);
});
onOwner(shopButtons.newLink, async (ctx) => {
  await ctx.answerCallbackQuery();
  const kb = newLinkAskKeyboard(ctx);
  await ctx.reply(ctx.t("shop-online-new-link-ask"), { reply_markup: kb });
});
onOwner(shopButtons.newLinkYes, async (ctx, owner) => {
  await ctx.answerCallbackQuery();
  await ctx.editMessageReplyMarkup().catch(() => undefined);
  const code = await ctx.deps.shop.newLink(owner);
  await audit(ctx, "shop_changed", { online: { link: "old" } }, { online: { link: "new" } });
  await ctx.reply(ctx.t("shop-online-new-link-done"));
  await sendLink(ctx, code);
});
