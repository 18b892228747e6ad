/**
 * Notices a chat missed while it had blocked the bot (`watch.owed`, set by the watcher), sent
 * when the chat is heard from again (watcher.chatBack). Each goes through the exactly-once
 * protocol like any notice; the mark is dropped once it was delivered (or refused for good).
 */
import type { Store, TxRecord } from "../store/index.js";
import { watchOf, type NoticeProtocol } from "./announce.js";
import type { NoticeKind } from "./notify.js";
import { noticeChatOf, owedLedgerOf } from "./recipients.js";

/** `retry` is called (once) when a delivery was uncertain; the rest waits for that retry. */
export async function sendOwed(store: Store, protocol: NoticeProtocol, chatId: number, retry: () => void): Promise<void> {
  // A staff chat is owed its own sales' notices, on its owner's ledger; each waits for the chat it is told in.
  const ledger = await owedLedgerOf(store, chatId);
  const inactive = async (tx: TxRecord) => (await store.getChat(noticeChatOf(tx)))?.inactive === true;
  // Owed notices are recent (a blocked chat is still polled): the newest page is enough.
  for (const item of (await store.listTxByChat(ledger, { limit: 50 })).items) {
    const tx = await store.getTx(item.refId);
    const owed = tx && watchOf(tx).owed;
    if (!tx || !owed || (ledger !== chatId && noticeChatOf(tx) !== chatId) || await inactive(tx)) continue;
    if (!(await protocol.announce(tx, owed as NoticeKind, {}, tx.status))) {
      retry();
      return;
    }
    const now = await store.getTx(tx.refId);
    // Blocked again meanwhile: it stays owed for the next return.
    if (now && !await inactive(now)) {
      const { owed: _sent, ...rest } = watchOf(now);
      await store.updateTx(tx.refId, { watch: rest });
    }
  }
  // All sent: the chat's next updates need not look again (blocked again meanwhile: the mark stays).
  const chat = await store.getChat(chatId);
  if (chat?.owedNotices && !chat.inactive) await store.updateChat(chatId, { owedNotices: undefined });
  await store.flush();
}
