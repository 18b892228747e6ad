/** The price browser's buttons (features/priceScreens.ts). */
import { InlineKeyboard } from "grammy";
import { cb, type PricesMode } from "../buttons.js";
import type { Translator } from "./translator.js";

/** A product to buy from a button: its label (name and price) and its list reference. */
export interface ProductButton {
  label: string;
  ref: string;
}

/** An empty product with nothing of its value: the nearest of its operator to buy, and the operator's whole list. */
export function emptyProductKeyboard(tr: Translator, nearest: readonly ProductButton[], operator: { name: string; cat: string; prov: string }): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const p of nearest) kb.text(p.label, cb.pricesProduct.encode({ mode: "b", product: p.ref })).row();
  return kb.text(tr.t("prices-button-operator", { provider: operator.name }), cb.pricesProducts.encode({ mode: "b" satisfies PricesMode, cat: operator.cat, prov: operator.prov, page: 0 }));
}
