/** /pelanggan's buttons (features/savedCustomers.ts): the list, a customer's card, the delete question. */
import { InlineKeyboard } from "grammy";
import type { SavedCustomer, TxRecord } from "../../store/index.js";
import { cb } from "../buttons.js";
import { addPager } from "../paging.js";
import type { BaseContext } from "../context.js";
import type { Translator } from "./translator.js";

/** A page of the list: one numbered button per customer (two a row), then the pager (`to` a page's data). */
export function customersKeyboard(
  ctx: BaseContext,
  customers: readonly SavedCustomer[],
  first: number,
  shown: { page: number; pages: number },
  to: (page: number) => string,
): InlineKeyboard {
  const kb = new InlineKeyboard();
  customers.forEach((c, i) => {
    kb.text(`${first + i + 1}. ${c.name}`, cb.customerOpen.encode({ id: c.id }));
    if (i % 2 === 1) kb.row();
  });
  return addPager(kb, ctx, shown, to);
}

/** Back to the list's first page. */
export function customersBackKeyboard(tr: Translator): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("customers-back"), cb.customersPage.encode({ page: 0 }));
}

/**
 * A customer's card: buy the saved product (when there is one), their other recent products (one tap
 * to a fresh confirm screen, as "buy again" under a sale), rename, delete, back to the list.
 */
export function customerCardKeyboard(tr: Translator, c: SavedCustomer, product: string | undefined, lastSales: readonly Readonly<TxRecord>[]): InlineKeyboard {
  const kb = new InlineKeyboard();
  if (product !== undefined) kb.text(tr.t("customer-button-buy", { product }), cb.customerBuy.encode({ id: c.id })).row();
  // A bill is checked again, never paid twice: its button says so.
  for (const sale of lastSales) kb.text(`${sale.kind === "postpaid" ? "🔎" : "🔁"} ${sale.title ?? sale.code ?? ""}`, cb.buyAgain.encode({ refId: sale.refId })).row();
  return kb
    .text(tr.t("customer-button-rename"), cb.customerRename.encode({ id: c.id }))
    .text(tr.t("customer-button-delete"), cb.customerDelete.encode({ id: c.id }))
    .row()
    .text(tr.t("customers-back"), cb.customersPage.encode({ page: 0 }));
}

/** Deleting asks once: delete, or keep (back to the card). */
export function customerDeleteKeyboard(tr: Translator, id: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("customer-button-delete-yes"), cb.customerDeleteYes.encode({ id })).text(tr.t("customer-button-keep"), cb.customerOpen.encode({ id }));
}
