/**
 * A downline told that a paid deposit reached its wallet, naming the wallet's new balance. Sent when
 * the credit is posted (Wallets.onDepositCredited), so once per entry: a repeated callback or check
 * posts nothing and tells nothing. A notice lost to a stop right after the post is not sent again;
 * the credit itself stands and /saldo and /mutasi show it.
 */
import type { Api } from "grammy";
import type { Logger } from "../logging/logger.js";
import { html, rupiah } from "../render/format.js";
import { DEFAULT_LANG, type Translate } from "../render/i18n.js";
import type { Store, TxRecord, WalletEntry } from "../store/index.js";
import { deliver } from "../telegram/delivery.js";
import type { Pacer } from "../telegram/pacer.js";

export interface WalletNoticeDeps {
  store: Store;
  api: Api;
  pacer: Pacer;
  translate: Translate;
  logger: Logger;
}

export function tellDepositCredited(deps: WalletNoticeDeps): (tx: Readonly<TxRecord>, entry: WalletEntry) => void {
  return (tx, entry) => {
    const send = async () => {
      const lang = (await deps.store.getChat(entry.wallet))?.lang ?? DEFAULT_LANG;
      const text = deps.translate(lang, "wallet-deposit-credited-you", {
        amount: rupiah(entry.amount, lang),
        ref: html(tx.refId),
        balance: rupiah(entry.balance, lang),
      });
      await deliver(() => deps.api.sendMessage(entry.wallet, text), { pacer: deps.pacer });
    };
    send().catch((err: unknown) => deps.logger.warn({ err, refId: tx.refId }, "wallet credit notice not delivered"));
  };
}
