/**
 * The file store's side of a new store secret (api.ts resetSecret): which chats hold a key that no
 * longer decrypts, and how many keys are stored at all, from the chats in memory.
 */
import type { KeyRing } from "../rules.js";
import type { RecordIndexes } from "./indexes.js";

/** How many chats have a stored api key (readable or not). */
export function storedKeyCount(hot: RecordIndexes): number {
  let n = 0;
  for (const chat of hot.eachChat()) if (chat.apiKeyEnc !== undefined) n++;
  return n;
}

/** The chats whose stored key does not decrypt under the current secret (they lose it). */
export function chatsWithLostKeys(hot: RecordIndexes, keys: KeyRing): number[] {
  return [...hot.eachChat()].filter((chat) => keys.lost(chat)).map((chat) => chat.chatId);
}
