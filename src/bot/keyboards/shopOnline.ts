/** The reseller's online-shop settings buttons (shop/shopOnline.ts). */
import { PAY_STEPS, payStepOf } from "../../domain/shop/settings.js";
import { rupiah } from "../../render/format.js";
import type { Lang } from "../../store/index.js";
import { InlineKeyboard } from "grammy";
import type { ShopConfig } from "../../domain/shop/settings.js";
import { shopButtons } from "../../telegram/shopButtonData.js";
import type { Translator } from "./translator.js";

/** Opens the online shop's settings. */
export function onlineShopButton(ctx: Translator): InlineKeyboard {
  return new InlineKeyboard().text(ctx.t("shop-online-button"), shopButtons.settings.encode({}));
}

/** The settings screen: on/off, pause, who pays the QRIS fee, instant release, categories and operators, the link. */
export function settingsKeyboard(ctx: Translator, shop: Readonly<ShopConfig>, lang: Lang): InlineKeyboard {
  const kb = new InlineKeyboard();
  kb.text(ctx.t(shop.enabled ? "shop-online-button-off" : "shop-online-button-on"), shopButtons.enable.encode({ on: shop.enabled ? "off" : "on" }));
  if (shop.enabled) kb.text(ctx.t(shop.paused ? "shop-online-button-resume" : "shop-online-button-pause"), shopButtons.pause.encode({ on: shop.paused ? "off" : "on" }));
  kb.row();
  kb.text(ctx.t("shop-online-button-fee", { payer: ctx.t(`shop-online-fee-${shop.feePayer}`) }), shopButtons.feePayer.encode({ payer: shop.feePayer === "customer" ? "reseller" : "customer" }));
  kb.row();
  const step = payStepOf(shop);
  const next = PAY_STEPS[(PAY_STEPS.indexOf(step as (typeof PAY_STEPS)[number]) + 1) % PAY_STEPS.length]!;
  kb.text(ctx.t("shop-online-button-step", { step: rupiah(step, lang) }), shopButtons.payStep.encode({ step: String(next) }));
  kb.row();
  kb.text(ctx.t(shop.instantRelease ? "shop-online-button-release-off" : "shop-online-button-release-on"), shopButtons.instantRelease.encode({ on: shop.instantRelease ? "off" : "on" }));
  kb.row();
  kb.text(ctx.t("shop-online-button-categories"), shopButtons.categories.encode({})).text(ctx.t("shop-online-button-operators"), shopButtons.operators.encode({}));
  kb.row();
  if (shop.code) kb.text(ctx.t("shop-online-button-link"), shopButtons.link.encode({})).text(ctx.t("shop-online-button-new-link"), shopButtons.newLink.encode({}));
  return kb;
}

/** A picker of names: each a toggle (✅ sold, ▫️ not), "all" at the top, back to the settings. */
export function pickerKeyboard(ctx: Translator, options: readonly { key: string; name: string }[], chosen: readonly string[] | undefined, toggle: (key: string) => string): InlineKeyboard {
  const kb = new InlineKeyboard().text(`${chosen?.length ? "▫️" : "✅"} ${ctx.t("shop-online-all")}`, toggle("*")).row();
  options.forEach((o, i) => {
    kb.text(`${!chosen?.length || chosen.includes(o.key) ? "✅" : "▫️"} ${o.name}`, toggle(o.key));
    if (i % 2 === 1) kb.row();
  });
  return kb.row().text(ctx.t("shop-online-button-back"), shopButtons.settings.encode({}));
}

/** Asks before the shop's link is replaced (the old one stops working). */
export function newLinkAskKeyboard(ctx: Translator): InlineKeyboard {
  return new InlineKeyboard().text(ctx.t("shop-online-button-new-link-yes"), shopButtons.newLinkYes.encode({})).text(ctx.t("shop-online-button-back"), shopButtons.settings.encode({}));
}

