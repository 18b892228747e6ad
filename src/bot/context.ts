/** The context types every feature and conversation sees, and the dependencies injected into the bot. */
import type { Wallets } from "../money/wallets.js";
import type { Payouts } from "../jobs/payouts.js";
import type { Context } from "grammy";
import type { Conversation, ConversationFlavor } from "@grammyjs/conversations";
import type { Clock } from "../tools/clock.js";
import type { Logger } from "../logging/logger.js";
import type { Store } from "../store/index.js";
import type { ChatRecord, Lang } from "../store/index.js";
import type { ListCache } from "../upstream/cache.js";
import type { UpstreamClient } from "../upstream/client.js";
import type { TxEvents } from "../domain/events.js";
import type { Role } from "../domain/roles.js";
import type { BalanceAlerts } from "../jobs/alerts.js";
import type { BalanceRound } from "../jobs/balanceRound.js";
import type { Broadcaster } from "../jobs/broadcast.js";
import type { StatusChecker } from "../jobs/leaderWork.js";
import type { Translate, TranslateVars } from "../render/i18n.js";
import type { ChatSettings } from "../domain/chatSettings.js";
import type { SavedCustomers } from "../domain/savedCustomers.js";
import type { Staff } from "../domain/staff.js";
import type { Network } from "../domain/network.js";
import type { MoneyEngine } from "../money/createOnce.js";
import type { Ledger } from "../domain/ledger.js";
import type { ProviderLink } from "../domain/providerLink.js";
import type { ShopSettings } from "../domain/shop/settings.js";
import type { Pins } from "../domain/pin.js";
import type { H2hAccess } from "../domain/h2hAccess.js";
import type { ShopOrders } from "../domain/shop/orders.js";
import type { ShopOrderJob } from "../jobs/shop/orderJob.js";

export interface BotDeps {
  store: Store;
  /** What the chat chose: selling prices, alerts, daily summary, shop (over the store). */
  settings: ChatSettings;
  /** The chat's link to its provider account: api key, callback username and token (over the store). */
  providerLink: ProviderLink;
  /** Transactions: drafts, compare-and-set transitions, history (over the store). */
  ledger: Ledger;
  /** The one money engine: every create call at the provider goes through it, exactly once. */
  money: MoneyEngine;
  /** Downlines' wallets (docs/wallets.md): views, adjustments by hand, what an outcome owes them. */
  wallets: Wallets;
  /** Downlines' payout requests after the request: their endings told, unconfirmed ones expired. */
  payouts: Payouts;
  /** The owners' transaction PINs and money-out limits (docs/pin.md). */
  pins: Pins;
  /** The owners' staff, invitations and choices. */
  staff: Staff;
  /** The owners' networks of downlines: invitations, members, levels (docs/wallets.md). */
  network: Network;
  /** Downlines' H2H access (docs/h2h.md): the owner's switch, the downline's key, IPs, callback URL. */
  h2hAccess: H2hAccess;
  /** Saved customers (over the store). */
  savedCustomers: SavedCustomers;
  /** Each reseller's online shop: settings, links, customers' carts (over the store). */
  shop: ShopSettings;
  upstream: UpstreamClient;
  /** Price lists, banks and deposit methods, cached per api key. */
  lists: ListCache;
  clock: Clock;
  logger: Logger;
  /** Telegram user ids allowed to broadcast and run balance rounds. */
  adminIds: readonly number[];
  /** True when talking to the built-in sandbox: every money message says so. */
  sandbox: boolean;
  /** PUBLIC_URL: each chat's provider callback URL is PUBLIC_URL/provider/<token> (/webhook). Undefined = callbacks off. */
  publicUrl?: string | undefined;
  /** Translate into any language (for messages to other chats). */
  translate: Translate;
  /** Transaction events (a create answered): the watcher and balance alerts listen. */
  events: TxEvents;
  /** The status watcher, as the bot uses it: check one transaction now; a blocked chat is back. */
  statusChecker: StatusChecker;
  /** Low-balance alerts (jobs/alerts.ts). */
  alerts: BalanceAlerts;
  /** The admin balance round (jobs/balanceRound.ts). */
  balanceRound: BalanceRound;
  /** Admin broadcast delivery (jobs/broadcast.ts). */
  broadcaster: Broadcaster;
  /** Shop orders (domain/shop/orders.ts) and the job that takes them from payment to the product. */
  shopOrders: ShopOrders;
  shopOrderJob: Pick<ShopOrderJob, "advance" | "close" | "alternatives" | "idle">;
}

export interface BotExtras {
  deps: BotDeps;
  /**
   * The chat's record, read once per update before any handler (undefined: a new chat, or an update
   * without a chat). A handler that changes the chat puts the record `updateChat` returns here.
   */
  chatRecord?: Readonly<ChatRecord> | undefined;
  /** Who the chat is (owner, staff, customer, guest): from `chatRecord`, on first use (middlewares/role.ts). */
  readonly role: Role;
  /** The chat's language, resolved once per update. */
  lang: Lang;
  /** Translate into any language (for messages to other chats). */
  translate: Translate;
  /** Set when this chat's running flow was saved by an older bot version and dropped. */
  flowLost?: boolean;
}

export interface TranslateFlavor {
  /** Translate into the chat's language (reads `ctx.lang` at call time). */
  t(key: string, vars?: TranslateVars): string;
}

export type BaseContext = Context & TranslateFlavor & BotExtras;
export type BotContext = BaseContext & ConversationFlavor<BaseContext>;
/** The context inside a conversation (rebuilt on every replay by the conversation plugins). */
export type ConvContext = BaseContext;
export type BotConversation = Conversation<BotContext, ConvContext>;
