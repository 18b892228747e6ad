/**
 * A chat's link to its own provider account: the api key (encrypted by the store), whether the chat
 * waits for one, the account's username that signs the provider's callbacks, and the chat's callback token.
 */
import type { ChatRecord, Lang, Store } from "../store/index.js";
import { ensureCallbackToken } from "./providerCallbacks.js";

export class ProviderLink {
  constructor(private readonly store: Store) {}

  /** The decrypted api key, or undefined when none is linked. Rejects when the store secret cannot read it. */
  keyOf(chatId: number): Promise<string | undefined> {
    return this.store.getApiKey(chatId);
  }

  /** The linked key's mask (first and last characters), or undefined when no key is linked. */
  async linkedMask(chatId: number): Promise<string | undefined> {
    const chat = await this.store.getChat(chatId);
    return chat?.apiKeyEnc ? chat.keyMask ?? "" : undefined;
  }

  async isLinked(chatId: number): Promise<boolean> {
    return (await this.store.getChat(chatId))?.apiKeyEnc !== undefined;
  }

  /** The next plain text in the chat is taken as a key: none is linked yet, or /kunci asked for one. */
  async isAwaitingKey(chatId: number): Promise<boolean> {
    const chat = await this.store.getChat(chatId);
    return !chat?.apiKeyEnc || chat.awaitingKey === true;
  }

  /** Asks for a key; `lang`, when given, is remembered as the chat's language too (a first /start). */
  async awaitKey(chatId: number, lang?: Lang): Promise<void> {
    await this.store.updateChat(chatId, lang === undefined ? { awaitingKey: true } : { awaitingKey: true, lang });
  }

  /**
   * Saves a key the provider accepted, with the username that signs its callbacks (none: no callbacks),
   * makes sure the chat has a callback token, and makes it all durable.
   */
  async link(chatId: number, rawKey: string, providerUsername: string | undefined): Promise<void> {
    await this.store.setApiKey(chatId, rawKey);
    await this.store.updateChat(chatId, { awaitingKey: false, inactive: false, providerUsername });
    await ensureCallbackToken(this.store, chatId);
    await this.store.flush();
  }

  /**
   * Whether another linked chat holds `rawKey` (a shared account or a leaked key): the chat that linked
   * it first, to be told, and how many other chats hold it. Only the first is told, so a key in many
   * chats costs one notice per link, not one per chat.
   */
  async sharedKey(chatId: number, rawKey: string): Promise<{ first: number; others: number } | undefined> {
    const others = (await this.store.chatsWithKey(rawKey)).filter((c) => c.chatId !== chatId);
    const first = others.reduce<Readonly<ChatRecord> | undefined>((a, c) => (a === undefined || (c.linkedAt ?? 0) < (a.linkedAt ?? 0) ? c : a), undefined);
    return first && { first: first.chatId, others: others.length };
  }

  /** Removes the linked key; false when there was none. */
  async unlink(chatId: number): Promise<boolean> {
    if (!(await this.store.getChat(chatId))?.apiKeyEnc) return false;
    await this.store.clearApiKey(chatId);
    await this.store.updateChat(chatId, { awaitingKey: false });
    return true;
  }

  /**
   * Keeps the username the provider now reports (a renamed account signs its callbacks with the new
   * one); returns the chat as saved. Takes the record the update already read.
   */
  async noteUsername(chat: Readonly<ChatRecord>, username: string): Promise<Readonly<ChatRecord>> {
    if (username === "" || chat.providerUsername === username) return chat;
    return this.store.updateChat(chat.chatId, { providerUsername: username });
  }

  /** The chat's callback token, made and saved on first use. */
  callbackToken(chatId: number): Promise<string> {
    return ensureCallbackToken(this.store, chatId);
  }

  /** Replaces the callback token (the old URL stops working at once), durably. */
  async renewCallbackToken(chatId: number, token: string): Promise<void> {
    await this.store.updateChat(chatId, { callbackToken: token });
    await this.store.flush();
  }
}
