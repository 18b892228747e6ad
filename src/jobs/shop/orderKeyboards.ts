/** The shop order notices' buttons and the QR photo's caption: the job and the pay path send the same. */
import { InlineKeyboard } from "grammy";
import { html, rupiah, wibTime } from "../../render/format.js";
import { withSandboxBanner } from "../../render/sandboxBanner.js";
import type { Translate } from "../../render/i18n.js";
import { orderButton } from "../../telegram/orderButtonData.js";
import type { OrderDoc } from "../../domain/shop/orders.js";
import { cb } from "../../telegram/buttonData.js";

type T = (key: string, vars?: Record<string, string | number>) => string;

/** The QR photo's caption and buttons (HTML), in the customer's language: startPayment and the job send the same. */
export function qrNotice(translate: Translate, sandbox: boolean, doc: OrderDoc): { caption: string; keyboard: InlineKeyboard } {
  const o = doc.value;
  const t = (key: string, vars?: Record<string, string | number>) => translate(o.lang, key, vars);
  const caption = withSandboxBanner(
    translate,
    o.lang,
    sandbox,
    t("shop-order-qr", { product: html(o.productName), target: html(o.target), amount: rupiah(o.price, o.lang), expires: o.expiresAt ? wibTime(o.expiresAt, o.lang) : "-", ref: doc.id }),
  );
  const keyboard = new InlineKeyboard()
    .text(t("shop-order-button-check"), orderButton({ act: "check", orderRef: doc.id }))
    .text(t("shop-order-button-cancel"), orderButton({ act: "cancel", orderRef: doc.id }));
  return { caption, keyboard };
}

/**
 * The caption under the card that replaces the QR (paid, expired, cancelled): `head` says which, then
 * what the order was, without the QR's "scan this" (HTML, in the customer's language).
 */
export function qrCardCaption(translate: Translate, sandbox: boolean, doc: OrderDoc, head: string): string {
  const o = doc.value;
  const summary = translate(o.lang, "shop-order-qr-summary", { product: html(o.productName), target: html(o.target), amount: rupiah(o.price, o.lang), ref: doc.id });
  return withSandboxBanner(translate, o.lang, sandbox, `${head}\n\n${summary}`);
}

/** Under a failed order: another product the paid amount covers (one a row), then the refund. */
export function failedOrderKeyboard(t: T, orderRef: string, alternatives: readonly { code: string; name: string }[]): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const p of alternatives) kb.text(t("shop-order-button-alt", { product: p.name }), orderButton({ act: "alt", orderRef, code: p.code })).row();
  return kb.text(t("shop-order-button-refund"), orderButton({ act: "refund", orderRef }));
}

/** The owner's refund request: pay the customer back. */
export function payoutKeyboard(t: T, orderRef: string): InlineKeyboard {
  return new InlineKeyboard().text(t("shop-order-button-payout"), orderButton({ act: "payout", orderRef }));
}

/** The owner's "top up to fulfil this order". */
export function topUpKeyboard(t: T): InlineKeyboard {
  return new InlineKeyboard().text(t("menu-deposit"), cb.menu.encode({ name: "deposit" }));
}
