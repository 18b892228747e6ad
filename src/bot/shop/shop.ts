/**
 * The reseller's shop: /toko (/shop) shows and sets the shop name and a footer line (address,
 * WhatsApp) for customer receipts, and opens "Toko online" (shopOnline.ts): the shop customers buy
 * from by themselves. 🧾 Struk (`rc:<ref>`) under a successful sale sends the receipt as a PNG with
 * the same content as copyable text in its caption.
 */
import { Composer, InputFile } from "grammy";
import type { BotContext } from "../context.js";
import { cb, onCallback } from "../buttons.js";
import { isPrivate, replyPrivateOnly } from "../guards.js";
import type { FeatureModule } from "../module.js";
import { html } from "../../render/format.js";
import { svgToPng } from "../../render/png.js";
import { isSale } from "../../domain/sale.js";
import {
  customerReceipt,
  RECEIPT_WIDTH,
  receiptCaption,
  receiptSvg,
  SHOP_FOOTER_MAX,
  SHOP_NAME_MAX,
  type Shop,
} from "../../render/receiptImage.js";
import { commands } from "../../telegram/commands.js";
import { ledgerChat, seesTx } from "../middlewares/roleGate.js";
import { audit } from "../../domain/audit.js";
import { onlineShopCommand, onlineShopFeature, onlineShopKeyboard } from "./shopOnline.js";

const CLEAR_WORDS = new Set(["hapus", "clear", "reset"]);

export type ShopInput =
  | { ok: true; shopName?: string; shopFooter?: string | undefined }
  | { ok: false; error: string; vars?: Record<string, number> }
  | { clear: true };

/**
 * `/toko Nama Toko | footer`: the name, then after "|" (or a new line) the footer. Without a
 * separator only the name changes; `Nama |` removes the footer; `| footer` changes only the footer.
 */
export function parseShop(args: string): ShopInput {
  const trimmed = args.trim();
  if (CLEAR_WORDS.has(trimmed.toLowerCase())) return { clear: true };
  const at = trimmed.search(/[|\n]/);
  const clean = (s: string) => s.replace(/\s+/g, " ").trim();
  const name = clean(at < 0 ? trimmed : trimmed.slice(0, at));
  const footer = at < 0 ? undefined : clean(trimmed.slice(at + 1).replace(/\|/g, " "));
  if (name.length > SHOP_NAME_MAX) return { ok: false, error: "shop-name-too-long", vars: { max: SHOP_NAME_MAX } };
  if (footer !== undefined && footer.length > SHOP_FOOTER_MAX) return { ok: false, error: "shop-footer-too-long", vars: { max: SHOP_FOOTER_MAX } };
  if (!name && footer === undefined) return { ok: false, error: "shop-name-missing" };
  return { ok: true, ...(name ? { shopName: name } : {}), ...(footer !== undefined ? { shopFooter: footer || undefined } : {}) };
}

async function shopCommand(ctx: BotContext): Promise<void> {
  if (!ctx.chat) return;
  if (!isPrivate(ctx)) {
    await replyPrivateOnly(ctx);
    return;
  }
  const chatId = ledgerChat(ctx);
  const args = typeof ctx.match === "string" ? ctx.match : "";
  const shown = (value: string | undefined) => (value ? `<b>${html(value)}</b>` : ctx.t("shop-not-set"));
  if (!args.trim()) {
    const shop = await ctx.deps.settings.shop(chatId);
    await ctx.reply(ctx.t("shop-show", { name: shown(shop.shopName), footer: shown(shop.shopFooter) }), { reply_markup: onlineShopKeyboard(ctx) });
    return;
  }
  if (await onlineShopCommand(ctx, args)) return;
  const input = parseShop(args);
  if ("clear" in input) {
    const before = await ctx.deps.settings.shop(chatId);
    await ctx.deps.settings.clearShop(chatId);
    await audit(ctx, "shop_changed", before, {});
    await ctx.reply(ctx.t("shop-cleared"));
    return;
  }
  if (!input.ok) {
    await ctx.reply(ctx.t(input.error, input.vars));
    return;
  }
  const patch = {
    ...(input.shopName !== undefined ? { shopName: input.shopName } : {}),
    ...("shopFooter" in input ? { shopFooter: input.shopFooter } : {}),
  };
  const before = await ctx.deps.settings.shop(chatId);
  const shop = await ctx.deps.settings.setShop(chatId, patch);
  await audit(ctx, "shop_changed", before, shop);
  await ctx.reply(ctx.t("shop-saved", { name: shown(shop.shopName), footer: shown(shop.shopFooter) }));
}

const composer = new Composer<BotContext>();
composer.command(commands.toko, shopCommand);
composer.use(onlineShopFeature);

onCallback(composer, cb.saleReceipt, async (ctx, { refId }) => {
  const tx = await ctx.deps.ledger.get(refId);
  // Another chat's reference is answered like an unknown one: nothing about it is revealed.
  if (!tx || !seesTx(ctx, tx)) {
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    return;
  }
  // Only a completed sale or transfer gets a receipt: a customer must never hold one for money not delivered.
  if (tx.status !== "success" || !(isSale(tx) || tx.kind === "transfer")) {
    await ctx.answerCallbackQuery({ text: ctx.t("shop-receipt-not-success") });
    return;
  }
  const shop: Shop = await ctx.deps.settings.shop(tx.chatId);
  await ctx.answerCallbackQuery(shop.shopName ? {} : { text: ctx.t("shop-receipt-hint") });
  const receipt = customerReceipt(ctx.translate, ctx.lang, tx, shop, ctx.deps.sandbox);
  const png = await svgToPng(receiptSvg(receipt), RECEIPT_WIDTH);
  await ctx.replyWithPhoto(new InputFile(png, `${ctx.t("file-receipt")}-${tx.refId}.png`), { caption: receiptCaption(receipt) });
});

export const shopModule: FeatureModule = {
  name: "shop",
  composer,
  commands: { toko: "admin" },
  buttons: {
    saleReceipt: "cashier",
  },
  // The owner's online-shop settings (shopOnline.ts).
  families: ["sh"],
  menu: { shop: shopCommand },
};
