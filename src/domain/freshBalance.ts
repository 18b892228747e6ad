/**
 * The confirm screen shows the account's balance from a briefly cached profile (upstream/cache.ts).
 * An outcome the watcher saves moves that balance (a deposit credited, a failed sale or transfer
 * refunded), so it forgets the cached one for that provider account: the next screen asks again.
 */
import type { Store } from "../store/index.js";
import type { ListCache } from "../upstream/cache.js";
import type { TxEvents } from "./events.js";

export function forgetBalanceOnChange(events: TxEvents, lists: Pick<ListCache, "forgetProfile">, store: Pick<Store, "getChat" | "apiKeyOf">): void {
  events.on("changed", async (tx) => {
    // The transaction is on its ledger chat, the one whose api key made it.
    const chat = await store.getChat(tx.chatId);
    const apiKey = chat ? store.apiKeyOf(chat) : undefined;
    if (apiKey) lists.forgetProfile(apiKey);
  });
}
