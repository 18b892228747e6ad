/**
 * The buttons under a successful sale, wherever one is shown in full: the status notice's
 * original message and the history entry. One place, so both always offer the same actions.
 */
import type { InlineKeyboardButton } from "grammy/types";
import type { Translate } from "./i18n.js";
import { cb } from "../telegram/buttonData.js";
import type { Lang, TxRecord } from "../store/index.js";
import { isSale } from "../domain/sale.js";
import { snKind } from "./receipt.js";
import { plnToken } from "./receiptImage.js";

/** Telegram's limit on a copy button's text. */
const COPY_TEXT_MAX = 256;

export function saleActionRows(t: Translate, lang: Lang, tx: TxRecord): InlineKeyboardButton[][] {
  if (tx.status !== "success") return [];
  const rows: InlineKeyboardButton[][] = [];
  // Each shop action adds its row here (receipt, buy again, save customer).
  if (isSale(tx)) {
    rows.push([
      { text: t(lang, "button-receipt"), callback_data: cb.saleReceipt.encode({ refId: tx.refId }) },
      // A paid bill cannot be paid twice: its button checks the bill anew (the next period's).
      { text: t(lang, tx.kind === "postpaid" ? "button-check-bill-again" : "button-buy-again-sale"), callback_data: cb.buyAgain.encode({ refId: tx.refId }) },
    ]);
  }
  // A transfer done for a walk-in customer: the proof they take home.
  if (tx.kind === "transfer") rows.push([{ text: t(lang, "button-receipt"), callback_data: cb.saleReceipt.encode({ refId: tx.refId }) }]);
  // A token or serial is passed on to the customer: one tap copies it, no selecting by hand.
  if (isSale(tx) && tx.sn) {
    const copy = (plnToken(tx)?.token ?? tx.sn).slice(0, COPY_TEXT_MAX);
    rows.push([{ text: t(lang, `button-copy-sn-${snKind(tx)}`), copy_text: { text: copy } }]);
  }
  // A transfer's account is a customer too (offered again in the transfer flow).
  if ((isSale(tx) || tx.kind === "transfer") && tx.target) {
    rows.push([{ text: t(lang, "button-save-customer"), callback_data: cb.saveCustomer.encode({ refId: tx.refId }) }]);
  }
  return rows;
}
