/**
 * What the rest of the bot may ask of a store. Two backends implement it: FileStore (lowdb files in
 * DATA_DIR, one process; file/) and PgStore (PostgreSQL, one or more processes; pg/); the rules they
 * share are written once in core.ts. Every read and write is asynchronous so that a store on another
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
 */
import type { ChatRecord, TxDetail, TxKind, TxOf, TxRecord, TxStatus } from "./types.js";

/** What `updateChat` may change; the key fields go through setApiKey/clearApiKey. */
export type ChatPatch = Partial<Omit<ChatRecord, "chatId" | "createdAt" | "updatedAt" | "apiKeyEnc" | "keyMask" | "linkedAt">>;

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
   * changed within the last week (core.ts HOT_FOR_MS); older history only through findTx. Cheap: the
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

  // ---- meta -------------------------------------------------------------------------------------
  /** Small JSON state (broadcast progress...). The value is frozen. */
  getMeta<T>(key: string): Promise<Readonly<T> | undefined>;
  /** Stores a JSON value; `undefined` deletes the key. */
  setMeta(key: string, value: unknown): Promise<void>;
}

export * from "./types.js";
export * from "./errors.js";
export { maskKey } from "./crypto.js";
