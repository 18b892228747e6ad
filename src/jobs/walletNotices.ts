/**
 * What a paid deposit's credit to a downline's wallet tells, sent when the credit is posted
 * (Wallets.onDepositCredited), so once per entry: a repeated callback or check posts nothing and tells
 * nothing. A notice lost to a stop right after the post is not sent again; the credit itself stands
 * and /saldo and /mutasi show it.
 *  - The owner: one line, who paid and what reached the wallet (as other network notices, best effort).
 *  - The downline: only for a deposit its own system made over H2H. One made in its chat is told there
 *    by the watcher's paid notice (exactly once, with the wallet's balance): a second message read as a
 *    second credit.
 */
import type { Api } from "grammy";
import type { Logger } from "../logging/logger.js";
import { DownlineKind, memberId } from "../domain/network.js";
import { html, rupiah } from "../render/format.js";
import { DEFAULT_LANG, type Translate } from "../render/i18n.js";
import type { Lang, Store, TxRecord, WalletEntry } from "../store/index.js";
import { deliver } from "../telegram/delivery.js";
import type { Pacer } from "../telegram/pacer.js";
import { madeOverH2h } from "./h2hCallbacks/outbox.js";

export interface WalletNoticeDeps {
  store: Store;
  api: Api;
  pacer: Pacer;
  translate: Translate;
  logger: Logger;
}

export function tellDepositCredited(deps: WalletNoticeDeps): (tx: Readonly<TxRecord>, entry: WalletEntry) => void {
  const send = (chat: number, refId: string, text: (lang: Lang) => Promise<string> | string) => {
    const go = async () => {
      const lang = (await deps.store.getChat(chat))?.lang ?? DEFAULT_LANG;
      const body = await text(lang);
      await deliver(() => deps.api.sendMessage(chat, body), { pacer: deps.pacer });
    };
    go().catch((err: unknown) => deps.logger.warn({ err, refId, chatId: chat }, "wallet credit notice not delivered"));
  };
  return (tx, entry) => {
    const amount = (lang: Lang) => rupiah(entry.amount, lang);
    send(entry.owner, tx.refId, async (lang) => {
      const member = await deps.store.getDoc(DownlineKind, memberId(entry.owner, entry.wallet));
      return deps.translate(lang, "wallet-deposit-owner", { name: html(member?.value.name ?? String(entry.wallet)), amount: amount(lang) });
    });
    if (!madeOverH2h(tx)) return;
    send(entry.wallet, tx.refId, (lang) => deps.translate(lang, "wallet-deposit-credited-you", { amount: amount(lang), ref: html(tx.refId), balance: rupiah(entry.balance, lang) }));
  };
}
