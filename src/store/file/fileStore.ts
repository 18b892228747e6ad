/**
 * FileStore, the file backend of the Store interface (api.ts): chats, transactions, running flows and
 * a small key-value meta, all held in memory and written with lowdb; the rules (records, validation,
 * compare-and-set, api keys) are rules.ts's, shared with pg/. Its methods are async to fit the
 * interface but answer from memory; the writes in one call happen before it returns its promise.
 * This class composes the rooms of the file backend; nothing else touches its files:
 *   layout.ts        the files under `<dir>/store/` (names, permissions, meta.json, writers)
 *   indexes.ts       the records in memory and the indexes kept in step with them
 *   shardLoad.ts     reading the shards at open; journalReplay.ts the journal over them
 *   legacyFlows.ts   flows moved out of meta's kv (older versions)
 *   archiveSweep.ts  memory kept bounded: final transactions unchanged for ARCHIVE_AFTER_MS move to
 *                    monthly archives in `<dir>/archive/` (archive.ts) by a sweep at open and every
 *                    `sweepEveryMs`; history.ts reads (listTxByChat, findTx...) merge the two
 *
 * Writes are coalesced (see flusher.ts): a change marks its file dirty and one flush after
 * `flushDelayMs` (a tx shard: TX_FLUSH_DELAY_MS) writes each dirty file once. Callers that must know a change is on disk (a reference
 * id before a money call) `await store.flush()`. Writes are atomic (rename) but not fsync'd: they
 * survive a process crash, not necessarily a power cut. A caller that needs one transaction saved (a
 * notice's marker) calls `flushTx`: its record goes to the journal in a group commit (txJournal.ts),
 * not behind the shard writes in flight; the journal is replayed over the shards at open.
 *
 * Records handed out are deeply frozen (see frozen.ts), never copies; update through the methods.
 *
 * A file that is unreadable, not JSON, the wrong shape (records.ts, checked at open: files may have
 * been edited or written by another version) or from a newer schema makes `open` throw
 * StoreCorruptError naming it, and is never overwritten.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { systemClock, type Clock } from "../../tools/clock.js";
import { deriveKey } from "../crypto.js";
import { buildChat, buildNewTx, CLEARED_KEY_PATCH, isHot, KeyRing, kindName, LOST_KEY_PATCH, patchTx, storedFlow, transitionAllowed } from "../rules.js";
import { DuplicateTxError, StoreClosedError, UnknownTxError } from "../errors.js";
import { ARCHIVE_AFTER_MS } from "./archive.js";
import { ArchiveSweep } from "./archiveSweep.js";
import { Flusher } from "./flusher.js";
import { deepFreeze, frozenCopy } from "../frozen.js";
import * as history from "./history.js";
import { RecordIndexes } from "./indexes.js";
import { replayJournal } from "./journalReplay.js";
import { layoutWriters, META, observeWrite, openMeta, ownerOnly, shardNames, type ShardNames } from "./layout.js";
import { moveLegacyFlows } from "./legacyFlows.js";
import type { FileStoreStats, StoreOptions } from "./options.js";
import type { FlowEntry, MetaFile } from "./schema.js";
import { loadShards } from "./shardLoad.js";
import type { ChatRecord, TxRecord, TxStatus, WalletEntry } from "../records.js";
import type { ChatPatch, Doc, DocChange, DocExpect, DocKind, DocQuery, FlowState, LogEntry, LogPage, NewDoc, NewTx, NewWalletEntry, PostedEntries, SavedFlow, Store, TxPatch, WalletBalance } from "../api.js";
import { DocFiles, docKey } from "./docFiles.js";
import { TxJournal } from "./txJournal.js";
import { chatsWithLostKeys, storedKeyCount } from "./secretReset.js";
import { FileWallets } from "./wallets.js";

export { maskKey } from "../crypto.js";
export * from "../errors.js";
export type { FlushStats } from "./flusher.js";
export type { FileStoreStats, StoreOptions } from "./options.js";

/**
 * A tx shard is rewritten in the background at most once a second: a change that must be on disk at
 * once is appended to the journal (flushTx) or written by flush(), neither of which waits for this.
 */
export const TX_FLUSH_DELAY_MS = 1000;
// The interface under the name callers have always imported; FileStore is one implementation of it.
export type { ChatPatch, NewTx, Store, StoreStats, TxPatch } from "../api.js";

export class FileStore implements Store {
  readonly path: string;
  private readonly names: ShardNames;
  /** The records in memory and their indexes (indexes.ts). */
  private readonly hot: RecordIndexes;
  private readonly kv = new Map<string, unknown>();
  /** The api keys; set by open() once derived (reading the files does not need it). */
  private keys = new KeyRing(Buffer.alloc(0), "");
  private readonly flusher: Flusher;
  private readonly docs: DocFiles;
  /** flushTx's group commit (txJournal.ts). */
  private readonly journal: TxJournal;
  /** The append carrying each record version flushTx was asked for (records are frozen and replaced on change). */
  private readonly journaled = new WeakMap<TxRecord, Promise<void>>();
  private readonly warn: (message: string) => void;
  private closing: Promise<void> | undefined;
  private readonly archiving: ArchiveSweep;
  private readonly archiveAfterMs: number;
  private readonly wallets: FileWallets;

  private constructor(
    root: string,
    private readonly meta: MetaFile,
    private readonly clock: Clock,
    opts: StoreOptions,
  ) {
    this.path = root;
    this.archiveAfterMs = opts.archiveAfterMs ?? ARCHIVE_AFTER_MS;
    this.hot = new RecordIndexes(meta.chatShards, meta.txShards);
    this.names = shardNames(meta);
    this.journal = new TxJournal(root, meta.txShards);
    this.warn = opts.onWarning ?? ((message) => process.emitWarning(message));
    // The flusher's writer of each file; documents and logs add theirs at a kind's first use.
    const writers = layoutWriters(root, this.names, this.hot, this.journal, () => ({ ...this.meta, kv: Object.fromEntries(this.kv) }));

    const delayMs = opts.flushDelayMs ?? 50;
    const txDelayMs = Math.max(delayMs, opts.txFlushDelayMs ?? TX_FLUSH_DELAY_MS);
    const txFiles = new Set(this.names.txs);
    this.flusher = new Flusher({
      clock,
      delayMs,
      delayOf: (name) => (txFiles.has(name) ? txDelayMs : delayMs),
      write: (name) => observeWrite(name, writers.get(name)!, opts.onWrite),
      ...(opts.onError ? { onError: opts.onError } : {}),
    });
    this.docs = new DocFiles({
      root,
      clock,
      register: (key, write) => writers.set(key, write),
      markDirty: (key) => this.flusher.markDirty(key),
      assertOpen: () => this.assertOpen(),
      warn: this.warn,
    });
    this.wallets = new FileWallets(root, () => clock.now(), () => this.assertOpen());
    this.archiving = new ArchiveSweep({
      clock,
      hot: this.hot,
      afterMs: this.archiveAfterMs,
      everyMs: opts.sweepEveryMs ?? 60 * 60_000,
      drop: (rec) => {
        this.hot.dropTx(rec);
        this.markTxShard(this.hot.txShardOf(rec.refId));
      },
      flush: () => this.flusher.flush(),
      onError: opts.onError,
    });
  }

  static async open(opts: StoreOptions): Promise<FileStore> {
    const root = join(opts.dir, "store");
    // The key derivation (scrypt, ~50 ms on the thread pool) overlaps reading and checking the files.
    const keying = deriveKey(opts.secret);
    if (!opts.secret) await keying; // an empty secret is the first thing said
    keying.catch(() => undefined); // awaited below; not unhandled if reading the files fails first
    await mkdir(opts.dir, { recursive: true, mode: 0o700 });
    const present = await ownerOnly(root);
    const { meta, fresh } = await openMeta(root, present, opts);

    const store = new FileStore(root, { ...meta, kv: {} }, opts.clock ?? systemClock, opts);
    for (const [k, v] of Object.entries(meta.kv)) store.kv.set(k, deepFreeze(v));
    const txSeqs = await loadShards(root, store.names, store.hot, present);
    const replayed = await replayJournal({
      root,
      present,
      txSeqs,
      hot: store.hot,
      journal: store.journal,
      markTxShard: (i) => store.markTxShard(i),
      warn: store.warn,
    });
    await store.wallets.load(store.warn, () => store.hot.eachTx());
    if (moveLegacyFlows(store.kv, (chatId) => store.hot.flow(chatId) !== undefined, (chatId, state) => store.putFlow(chatId, 1, state))) {
      store.flusher.markDirty(META);
    }
    if (replayed) {
      // The shards take in what the journal held, then the journal goes: a clean start.
      await store.flusher.flush();
      await store.journal.clear();
    }
    store.keys = new KeyRing(await keying, meta.keyCheck);
    if (fresh) {
      store.meta.keyCheck = store.keys.adoptOwnCheck();
      store.flusher.markDirty(META);
      await store.flusher.flush();
    }
    await store.archiving.open(join(opts.dir, "archive"));
    await store.archiving.sweep();
    store.archiving.schedule();
    return store;
  }

  /** Moves final transactions unchanged for `archiveAfterMs` to the archive (archiveSweep.ts); returns how many. */
  sweep(): Promise<number> {
    return this.archiving.sweep();
  }

  private markTxShard(i: number): void {
    this.flusher.markDirty(this.names.txs[i]!);
  }

  // ---- persistence ------------------------------------------------------------------------------

  flush(): Promise<void> {
    return this.flusher.flush();
  }

  /**
   * Resolves when the record's changes so far are durable: appended to the journal with every other
   * record waiting at that moment (one append, one fsync), its shard written later in the background.
   */
  flushTx(refId: string): Promise<void> {
    const i = this.hot.txShardOf(refId);
    const rec = this.hot.tx(refId);
    // Saved by a shard write already; or not held (unknown, archived): the shard's write says it all.
    if (!this.flusher.isUnsaved(this.names.txs[i]!)) return Promise.resolve();
    // Closing: the last flush writes every shard, then the journal goes.
    if (!rec || this.closing) return this.flusher.flushFiles([this.names.txs[i]!]);
    // Records are replaced on change: a version already on its way is waited for, not appended twice.
    let saved = this.journaled.get(rec);
    if (!saved) {
      // An append that fails falls back to the shard's write: its failure is the flusher's to report and retry.
      saved = this.journal.add(rec, i).catch(() => this.flusher.flushFiles([this.names.txs[i]!]));
      this.journaled.set(rec, saved);
      saved.catch(() => this.journaled.delete(rec));
    }
    return saved;
  }

  /** Resolves when the document's kind file (its journal) holds the changes so far, written ahead of other files (the kind's one file holds every document of it). */
  flushDoc(kind: DocKind<unknown>, _id?: string): Promise<void> {
    return this.flusher.flushFiles([docKey(kindName(kind))]);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.archiving.stop();
      this.flusher.stop();
      this.docs.compactAll(); // the documents' journals folded into their files by this last flush
      await this.journal.idle();
      await this.flusher.flush();
      await this.journal.clear(); // the shards hold everything now
      await this.wallets.close();
    })();
    return this.closing;
  }

  /** False while a store file's latest write failed (disk full, read-only); retries run meanwhile. */
  canPersist(): boolean {
    return this.flusher.canPersist();
  }

  stats(): FileStoreStats {
    return {
      ...this.flusher.stats(),
      kind: "file",
      chats: this.hot.chatCount(),
      txs: this.hot.txCount(),
      openTxs: this.hot.openCount(),
      journalAppends: this.journal.appends,
    };
  }

  secretMatches(): boolean {
    return this.keys.secretMatches();
  }

  async storedKeyCount(): Promise<number> {
    return storedKeyCount(this.hot);
  }

  /** The operator goes on with a new secret (secretReset.ts). */
  async resetSecret(): Promise<number[]> {
    this.assertOpen();
    const lost = chatsWithLostKeys(this.hot, this.keys);
    for (const chatId of lost) this.putChat(chatId, LOST_KEY_PATCH);
    this.meta.keyCheck = this.keys.adoptOwnCheck();
    this.flusher.markDirty(META);
    return lost;
  }

  private assertOpen(): void {
    if (this.closing) throw new StoreClosedError();
  }

  // ---- chats ------------------------------------------------------------------------------------

  async getChat(chatId: number): Promise<Readonly<ChatRecord> | undefined> {
    return this.hot.chat(chatId);
  }

  /** Creates the chat if missing. */
  async updateChat(chatId: number, patch: ChatPatch): Promise<Readonly<ChatRecord>> {
    this.assertOpen();
    return this.putChat(chatId, patch);
  }

  /** The chat whose callback URL carries `token` (provider callbacks). */
  async chatByCallbackToken(token: string): Promise<Readonly<ChatRecord> | undefined> {
    const chatId = this.hot.chatIdByCallbackToken(token);
    return chatId === undefined ? undefined : this.hot.chat(chatId);
  }

  /** Chats with an api key that have not blocked the bot. */
  async linkedChats(): Promise<Readonly<ChatRecord>[]> {
    return this.hot.linkedChats();
  }

  async allChats(): Promise<Readonly<ChatRecord>[]> {
    return [...this.hot.eachChat()];
  }

  async chatCount(): Promise<number> {
    return this.hot.chatCount();
  }

  // ---- api keys ---------------------------------------------------------------------------------

  /** Encrypts and stores the key, its mask and linkedAt. Linking is done in the chat, so it is active again. */
  async setApiKey(chatId: number, rawKey: string): Promise<Readonly<ChatRecord>> {
    this.assertOpen();
    return this.putChat(chatId, this.keys.seal(chatId, rawKey, this.clock.now()));
  }

  /** The decrypted key, or undefined if the chat has none. Rejects with ApiKeyDecryptError on a wrong secret. */
  async getApiKey(chatId: number): Promise<string | undefined> {
    return this.keys.open(this.hot.chat(chatId));
  }

  apiKeyOf(chat: Readonly<ChatRecord>): string | undefined {
    return this.keys.open(chat);
  }

  async chatsWithKey(rawKey: string): Promise<Readonly<ChatRecord>[]> {
    return this.hot.linkedChats().filter((c) => this.keys.holds(c, rawKey));
  }

  async clearApiKey(chatId: number): Promise<void> {
    this.assertOpen();
    this.keys.forget(chatId);
    if (this.hot.chat(chatId)?.apiKeyEnc === undefined) return;
    this.putChat(chatId, CLEARED_KEY_PATCH);
  }

  private putChat(chatId: number, patch: Partial<ChatRecord>): ChatRecord {
    const rec = buildChat(chatId, this.hot.chat(chatId), patch, this.clock.now());
    this.hot.putChat(rec);
    this.flusher.markDirty(this.names.chats[this.hot.chatShardOf(chatId)]!);
    return rec;
  }

  // ---- transactions -----------------------------------------------------------------------------

  async createTx(input: NewTx): Promise<Readonly<TxRecord>> {
    this.assertOpen();
    const rec = buildNewTx(input, this.clock.now());
    if (this.hot.tx(rec.refId)) throw new DuplicateTxError(rec.refId);
    this.wallets.admitOrThrow(undefined, rec);
    return this.putTx(rec, undefined);
  }

  async getTx(refId: string): Promise<Readonly<TxRecord> | undefined> {
    return this.hot.tx(refId);
  }

  async updateTx(refId: string, patch: TxPatch): Promise<Readonly<TxRecord>> {
    this.assertOpen();
    const old = this.hot.tx(refId);
    if (!old) throw new UnknownTxError(refId);
    const rec = patchTx(old, patch, this.clock.now());
    this.wallets.admitOrThrow(old, rec);
    return this.putTx(rec, old);
  }

  /** The check and the set (a wallet's held amount included) run in one turn: of two racing Confirms one wins. */
  async transitionTx(
    refId: string,
    from: readonly TxStatus[],
    patch: TxPatch,
    when?: (current: Readonly<TxRecord>) => boolean,
  ): Promise<Readonly<TxRecord> | undefined> {
    this.assertOpen();
    const old = this.hot.tx(refId);
    if (!transitionAllowed(old, from, when)) return undefined;
    const rec = patchTx(old, patch, this.clock.now());
    // A wallet part that would hold more than its wallet has: refused like a lost compare-and-set.
    if (!this.wallets.admit(old, rec)) return undefined;
    return this.putTx(rec, old);
  }

  /**
   * From memory only, no archive reads: open ones and final ones changed within archiveAfterMs (rules.ts
   * isHot), whether or not the sweep has moved the older ones out yet.
   */
  async findHotTx(chatId: number, id: string): Promise<Readonly<TxRecord> | undefined> {
    const now = this.clock.now();
    const own = this.hot.tx(id);
    if (own && own.chatId === chatId && isHot(own, now, this.archiveAfterMs)) return own;
    const refId = this.hot.refIdByUpstream(chatId, id);
    const rec = refId === undefined ? undefined : this.hot.tx(refId);
    return rec && isHot(rec, now, this.archiveAfterMs) ? rec : undefined;
  }

  async findTx(chatId: number, id: string): Promise<Readonly<TxRecord> | undefined> {
    return history.findTx(this.hot, this.archiving.archive, chatId, id);
  }

  async listTxByChat(chatId: number, page: { offset?: number; limit?: number } = {}): Promise<{ items: Readonly<TxRecord>[]; total: number }> {
    return history.listTxByChat(this.hot, this.archiving.archive, chatId, page);
  }

  async txsOfMonth(chatId: number, month: string): Promise<Readonly<TxRecord>[]> {
    return history.txsOfMonth(this.hot, this.archiving.archive, chatId, month);
  }

  async txMonths(chatId: number): Promise<string[]> {
    return history.txMonths(this.hot, this.archiving.archive, chatId);
  }

  /** Transactions whose status is in OPEN_STATUSES (from an index, not a scan). */
  async openTxs(): Promise<Readonly<TxRecord>[]> {
    return this.hot.openTxs();
  }

  /** Keeps a record built by rules.ts (validated, frozen) in memory and marks its shard for writing. */
  private putTx(rec: TxRecord, old: TxRecord | undefined): TxRecord {
    this.hot.putTx(rec, old);
    this.markTxShard(this.hot.txShardOf(rec.refId));
    return rec;
  }

  // ---- flows ------------------------------------------------------------------------------------

  async getFlow(chatId: number): Promise<SavedFlow> {
    const entry = this.hot.flow(chatId);
    return { state: entry?.state, version: entry?.version ?? 0 };
  }

  async setFlow(chatId: number, state: FlowState | undefined, expectedVersion: number): Promise<boolean> {
    this.assertOpen();
    const version = this.hot.flow(chatId)?.version ?? 0;
    if (version !== expectedVersion) return false;
    this.putFlow(chatId, version + 1, state === undefined ? undefined : storedFlow(chatId, state));
    return true;
  }

  private putFlow(chatId: number, version: number, state: FlowState | undefined): void {
    const entry: FlowEntry = state === undefined ? { chatId, version } : { chatId, version, state: state as Record<string, unknown> };
    this.hot.putFlow(deepFreeze(entry));
    this.flusher.markDirty(this.names.flows[this.hot.flowShardOf(chatId)]!);
  }

  // ---- documents and logs (docFiles.ts) ---------------------------------------------------------

  createDoc<T>(kind: DocKind<T>, input: NewDoc<T>): Promise<Doc<T>> {
    return this.docs.createDoc(kind, input);
  }

  getDoc<T>(kind: DocKind<T>, id: string): Promise<Doc<T> | undefined> {
    return this.docs.getDoc(kind, id);
  }

  updateDoc<T>(kind: DocKind<T>, id: string, expect: DocExpect, change: DocChange<T>): Promise<Doc<T> | undefined> {
    return this.docs.updateDoc(kind, id, expect, change);
  }

  listDocs<T>(kind: DocKind<T>, query: DocQuery): Promise<Doc<T>[]> {
    return this.docs.listDocs(kind, query);
  }

  appendLog<T>(kind: DocKind<T>, owner: number, entry: T): Promise<LogEntry<T>> {
    return this.docs.appendLog(kind, owner, entry);
  }

  listLog<T>(kind: DocKind<T>, owner: number, page?: LogPage): Promise<LogEntry<T>[]> {
    return this.docs.listLog(kind, owner, page);
  }

  // ---- wallets (wallets.ts: every entry in memory, one append a post) -----------------------------

  async wallet(chat: number): Promise<WalletBalance> { return this.wallets.wallet(chat); } // prettier-ignore
  async walletsOf(owner: number): Promise<WalletBalance[]> { return this.wallets.walletsOf(owner); } // prettier-ignore
  postEntries(entries: readonly NewWalletEntry[]): Promise<PostedEntries> { return this.wallets.postEntries(entries); } // prettier-ignore
  async walletEntries(chat: number, page?: LogPage): Promise<WalletEntry[]> { return this.wallets.page(chat, page); } // prettier-ignore
  async walletEntry(ref: string): Promise<WalletEntry | undefined> { return this.wallets.entry(ref); } // prettier-ignore

  async unsettledTxs(): Promise<Readonly<TxRecord>[]> {
    return this.wallets.unsettledTxs();
  }

  // ---- meta -------------------------------------------------------------------------------------

  /** Small JSON state (broadcast progress...). The value is frozen. */
  async getMeta<T>(key: string): Promise<Readonly<T> | undefined> {
    return this.kv.get(key) as Readonly<T> | undefined;
  }

  /** Stores a JSON value; `undefined` deletes the key. */
  async setMeta(key: string, value: unknown): Promise<void> {
    this.assertOpen();
    if (value === undefined) this.kv.delete(key);
    else this.kv.set(key, frozenCopy(value, `meta.${key}`));
    this.flusher.markDirty(META);
  }
}
