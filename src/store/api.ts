/**
 * What the rest of the bot may ask of a store. Two backends implement it: FileStore (lowdb files in
 * DATA_DIR, one process; file/) and PgStore (PostgreSQL, one or more processes; pg/); the rules they
 * share are written once in rules.ts. Every read and write is asynchronous so that a store on another
 * machine fits behind the same calls; the file store answers from memory.
 *
 * Guarantees both stores keep (test/store/contract.test.ts runs the same suite against each):
 * - Records handed out are deeply frozen snapshots; change them only through these methods.
 * - `transitionTx` is a compare-and-set on the status (and on its optional guard `when`): of two racing
 *   calls from the same status, on one process or two, exactly one wins and the other gets `undefined`.
 * - A change is durable once `flush()` resolves after it (PgStore: once its own call resolved).
 *   Money code awaits `flush()` after saving a reference id and before calling the provider.
 * - Api keys are encrypted with a key derived from the store secret before they reach any file or
 *   database; `getApiKey` decrypts.
 * - Records are validated (records.ts) on every write, and again where they are read from storage,
 *   since files or rows may have been edited or written by another version: a record that fails is
 *   refused with StoreCorruptError, never handed out. The file store reads everything at open (so it
 *   refuses to open); PostgreSQL reads rows on demand (so that read fails).
 * - Documents and logs (createDoc... listLog) are the records of kinds declared outside the store
 *   (DocKind: a name and a zod schema): validated with the kind's schema on every write and every read
 *   (a stored one that fails: StoreCorruptError), `updateDoc` a compare-and-set on version and/or state.
 *   The file store reads a kind's file at its first use, so a damaged one fails that kind's calls.
 */
import type * as z from "../tools/zod.js";
import type { ChatRecord, TxDetail, TxKind, TxOf, TxRecord, TxStatus, WalletEntry } from "./records.js";

/**
 * Any zod schema whose output is T: classic `zod` (ZodType) and `zod/mini` (tools/zod.ts) schemas both
 * fit, since both build on zod's core type.
 */
export type ZodType<T> = z.core.$ZodType<T>;

/** A kind of record beyond chats and transactions, declared where it is used with its zod schema. */
export interface DocKind<T> {
  /** Stable short name, /^[a-z][a-z0-9_]{1,30}$/: the backends' key (file name part, `kind` column). */
  readonly name: string;
  /** Checked on every write and on every read (a record that fails is refused with StoreCorruptError). */
  readonly schema: ZodType<T>;
}

/** A stored document: frozen; change it only through updateDoc. */
export interface Doc<T> {
  readonly kind: string;
  /** Unique within its kind, 1..100 characters. */
  readonly id: string;
  /** The chat it belongs to (a reseller's chat id; 0 = the whole bot). */
  readonly owner: number;
  /** Indexed: a state machine's state, or "active"/"revoked"... (1..100 characters). */
  readonly state: string;
  /** 1 at creation, +1 per update. */
  readonly version: number;
  /** Epoch ms, from the store's clock. */
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly value: Readonly<T>;
}

/** One entry of an append-only log. */
export interface LogEntry<T> {
  /** Increasing per (kind, owner), from 1. */
  readonly seq: number;
  readonly owner: number;
  /** Epoch ms, from the store's clock. */
  readonly at: number;
  readonly entry: Readonly<T>;
}

/** What a document is created with. */
export interface NewDoc<T> {
  id: string;
  owner: number;
  state: string;
  value: T;
}

/** The compare-and-set condition of updateDoc: its version and/or its state is one of `states` (at least one given). */
export interface DocExpect {
  version?: number;
  states?: readonly string[];
}

/** What updateDoc changes: the state, the whole value, or both. */
export interface DocChange<T> {
  state?: string;
  value?: T;
}

/** listDocs' filters; any may be omitted. */
export interface DocQuery {
  owner?: number;
  states?: readonly string[];
  /** createdAt >= createdSince. */
  createdSince?: number;
  limit?: number;
}

/** listLog's page: entries with seq < beforeSeq; limit default 20, at most 500. */
export interface LogPage {
  beforeSeq?: number;
  limit?: number;
}

/** What `updateChat` may change; the key fields go through setApiKey/clearApiKey. */
export type ChatPatch = Partial<Omit<ChatRecord, "chatId" | "createdAt" | "updatedAt" | "apiKeyEnc" | "keyMask" | "keyDigest" | "linkedAt">>;

/** A new transaction of any kind, with that kind's detail; createdAt/updatedAt default to the clock. */
export type NewTx = {
  [K in TxKind]: Omit<TxOf<K>, "createdAt" | "updatedAt"> & Partial<Pick<TxOf<K>, "createdAt" | "updatedAt">>;
}[TxKind];

/**
 * What `updateTx`/`transitionTx` may change. A property set to `undefined` is removed. The kind never
 * changes; `detail` replaces the whole detail and must fit the record's kind (checked at write).
 */
export type TxPatch = Partial<Omit<TxRecord, "refId" | "chatId" | "createdAt" | "updatedAt" | "kind" | "detail">> & {
  detail?: TxDetail | undefined;
};

/** A downline's wallet now (docs/wallets.md): available = balance - held, never below zero. */
export interface WalletBalance {
  readonly chat: number;
  /** The network's owner (0 while the wallet has no entry). */
  readonly owner: number;
  /** The sum of its entries. */
  readonly balance: number;
  /** The prices of its records whose wallet part is "held". */
  readonly held: number;
}

/** An entry to post: its seq and time are the store's. */
export type NewWalletEntry = Omit<WalletEntry, "seq" | "at" | "balance">;

/** What postEntries did: entries posted now, and the refs that were posted before (nothing done for them). */
export interface PostedEntries {
  readonly posted: readonly WalletEntry[];
  readonly skipped: readonly string[];
}

/** A chat's saved flow state (conversations): any JSON object; the store does not look inside. */
export type FlowState = Readonly<Record<string, unknown>>;

/** A chat's flow state and the version to hand back to `setFlow` (0: never written). */
export interface SavedFlow {
  state: FlowState | undefined;
  version: number;
}

export interface StoreStats {
  /** Which store: "file" (lowdb in DATA_DIR) or "postgres". */
  kind: "file" | "postgres";
  /**
   * Open transactions, live: this process's changes show at once; on PostgreSQL another process's
   * changes show by the next call (each call recounts in the background).
   */
  openTxs: number;
  /** Changes not yet durable (file store: dirty files; PostgreSQL: 0). */
  dirty: number;
}

export interface Store {
  // ---- life cycle -------------------------------------------------------------------------------
  /** Resolves when every change made before the call is durable. */
  flush(): Promise<void>;
  /**
   * Resolves when every change made to this transaction before the call is durable (other records'
   * changes may not be yet): a caller that needs one record saved does not wait for all the others.
   */
  flushTx(refId: string): Promise<void>;
  /**
   * Resolves when every change made to this document before the call is durable (the file store writes
   * its kind's journal ahead of other files; other records' changes may not be durable yet).
   */
  flushDoc(kind: DocKind<unknown>, id: string): Promise<void>;
  /** Flushes and stops background work. Changes after close reject with StoreClosedError. */
  close(): Promise<void>;
  /**
   * False while the store cannot make changes durable (disk full, read-only, database unreachable):
   * money actions refuse then, since nothing may be acknowledged that is not saved. Synchronous: it
   * reports the last write's outcome, it does not probe.
   */
  canPersist(): boolean;
  stats(): StoreStats;

  // ---- the store secret -------------------------------------------------------------------------
  /** False when the secret differs from the one the store was created with (stored keys won't decrypt). */
  secretMatches(): boolean;
  /** How many chats have a stored api key (readable or not). */
  storedKeyCount(): Promise<number>;
  /**
   * The operator goes on with a new secret: keys that do not decrypt are removed, their chats kept and
   * marked `keyLost` (and awaiting a key); the current secret becomes the store's. Returns those chats.
   */
  resetSecret(): Promise<number[]>;

  // ---- chats ------------------------------------------------------------------------------------
  /**
   * `promptly`: the caller (an update someone waits on) would rather get DatabaseUnreachableError in
   * about a second than wait on a database that stopped answering (PgStore; the files answer at once).
   */
  getChat(chatId: number, opts?: { promptly?: boolean }): Promise<Readonly<ChatRecord> | undefined>;
  /** Creates the chat if missing. */
  updateChat(chatId: number, patch: ChatPatch): Promise<Readonly<ChatRecord>>;
  /** The chat whose callback URL carries `token` (provider callbacks). */
  chatByCallbackToken(token: string): Promise<Readonly<ChatRecord> | undefined>;
  /** Chats with an api key that have not blocked the bot. */
  linkedChats(): Promise<Readonly<ChatRecord>[]>;
  /** Every chat (admin and start-up checks; not for a hot path). */
  allChats(): Promise<Readonly<ChatRecord>[]>;
  chatCount(): Promise<number>;

  // ---- api keys ---------------------------------------------------------------------------------
  /** Encrypts and stores the key, its mask and linkedAt; the chat is active again. */
  setApiKey(chatId: number, rawKey: string): Promise<Readonly<ChatRecord>>;
  /** The decrypted key, or undefined if the chat has none. Rejects with ApiKeyDecryptError on a wrong secret. */
  getApiKey(chatId: number): Promise<string | undefined>;
  /**
   * The decrypted key of a chat record already in hand (read this update), without reading the chat
   * again; undefined if it has none. Throws ApiKeyDecryptError on a wrong secret.
   */
  apiKeyOf(chat: Readonly<ChatRecord>): string | undefined;
  clearApiKey(chatId: number): Promise<void>;
  /**
   * The linked chats (not blocked) whose key is `rawKey`. Compares the keyed digests stored
   * beside the keys; only keys saved before digests existed are decrypted to compare.
   */
  chatsWithKey(rawKey: string): Promise<Readonly<ChatRecord>[]>;

  // ---- transactions -----------------------------------------------------------------------------
  /** Rejects with DuplicateTxError if the refId exists. */
  createTx(input: NewTx): Promise<Readonly<TxRecord>>;
  getTx(refId: string): Promise<Readonly<TxRecord> | undefined>;
  /** Rejects with UnknownTxError if missing. */
  updateTx(refId: string, patch: TxPatch): Promise<Readonly<TxRecord>>;
  /**
   * Compare-and-set: applies `patch` only if the current status is one of `from`, else resolves
   * undefined (also when the refId is unknown). `when`, if given, must also hold on the current
   * record; it is checked inside the compare-and-set (re-checked on every retry), so a caller can
   * claim a record "only if it is still as I read it".
   */
  transitionTx(
    refId: string,
    from: readonly TxStatus[],
    patch: TxPatch,
    when?: (current: Readonly<TxRecord>) => boolean,
  ): Promise<Readonly<TxRecord> | undefined>;
  /**
   * A chat's "hot" transaction by our refId, then the provider's id: open ones however old, final ones
   * changed within the last week (rules.ts HOT_FOR_MS); older history only through findTx. Cheap: the
   * file store answers from memory, never from its archive.
   */
  findHotTx(chatId: number, id: string): Promise<Readonly<TxRecord> | undefined>;
  /** A chat's transaction by our refId or the provider's id, however old. */
  findTx(chatId: number, id: string): Promise<Readonly<TxRecord> | undefined>;
  /** A page of the chat's transactions, newest first (by createdAt, then refId). */
  listTxByChat(chatId: number, page?: { offset?: number; limit?: number }): Promise<{ items: Readonly<TxRecord>[]; total: number }>;
  /** The chat's transactions created in `month` ("YYYY-MM", WIB), oldest first. */
  txsOfMonth(chatId: number, month: string): Promise<Readonly<TxRecord>[]>;
  /** The WIB months ("YYYY-MM") in which the chat has records, newest first. */
  txMonths(chatId: number): Promise<string[]>;
  /** Transactions whose status is in OPEN_STATUSES. */
  openTxs(): Promise<Readonly<TxRecord>[]>;

  // ---- flows ------------------------------------------------------------------------------------
  /** The chat's running flows (conversations) as last saved, frozen, and the version to hand back to setFlow. */
  getFlow(chatId: number): Promise<SavedFlow>;
  /**
   * Compare-and-set: saves `state` (undefined: the flow ended) only if the chat's flow version is still
   * `expectedVersion`, and raises the version by one; false when another writer (a second process)
   * came first, and nothing is written. Versions never go back, so a stale writer cannot win after a
   * flow ended and another began. Kept per chat: one chat's step rewrites nothing of another's.
   */
  setFlow(chatId: number, state: FlowState | undefined, expectedVersion: number): Promise<boolean>;

  // ---- documents (rules.ts rules; shop orders, settings, invitations...) ---------------------------
  /** Rejects with DuplicateDocError if (kind, id) exists; TypeError if the value does not pass the kind's schema. */
  createDoc<T>(kind: DocKind<T>, input: NewDoc<T>): Promise<Doc<T>>;
  getDoc<T>(kind: DocKind<T>, id: string): Promise<Doc<T> | undefined>;
  /**
   * Compare-and-set: applies `change` only if the current document still matches `expect` (its version
   * and/or its state is one of `states`), raising the version by one; else resolves undefined (also when
   * the document is missing). Of two racing calls, on one process or two, exactly one wins.
   */
  updateDoc<T>(kind: DocKind<T>, id: string, expect: DocExpect, change: DocChange<T>): Promise<Doc<T> | undefined>;
  /** Documents of a kind, oldest first (createdAt, then id); any of owner/states/createdSince may be omitted. */
  listDocs<T>(kind: DocKind<T>, query: DocQuery): Promise<Doc<T>[]>;

  // ---- append-only logs (audit, price changes): nothing updates or deletes an entry ---------------
  appendLog<T>(kind: DocKind<T>, owner: number, entry: T): Promise<LogEntry<T>>;
  /** Newest first; `beforeSeq` pages back. Default limit 20, at most 500. */
  listLog<T>(kind: DocKind<T>, owner: number, page?: LogPage): Promise<LogEntry<T>[]>;

  // ---- wallets (docs/wallets.md; rules in walletRules.ts) -----------------------------------------
  // A record's wallet part is written with the record: a write that would hold more than its wallet has
  // available is refused (transitionTx: undefined; createTx, updateTx: WalletShortError), checked in the
  // same compare-and-set as the record, so two records racing for the last rupiah cannot both hold it.
  /** The wallet of a downline's chat; zeros for one that never had an entry. */
  wallet(chat: number): Promise<WalletBalance>;
  /** Every wallet of the owner's network that has had an entry. */
  walletsOf(owner: number): Promise<WalletBalance[]>;
  /**
   * Appends the entries in one durable write, all or none, resolving once they are durable. An entry
   * whose ref was posted before is skipped (so a repeated step posts nothing twice). Rejects with
   * WalletShortError when a debit would take its wallet's available below zero (walletRules.ts mayOverdraw aside).
   */
  postEntries(entries: readonly NewWalletEntry[]): Promise<PostedEntries>;
  /** The wallet's entries, newest first; `beforeSeq` pages back. Default limit 20, at most 500. */
  walletEntries(chat: number, page?: LogPage): Promise<WalletEntry[]>;
  /** The entry posted with `ref`, if any. */
  walletEntry(ref: string): Promise<WalletEntry | undefined>;
  /** Records the wallets still owe entries (walletRules.ts walletUnsettled): looked at again at start. */
  unsettledTxs(): Promise<Readonly<TxRecord>[]>;

  // ---- meta -------------------------------------------------------------------------------------
  /** Small JSON state (broadcast progress...). The value is frozen. */
  getMeta<T>(key: string): Promise<Readonly<T> | undefined>;
  /** Stores a JSON value; `undefined` deletes the key. */
  setMeta(key: string, value: unknown): Promise<void>;
}

/** What the bot keeps per chat and per money action (records.ts, zod); the backends own how they are stored. */
export {
  CUSTOMER_KINDS,
  PricingRulesSchema,
  STAFF_ROLES,
  detailOf,
  FINAL_STATUSES,
  OPEN_STATUSES,
  PAID_DEPOSIT,
  TX_KINDS,
  TX_STATUSES,
  type ChatRecord,
  type CustomerKind,
  type DepositDetail,
  type DetailOf,
  type Lang,
  type Markup,
  type PostpaidDetail,
  type PricingRules,
  type PrepaidDetail,
  type SavedCustomer,
  type StaffRole,
  type TransferDetail,
  type TxDetail,
  type TxKind,
  type TxOf,
  type TxRecord,
  type TxStatus,
  type WalletEntry,
  type WalletEntryKind,
  type WalletPart,
  type WatchState,
} from "./records.js";
export * from "./errors.js";
export { maskKey } from "./crypto.js";
