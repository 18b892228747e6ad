/** What the bot keeps per chat and per money action. `store.ts` owns how these reach the disk. */

export type Lang = "id" | "en";

export interface ChatRecord {
  chatId: number;
  lang?: Lang;
  /** AES-256-GCM ciphertext of the reseller's api key; the raw key never reaches the disk. */
  apiKeyEnc?: string;
  /** First 4 and last 4 characters, for display. */
  keyMask?: string;
  linkedAt?: number;
  /** Low-balance alert threshold in rupiah; undefined = alerts off. */
  alertThreshold?: number;
  /** True once the current dip below the threshold was announced; re-armed when balance rises above. */
  alertFired?: boolean;
  /** The next plain text in this private chat is a (new) api key (/start unlinked, /kunci). */
  awaitingKey?: boolean;
  /** The chat blocked the bot (403): skip it for broadcasts and watching. */
  inactive?: boolean;
  createdAt: number;
  updatedAt: number;
}

export type TxKind = "prepaid" | "postpaid" | "transfer" | "deposit";

/**
 * draft: confirm screen shown, reference id made and saved; nothing sent yet.
 * sending: the create call was (about to be) sent; persisted *before* the call.
 * unknown: the create call's outcome is not known (timeout, outage); never re-sent automatically.
 * pending/processing: accepted by the provider, not final. The rest are final.
 */
export type TxStatus =
  | "draft"
  | "sending"
  | "unknown"
  | "pending"
  | "processing"
  | "success"
  | "failed"
  | "expired"
  | "cancel";

/** Statuses the status watcher keeps polling. */
export const OPEN_STATUSES: ReadonlySet<TxStatus> = new Set(["sending", "unknown", "pending", "processing"]);

export interface WatchState {
  /** Epoch ms of the next status check. */
  nextCheckAt: number;
  attempts: number;
  /** The last status the chat was told about: a transition is announced once. */
  notified?: TxStatus;
  /** Set when the maximum age passed and the chat was told to check by hand. */
  gaveUp?: boolean;
}

export interface TxRecord {
  /** Our reference id (`reff_id`, or `ref_id` for transfers): made before the create call. Unique. */
  refId: string;
  chatId: number;
  kind: TxKind;
  status: TxStatus;
  /** The provider's id, known once the create call answered. Status lookups use it. */
  upstreamId?: string;
  /** Product or service code (prepaid/postpaid), bank code (transfer), method (deposit). */
  code?: string;
  /** Product name, bank name or method name, for display. */
  title?: string;
  /** Phone/meter/customer number, account number. */
  target?: string;
  /** Price (prepaid), bill total (postpaid), nominal (transfer, deposit). */
  amount: number;
  fee?: number;
  total?: number;
  sn?: string | null;
  /** Provider's message on failure, or other short text for the receipt. */
  message?: string;
  /** Kind-specific extras (deposit payment details, customer name, bill periods...). JSON only. */
  detail?: Record<string, unknown>;
  /** The Telegram message that shows this transaction, to edit it on a change. */
  messageId?: number;
  createdAt: number;
  updatedAt: number;
  watch?: WatchState;
}
