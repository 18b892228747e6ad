/** The context types every feature and conversation sees, and the dependencies injected into the bot. */
import type { Context } from "grammy";
import type { I18nFlavor } from "@grammyjs/i18n";
import type { Conversation, ConversationFlavor } from "@grammyjs/conversations";
import type { Clock } from "../clock.js";
import type { Logger } from "../logger.js";
import type { Store } from "../store/store.js";
import type { Lang, TxRecord } from "../store/types.js";
import type { ListCache } from "../upstream/cache.js";
import type { UpstreamClient } from "../upstream/client.js";
import type { Translate } from "./i18n.js";

export interface BotDeps {
  store: Store;
  upstream: UpstreamClient;
  /** Price lists, banks and deposit methods, cached per api key. */
  lists: ListCache;
  clock: Clock;
  logger: Logger;
  /** Telegram user ids allowed to broadcast and run balance rounds. */
  adminIds: readonly number[];
  /** True when talking to the built-in sandbox: every money message says so. */
  sandbox: boolean;
  /** Observers wired by app.ts (status watcher, balance alerts); tests may leave them out. */
  hooks?: BotHooks;
}

export interface BotHooks {
  /** A create call answered (any outcome): the watcher polls it, alerts re-check the balance. */
  afterCreate?(tx: TxRecord): void;
}

export interface BotExtras {
  deps: BotDeps;
  /** The chat's language, resolved once per update. */
  lang: Lang;
  /** Translate into any language (for messages to other chats). */
  translate: Translate;
}

export type BaseContext = Context & I18nFlavor & BotExtras;
export type BotContext = BaseContext & ConversationFlavor<BaseContext>;
/** The context inside a conversation (rebuilt on every replay by the conversation plugins). */
export type ConvContext = BaseContext;
export type BotConversation = Conversation<BotContext, ConvContext>;
