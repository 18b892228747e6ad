/** The shop front's buttons, its customer's (shop/shopfront.ts, shop/shopBuy.ts). */
import { InlineKeyboard } from "grammy";
import { shopButtons } from "../../telegram/shopButtonData.js";
import { cb } from "../buttons.js";
import { addPager } from "../paging.js";
import type { Translator } from "./translator.js";

/** A button's label and its callback data. */
export type ButtonSpec = readonly [label: string, data: string];

/** Back to the shop's home. */
export function shopHomeKeyboard(tr: Translator): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("shopfront-button-home"), shopButtons.home.encode({}));
}

/** A search that found nothing: the nearest products the shop sells, one a row, then home. */
export function searchMissKeyboard(tr: Translator, nearest: readonly ButtonSpec[]): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const [label, data] of nearest) kb.text(label, data).row();
  return kb.text(tr.t("shopfront-button-home"), shopButtons.home.encode({}));
}

/** The shop's home: its best sellers one a row, its categories two a row (when it sells now), orders, contact, language. */
export function storefrontHomeKeyboard(
  tr: Translator,
  selling: { popular: readonly ButtonSpec[]; categories: readonly { key: string; name: string; count: number }[] } | undefined,
  hasContact: boolean,
): InlineKeyboard {
  const kb = new InlineKeyboard();
  if (selling) {
    for (const [label, data] of selling.popular) kb.text(label, data).row();
    selling.categories.forEach((c, i) => {
      kb.text(`${c.name} (${c.count})`, shopButtons.category.encode({ cat: c.key, page: 0 }));
      if (i % 2 === 1) kb.row();
    });
    kb.row();
  }
  kb.text(tr.t("shopfront-button-orders"), shopButtons.orders.encode({})).row();
  if (hasContact) kb.text(tr.t("shopfront-button-contact"), shopButtons.contact.encode({}));
  return kb.text(tr.t("menu-language"), cb.menu.encode({ name: "language" }));
}

/** A page of products, one a row, the pager, then home. */
export function shopItemsKeyboard(tr: Translator, items: readonly ButtonSpec[], shown: { page: number; pages: number }, to: (page: number) => string): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const [label, data] of items) kb.text(label, data).row();
  addPager(kb, tr, shown, to);
  return kb.row().text(tr.t("shopfront-button-home"), shopButtons.home.encode({}));
}

/** Cancel the customer's cart. */
export function shopCancelKeyboard(tr: Translator): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("button-cancel"), shopButtons.cancel.encode({}));
}

/** Under the order's summary: pay with QRIS (this summary's `nonce`), or cancel. */
export function shopSummaryKeyboard(tr: Translator, nonce: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("shopfront-button-pay"), shopButtons.pay.encode({ nonce })).row().text(tr.t("button-cancel"), shopButtons.cancel.encode({}));
}
