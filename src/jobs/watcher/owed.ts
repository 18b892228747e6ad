/**
 * Notices a chat missed while it had blocked the bot (`watch.owed`, set by the watcher), sent
 * when the chat is heard from again (watcher.chatBack). Each goes through the exactly-once
 * protocol like any notice; the mark is dropped once it was delivered (or refused for good).
 */
import type { Store, TxRecord } from "../../store/index.js";
import { watchOf, type NoticeProtocol } from "./announce.js";
import type { NoticeKind } from "./notify.js";
import { noticeChatOf, owedLedgerOf } from "./recipients.js";

/**
 * The chats whose owed notices are going out, per store. A return of the chat while they do waits
 * for them: it would otherwise take a notice still on its way for one a crash left half sent, and,
 * unable to edit the original, send it a second time.
 */
const sending = new WeakMap<Store, Map<number, Promise<void>>>();

/** `retry` is called (once) when a delivery was uncertain; the rest waits for that retry. */
export function sendOwed(store: Store, protocol: NoticeProtocol, chatId: number, retry: () => void): Promise<void> {
  const chats = sending.get(store) ?? new Map<number, Promise<void>>();
  sending.set(store, chats);
  const run = (chats.get(chatId) ?? Promise.resolve()).catch(() => undefined).then(() => sendOwedNow(store, protocol, chatId, retry));
  chats.set(chatId, run);
  const done = () => {
    if (chats.get(chatId) === run) chats.delete(chatId);
  };
  void run.then(done, done);
  return run;
}

async function sendOwedNow(store: Store, protocol: NoticeProtocol, chatId: number, retry: () => void): Promise<void> {
  // A staff chat is owed its own sales' notices, on its owner's ledger; each waits for the chat it is told in.
  const ledger = await owedLedgerOf(store, chatId);
  const inactive = async (tx: TxRecord) => (await store.getChat(noticeChatOf(tx)))?.inactive === true;
  // Owed notices are recent (a blocked chat is still polled): the newest page is enough.
  for (const item of (await store.listTxByChat(ledger, { limit: 50 })).items) {
    const tx = await store.getTx(item.refId);
    const owed = tx && watchOf(tx).owed;
    if (!tx || !owed || (ledger !== chatId && noticeChatOf(tx) !== chatId) || await inactive(tx)) continue;
    // A newer notice in flight (the watcher's, retried): it tells the newer state and ends what is owed;
    // announcing the owed one now would take its "maybe sent" marker.
    const inFlight = watchOf(tx).announcing;
    if (inFlight !== undefined && inFlight !== owed) continue;
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
