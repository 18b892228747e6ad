/** The shop front's buttons, its customer's (shop/shopfront.ts, shop/shopBuy.ts). */
import { InlineKeyboard } from "grammy";
import { shopButtons } from "../../telegram/shopButtonData.js";
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
