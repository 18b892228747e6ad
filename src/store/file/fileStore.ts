/**
 * FileStore, the file backend of the Store interface (api.ts): chats, transactions, running flows and
 * a small key-value meta, all held in memory and written with lowdb; the rules (records, validation,
 * compare-and-set, api keys) are core.ts's, shared with pg/. Its methods are async to fit the
 * interface but answer from memory; the writes in one call happen before it returns its promise.
 * This module owns the file layout; nothing else touches these files. Over 350 lines because it is the
 * one owner of that layout and of every in-memory index kept in step with it (history, open, provider
 * ids, callback tokens); splitting the class would spread that invariant over several files.
 *
 * Layout (under `<dir>/store/`, where `dir` is DATA_DIR):
 *   meta.json          {schema, chatShards, txShards, keyCheck, kv}  pretty-printed, small
 *   chats-00.json ..   {"chats": ChatRecord[]}  shard = fnv1a(String(chatId)) % chatShards
 *   tx-00.json ..      {"txs": TxRecord[], "seq": n}  shard = fnv1a(refId) % txShards; seq: txJournal.ts
 *   tx.jsonl           {"seq": n, "tx": TxRecord} a line: flushTx's records, fsync-ed (txJournal.ts)
 *   tx.old.jsonl       the same before its last rotation, until the shards caught up with it
 *   flows-00.json ..   {"flows": FlowEntry[]}   running flows; shard as the chat's (chatShards)
 *   docs/<kind>.json   {"docs": Doc[]}          documents of a kind (docFiles.ts)
 *   docs/<kind>.jsonl  one document a line      changed since docs/<kind>.json, fsync-ed (docFiles.ts)
 *   logs/<kind>.jsonl  one log entry a line      append-only, fsync-ed (docFiles.ts)
 *   .<name>.tmp        the temp file of an atomic write (temp + rename, shards.ts)
 *
 * Why shards: a change rewrites only its shard. With 64 chat shards, 100k linked chats are ~1.6k per
 * shard (~0.4 MB, ~1 ms to serialise), keeping event-loop stalls short under write bursts; a burst
 * that touches every shard still rewrites all ~30 MB, in ~0.2 s spread over many turns.
 * Shard counts are pinned in meta.json when the store is created, since a record's file depends on them.
 *
 * Memory stays bounded as history grows: final transactions unchanged for ARCHIVE_AFTER_MS move to
 * monthly archives in `<dir>/archive/` (archive.ts) by a sweep at open and every `sweepEveryMs`.
 * History reads (listTxByChat, findTx, txsOfMonth) merge the hot set with the archive.
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
import { chmod, mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { systemClock, type Clock, type TimerHandle } from "../../tools/clock.js";
import { deriveKey } from "../crypto.js";
import { buildChat, buildNewTx, CLEARED_KEY_PATCH, isHot, KeyRing, kindName, legacyFlowChat, LOST_KEY_PATCH, patchTx, storedFlow, transitionAllowed } from "../core.js";
import { DuplicateTxError, StoreClosedError, StoreCorruptError, UnknownTxError } from "../errors.js";
import { Archive, ARCHIVE_AFTER_MS, nextMonth, wibMonth, wibMonthStart } from "./archive.js";
import { Flusher, type FlushStats } from "./flusher.js";
import { deepFreeze, frozenCopy } from "../frozen.js";
import {
  checkChatShard,
  checkFlowShard,
  checkMeta,
  checkTxShard,
  DEFAULT_CHAT_SHARDS,
  DEFAULT_TX_SHARDS,
  SCHEMA_VERSION,
  type ChatShardFile,
  type FlowEntry,
  type FlowShardFile,
  type MetaFile,
} from "./schema.js";
import { recordsText, shardFileName, shardIndex, StoreFile } from "./shards.js";
import { FINAL_STATUSES, OPEN_STATUSES, type ChatRecord, type TxRecord, type TxStatus } from "../types.js";
import type { ChatPatch, Doc, DocChange, DocExpect, DocKind, DocQuery, FlowState, LogEntry, LogPage, NewDoc, NewTx, SavedFlow, Store, StoreStats, TxPatch } from "../api.js";
import { DocFiles, docKey } from "./docFiles.js";
import { readLines } from "./kindFiles.js";
import { JOURNAL, journalLine, OLD_JOURNAL, shardSeq, TxJournal } from "./txJournal.js";

export { maskKey } from "../crypto.js";
export * from "../errors.js";
export type { FlushStats } from "./flusher.js";

/**
 * A tx shard is rewritten in the background at most once a second: a change that must be on disk at
 * once is appended to the journal (flushTx) or written by flush(), neither of which waits for this.
 */
export const TX_FLUSH_DELAY_MS = 1000;
// The interface under the name callers have always imported; FileStore is one implementation of it.
export type { ChatPatch, NewTx, Store, StoreStats, TxPatch } from "../api.js";

export interface StoreOptions {
  /** DATA_DIR; the store keeps its files in `<dir>/store/` and creates it if missing. */
  dir: string;
  /** Secret the api-key encryption key is derived from (STORE_SECRET). */
  secret: string;
  clock?: Clock;
  /** Delay between the first unsaved change and its write (default 50 ms). */
  flushDelayMs?: number;
  /** The same for the tx shards, whose changes that must be saved at once go to the journal (default TX_FLUSH_DELAY_MS). */
  txFlushDelayMs?: number;
  /** Called when a background flush fails; the data stays dirty and is retried. */
  onError?: (err: unknown) => void;
  /** Told of every file write, good or failed (metrics, health). */
  onWrite?: (file: string, ok: boolean, seconds: number) => void;
  /** Shard counts for a new store (tests); an existing store keeps the counts in its meta.json. */
  chatShards?: number;
  txShards?: number;
  /** Final transactions unchanged this long leave memory for the archive (default 7 days). */
  archiveAfterMs?: number;
  /** How often the archive sweep runs on the clock (default hourly); it also runs at open. */
  sweepEveryMs?: number;
  /** Told of what the store repaired on its own (a log's torn last line); default process.emitWarning. */
  onWarning?: (message: string) => void;
}

/** FileStore's stats: the interface's, its flusher's, and how much it holds in memory. */
export interface FileStoreStats extends FlushStats, StoreStats {
  kind: "file";
  chats: number;
  /** Transactions in memory (open, drafts and recent history). */
  txs: number;
  openTxs: number;
  /** Appends (each one fsync) to the transactions' journal since open: flushTx's group commits. */
  journalAppends: number;
}

/** Position of a transaction in its chat's history: sorted by (createdAt, refId). */
interface TxPos {
  at: number;
  refId: string;
}

const META = "meta.json";

export class FileStore implements Store {
  readonly path: string;
  private readonly chatShards: Map<number, ChatRecord>[];
  private readonly txShards: Map<string, TxRecord>[];
  private readonly flowShards: Map<number, FlowEntry>[];
  private readonly chatNames: string[];
  private readonly txNames: string[];
  private readonly flowNames: string[];
  /** Indexes, kept in step by putChat/putTx so no read needs a full scan. */
  private readonly linked = new Map<number, ChatRecord>();
  private readonly open = new Map<string, TxRecord>();
  private readonly byChat = new Map<number, TxPos[]>();
  private readonly byUpstream = new Map<string, string>();
  private readonly byCallbackToken = new Map<string, number>();
  private readonly kv = new Map<string, unknown>();
  /** The api keys; set by open() once derived (reading the files does not need it). */
  private keys = new KeyRing(Buffer.alloc(0), "");
  private readonly flusher: Flusher;
  /** The flusher's writer of each file; documents and logs add theirs at a kind's first use. */
  private readonly writers = new Map<string, () => Promise<void>>();
  private readonly docs: DocFiles;
  /** flushTx's group commit (txJournal.ts). */
  private readonly journal: TxJournal;
  /** The append carrying each record version flushTx was asked for (records are frozen and replaced on change). */
  private readonly journaled = new WeakMap<TxRecord, Promise<void>>();
  private readonly warn: (message: string) => void;
  private closing: Promise<void> | undefined;
  private archive!: Archive;
  private sweeping: Promise<number> | undefined;
  private sweepTimer: TimerHandle | undefined;
  private readonly archiveAfterMs: number;
  private readonly sweepEveryMs: number;
  private readonly onError: ((err: unknown) => void) | undefined;

  private constructor(
    root: string,
    private readonly meta: MetaFile,
    private readonly clock: Clock,
    opts: StoreOptions,
  ) {
    this.path = root;
    this.archiveAfterMs = opts.archiveAfterMs ?? ARCHIVE_AFTER_MS;
    this.sweepEveryMs = opts.sweepEveryMs ?? 60 * 60_000;
    this.onError = opts.onError;
    this.chatShards = Array.from({ length: meta.chatShards }, () => new Map());
    this.txShards = Array.from({ length: meta.txShards }, () => new Map());
    this.flowShards = Array.from({ length: meta.chatShards }, () => new Map());
    this.chatNames = this.chatShards.map((_, i) => shardFileName("chats", i, meta.chatShards));
    this.txNames = this.txShards.map((_, i) => shardFileName("tx", i, meta.txShards));
    this.flowNames = this.flowShards.map((_, i) => shardFileName("flows", i, meta.chatShards));

    this.journal = new TxJournal(root, meta.txShards);
    this.warn = opts.onWarning ?? ((message) => process.emitWarning(message));
    const metaFile = new StoreFile<MetaFile>(root, META, true);
    const writers = this.writers;
    writers.set(META, () => metaFile.write({ ...this.meta, kv: Object.fromEntries(this.kv) }));
    this.chatNames.forEach((name, i) => {
      const file = new StoreFile<ChatShardFile>(root, name);
      const shard = this.chatShards[i]!;
      writers.set(name, () => file.write({ chats: Array.from(shard.values()) }));
    });
    this.txNames.forEach((name, i) => {
      // Written on every change of one of its ~150 records: each record's text is made once (shards.ts).
      const file = StoreFile.ofText(root, name);
      const shard = this.txShards[i]!;
      writers.set(name, () => {
        // The journal's number reached now: its lines up to here are in this text or older than it (txJournal.ts).
        const seq = this.journal.lastSeq();
        return file.write(recordsText("txs", shard.values(), seq)).then(() => this.journal.shardWritten(i, seq));
      });
    });
    this.flowNames.forEach((name, i) => {
      const file = new StoreFile<FlowShardFile>(root, name);
      const shard = this.flowShards[i]!;
      writers.set(name, () => file.write({ flows: Array.from(shard.values()) }));
    });

    const delayMs = opts.flushDelayMs ?? 50;
    const txDelayMs = Math.max(delayMs, opts.txFlushDelayMs ?? TX_FLUSH_DELAY_MS);
    const txFiles = new Set(this.txNames);
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
  }

  static async open(opts: StoreOptions): Promise<FileStore> {
    const root = join(opts.dir, "store");
    // The key derivation (scrypt, ~50 ms on the thread pool) overlaps reading and checking the files.
    const keying = deriveKey(opts.secret);
    if (!opts.secret) await keying; // an empty secret is the first thing said
    keying.catch(() => undefined); // awaited below; not unhandled if reading the files fails first
    await mkdir(opts.dir, { recursive: true, mode: 0o700 });
    const present = await ownerOnly(root);

    const metaFile = new StoreFile<MetaFile>(root, META, true);
    const raw = await metaFile.read();
    let meta: MetaFile;
    let fresh = false;
    if (raw === null) {
      // Data files without meta.json: something deleted it. Starting empty would shadow that data.
      const orphans = [...present].filter((n) => /^(chats|tx|flows)-\d+\.json$|^tx(\.old)?\.jsonl$/.test(n));
      if (orphans.length > 0) {
        throw new StoreCorruptError(metaFile.path, `missing, but ${orphans.length} data files exist (${orphans[0]}...)`);
      }
      meta = {
        schema: SCHEMA_VERSION,
        chatShards: opts.chatShards ?? DEFAULT_CHAT_SHARDS,
        txShards: opts.txShards ?? DEFAULT_TX_SHARDS,
        keyCheck: "", // set below, once the key is derived
        kv: {},
      };
      fresh = true;
    } else {
      meta = checkMeta(metaFile.path, raw);
      // Migrations from older schema versions go here once there is more than one.
    }

    const store = new FileStore(root, { ...meta, kv: {} }, opts.clock ?? systemClock, opts);
    for (const [k, v] of Object.entries(meta.kv)) store.kv.set(k, deepFreeze(v));
    const replayed = await store.load(present);
    store.moveLegacyFlows();
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
    await store.openArchive(join(opts.dir, "archive"));
    await store.sweep();
    store.scheduleSweep();
    return store;
  }

  /**
   * Reads the shards named in `present` (the folder's entries): a fresh store has none to read. Then
   * the transactions' journal over them (txJournal.ts); returns whether it had lines.
   */
  private async load(present: ReadonlySet<string>): Promise<boolean> {
    const txSeqs = new Array<number>(this.txShards.length).fill(0);
    await Promise.all([
      ...this.chatNames.map(async (name, i) => {
        if (!present.has(name)) return;
        const file = new StoreFile(this.path, name);
        for (const chat of checkChatShard(file.path, await file.read())) {
          if (shardIndex(chat.chatId, this.chatShards.length) !== i || this.chatShards[i]!.has(chat.chatId)) {
            throw new StoreCorruptError(file.path, `chat ${chat.chatId} is duplicated or in the wrong shard`);
          }
          this.indexChat(deepFreeze(chat));
        }
      }),
      ...this.txNames.map(async (name, i) => {
        if (!present.has(name)) return;
        const file = new StoreFile(this.path, name);
        const data = await file.read();
        const seq = shardSeq(data);
        if (seq === undefined) throw new StoreCorruptError(file.path, "invalid seq");
        txSeqs[i] = seq;
        for (const tx of checkTxShard(file.path, data)) {
          if (shardIndex(tx.refId, this.txShards.length) !== i || this.txShards[i]!.has(tx.refId)) {
            throw new StoreCorruptError(file.path, `transaction ${tx.refId} is duplicated or in the wrong shard`);
          }
          this.indexTx(deepFreeze(tx), undefined);
        }
      }),
      ...this.flowNames.map(async (name, i) => {
        if (!present.has(name)) return;
        const file = new StoreFile(this.path, name);
        for (const entry of checkFlowShard(file.path, await file.read())) {
          if (shardIndex(entry.chatId, this.flowShards.length) !== i || this.flowShards[i]!.has(entry.chatId)) {
            throw new StoreCorruptError(file.path, `flow of chat ${entry.chatId} is duplicated or in the wrong shard`);
          }
          this.flowShards[i]!.set(entry.chatId, deepFreeze(entry));
        }
      }),
    ]);
    // Histories were appended in file order; sort each once.
    for (const list of this.byChat.values()) list.sort(comparePos);
    return this.replayJournal(present, txSeqs);
  }

  /** Applies the journal's lines newer than their shard, in file order (the older file first). */
  private async replayJournal(present: ReadonlySet<string>, txSeqs: number[]): Promise<boolean> {
    let lines = 0;
    let seen = Math.max(0, ...txSeqs);
    for (const name of [OLD_JOURNAL, JOURNAL]) {
      if (!present.has(name)) continue;
      const path = join(this.path, name);
      await readLines(path, this.warn, (text, n) => {
        let raw: unknown;
        try {
          raw = JSON.parse(text);
        } catch {
          throw new StoreCorruptError(path, `line ${n}: invalid JSON`);
        }
        const line = journalLine(raw);
        if (!line) throw new StoreCorruptError(path, `line ${n}: expected {"seq": n, "tx": {...}}`);
        const [tx] = checkTxShard(path, { txs: [line.tx] });
        lines++;
        seen = Math.max(seen, line.seq);
        const i = shardIndex(tx!.refId, this.txShards.length);
        if (line.seq <= txSeqs[i]!) return; // the shard was written after this line: it holds as new or newer
        this.indexTx(deepFreeze(tx!), this.tx(tx!.refId));
        this.flusher.markDirty(this.txNames[i]!);
      });
    }
    this.journal.resume(seen);
    return lines > 0;
  }

  /** Lines a crash left un-indexed are archived already: drop their hot copies, then index them. */
  private async openArchive(dir: string): Promise<void> {
    const { archive, recovered } = await Archive.open(dir);
    this.archive = archive;
    if (recovered.size === 0) return;
    for (const refId of recovered) {
      const rec = this.tx(refId);
      if (rec) this.dropTx(rec);
    }
    await this.flusher.flush();
    await archive.saveIndex();
  }

  // ---- archive ----------------------------------------------------------------------------------

  /**
   * Moves final transactions unchanged for `archiveAfterMs` to the archive. Order for crash safety:
   * append + fsync the archive, write the shards without them, then the archive index (archive.ts).
   * Returns how many moved.
   */
  sweep(): Promise<number> {
    this.sweeping ??= this.runSweep().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async runSweep(): Promise<number> {
    const cutoff = this.clock.now() - this.archiveAfterMs;
    const old: TxRecord[] = [];
    for (const shard of this.txShards) {
      for (const rec of shard.values()) if (rec.updatedAt < cutoff && FINAL_STATUSES.has(rec.status)) old.push(rec);
    }
    if (old.length === 0) return 0;
    // In the turn the archive indexes them: a history read never finds them in both. A record changed
    // during the append keeps its newer hot copy; readers prefer the hot one.
    await this.archive.append(old, () => {
      for (const rec of old) if (this.tx(rec.refId) === rec) this.dropTx(rec);
    });
    await this.flusher.flush();
    await this.archive.saveIndex();
    return old.length;
  }

  private scheduleSweep(): void {
    if (this.closing) return;
    this.sweepTimer = this.clock.setTimeout(() => {
      this.sweep()
        .catch((err: unknown) => this.onError?.(err))
        .finally(() => this.scheduleSweep());
    }, this.sweepEveryMs);
  }

  /** Removes a transaction from memory and its shard (it lives on in the archive). */
  private dropTx(rec: TxRecord): void {
    this.txShard(rec.refId).delete(rec.refId);
    this.open.delete(rec.refId);
    if (rec.upstreamId !== undefined) this.byUpstream.delete(upstreamKey(rec.chatId, rec.upstreamId));
    const list = this.byChat.get(rec.chatId);
    if (list) {
      const i = lowerBound(list, { at: rec.createdAt, refId: rec.refId });
      if (list[i]?.refId === rec.refId) list.splice(i, 1);
      if (list.length === 0) this.byChat.delete(rec.chatId);
    }
    this.flusher.markDirty(this.txNames[shardIndex(rec.refId, this.txShards.length)]!);
  }

  // ---- persistence ------------------------------------------------------------------------------

  /** Writes every pending change; resolves when it is on disk. Waits for a flush already running. */
  flush(): Promise<void> {
    return this.flusher.flush();
  }

  /**
   * Resolves when the record's changes so far are durable: appended to the journal with every other
   * record waiting at that moment (one append, one fsync), its shard written later in the background.
   */
  flushTx(refId: string): Promise<void> {
    const i = shardIndex(refId, this.txShards.length);
    const rec = this.tx(refId);
    // Saved by a shard write already; or not held (unknown, archived): the shard's write says it all.
    if (!this.flusher.isUnsaved(this.txNames[i]!)) return Promise.resolve();
    // Closing: the last flush writes every shard, then the journal goes.
    if (!rec || this.closing) return this.flusher.flushFiles([this.txNames[i]!]);
    // Records are replaced on change: a version already on its way is waited for, not appended twice.
    let saved = this.journaled.get(rec);
    if (!saved) {
      // An append that fails falls back to the shard's write: its failure is the flusher's to report and retry.
      saved = this.journal.add(rec, i).catch(() => this.flusher.flushFiles([this.txNames[i]!]));
      this.journaled.set(rec, saved);
      saved.catch(() => this.journaled.delete(rec));
    }
    return saved;
  }

  /** Resolves when the document's kind file (its journal) holds the changes so far, written ahead of other files (the kind's one file holds every document of it). */
  flushDoc(kind: DocKind<unknown>, _id?: string): Promise<void> {
    return this.flusher.flushFiles([docKey(kindName(kind))]);
  }

  /** Flushes and stops the timer. Changes after close reject with StoreClosedError. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.sweepTimer?.cancel();
      await this.sweeping?.catch(() => undefined);
      this.flusher.stop();
      this.docs.compactAll(); // the documents' journals folded into their files by this last flush
      await this.journal.idle();
      await this.flusher.flush();
      await this.journal.clear(); // the shards hold everything now
    })();
    return this.closing;
  }

  /**
   * False while a store file's latest write failed (disk full, permissions, read-only): money
   * actions refuse then, since nothing may be acknowledged that is not on disk. Retries run meanwhile.
   */
  canPersist(): boolean {
    return this.flusher.canPersist();
  }

  stats(): FileStoreStats {
    return {
      ...this.flusher.stats(),
      kind: "file",
      chats: this.chatShards.reduce((n, s) => n + s.size, 0),
      txs: this.txShards.reduce((n, s) => n + s.size, 0),
      openTxs: this.open.size,
      journalAppends: this.journal.appends,
    };
  }

  /** False when the secret differs from the one the store was created with (stored keys won't decrypt). */
  secretMatches(): boolean {
    return this.keys.secretMatches();
  }

  /** How many chats have a stored api key (readable or not). */
  async storedKeyCount(): Promise<number> {
    let n = 0;
    for (const chat of this.eachChat()) if (chat.apiKeyEnc !== undefined) n++;
    return n;
  }

  /**
   * The operator goes on with a new secret (the old one is lost): keys that do not decrypt under it
   * are removed, their chats kept and marked `keyLost` (and awaiting a key), and the current secret
   * becomes the store's. Returns the chats that lost their key.
   */
  async resetSecret(): Promise<number[]> {
    this.assertOpen();
    const lost: number[] = [];
    for (const chat of [...this.eachChat()]) {
      if (!this.keys.lost(chat)) continue;
      this.putChat(chat.chatId, LOST_KEY_PATCH);
      lost.push(chat.chatId);
    }
    this.meta.keyCheck = this.keys.adoptOwnCheck();
    this.flusher.markDirty(META);
    return lost;
  }

  private assertOpen(): void {
    if (this.closing) throw new StoreClosedError();
  }

  // ---- chats ------------------------------------------------------------------------------------

  async getChat(chatId: number): Promise<Readonly<ChatRecord> | undefined> {
    return this.chat(chatId);
  }

  private chat(chatId: number): Readonly<ChatRecord> | undefined {
    return this.chatShard(chatId).get(chatId);
  }

  /** Creates the chat if missing. */
  async updateChat(chatId: number, patch: ChatPatch): Promise<Readonly<ChatRecord>> {
    this.assertOpen();
    return this.putChat(chatId, patch);
  }

  /** The chat whose callback URL carries `token` (provider callbacks). */
  async chatByCallbackToken(token: string): Promise<Readonly<ChatRecord> | undefined> {
    const chatId = this.byCallbackToken.get(token);
    return chatId === undefined ? undefined : this.chat(chatId);
  }

  /** Chats with an api key that have not blocked the bot. */
  async linkedChats(): Promise<Readonly<ChatRecord>[]> {
    return Array.from(this.linked.values());
  }

  async allChats(): Promise<Readonly<ChatRecord>[]> {
    return [...this.eachChat()];
  }

  private *eachChat(): IterableIterator<Readonly<ChatRecord>> {
    for (const shard of this.chatShards) yield* shard.values();
  }

  async chatCount(): Promise<number> {
    return this.chatShards.reduce((n, s) => n + s.size, 0);
  }

  // ---- api keys ---------------------------------------------------------------------------------

  /** Encrypts and stores the key, its mask and linkedAt. Linking is done in the chat, so it is active again. */
  async setApiKey(chatId: number, rawKey: string): Promise<Readonly<ChatRecord>> {
    this.assertOpen();
    return this.putChat(chatId, this.keys.seal(chatId, rawKey, this.clock.now()));
  }

  /** The decrypted key, or undefined if the chat has none. Rejects with ApiKeyDecryptError on a wrong secret. */
  async getApiKey(chatId: number): Promise<string | undefined> {
    return this.keys.open(this.chat(chatId));
  }

  apiKeyOf(chat: Readonly<ChatRecord>): string | undefined {
    return this.keys.open(chat);
  }

  async clearApiKey(chatId: number): Promise<void> {
    this.assertOpen();
    this.keys.forget(chatId);
    if (this.chat(chatId)?.apiKeyEnc === undefined) return;
    this.putChat(chatId, CLEARED_KEY_PATCH);
  }

  private chatShard(chatId: number): Map<number, ChatRecord> {
    return this.chatShards[shardIndex(chatId, this.chatShards.length)]!;
  }

  private putChat(chatId: number, patch: Partial<ChatRecord>): ChatRecord {
    const rec = buildChat(chatId, this.chat(chatId), patch, this.clock.now());
    this.indexChat(rec);
    this.flusher.markDirty(this.chatNames[shardIndex(chatId, this.chatShards.length)]!);
    return rec;
  }

  private indexChat(rec: ChatRecord): void {
    const old = this.chatShard(rec.chatId).get(rec.chatId)?.callbackToken;
    if (old !== undefined && old !== rec.callbackToken) this.byCallbackToken.delete(old);
    if (rec.callbackToken !== undefined) this.byCallbackToken.set(rec.callbackToken, rec.chatId);
    this.chatShard(rec.chatId).set(rec.chatId, rec);
    if (rec.apiKeyEnc !== undefined && !rec.inactive) this.linked.set(rec.chatId, rec);
    else this.linked.delete(rec.chatId);
  }

  // ---- transactions -----------------------------------------------------------------------------

  /** Rejects with DuplicateTxError if the refId exists. */
  async createTx(input: NewTx): Promise<Readonly<TxRecord>> {
    this.assertOpen();
    const rec = buildNewTx(input, this.clock.now());
    if (this.tx(rec.refId)) throw new DuplicateTxError(rec.refId);
    return this.putTx(rec, undefined);
  }

  async getTx(refId: string): Promise<Readonly<TxRecord> | undefined> {
    return this.tx(refId);
  }

  private tx(refId: string): Readonly<TxRecord> | undefined {
    return this.txShard(refId).get(refId);
  }

  /** Rejects with UnknownTxError if missing. */
  async updateTx(refId: string, patch: TxPatch): Promise<Readonly<TxRecord>> {
    this.assertOpen();
    const old = this.tx(refId);
    if (!old) throw new UnknownTxError(refId);
    return this.putTx(patchTx(old, patch, this.clock.now()), old);
  }

  /**
   * Compare-and-set: applies `patch` only if the current status is one of `from`, else returns
   * undefined (also when the refId is unknown). The check and the set run in one turn (no await
   * between them), so two handlers racing on the same Confirm cannot both win: the first moves
   * draft -> sending, the second sees "sending".
   */
  async transitionTx(
    refId: string,
    from: readonly TxStatus[],
    patch: TxPatch,
    when?: (current: Readonly<TxRecord>) => boolean,
  ): Promise<Readonly<TxRecord> | undefined> {
    this.assertOpen();
    const old = this.tx(refId);
    // Checked and applied in one synchronous turn: nothing else writes in between.
    if (!transitionAllowed(old, from, when)) return undefined;
    return this.putTx(patchTx(old, patch, this.clock.now()), old);
  }

  /**
   * From memory only, no archive reads: open ones and final ones changed within archiveAfterMs (core.ts
   * isHot), whether or not the sweep has moved the older ones out yet.
   */
  async findHotTx(chatId: number, id: string): Promise<Readonly<TxRecord> | undefined> {
    const now = this.clock.now();
    const own = this.tx(id);
    if (own && own.chatId === chatId && isHot(own, now, this.archiveAfterMs)) return own;
    const refId = this.byUpstream.get(upstreamKey(chatId, id));
    const rec = refId === undefined ? undefined : this.tx(refId);
    return rec && isHot(rec, now, this.archiveAfterMs) ? rec : undefined;
  }

  /** Finds a chat's transaction by our refId or by the provider's upstreamId, archived ones too. */
  async findTx(chatId: number, id: string): Promise<Readonly<TxRecord> | undefined> {
    const own = this.tx(id);
    if (own && own.chatId === chatId) return own;
    const refId = this.byUpstream.get(upstreamKey(chatId, id));
    if (refId !== undefined) return this.tx(refId);
    const match = (t: TxRecord) => t.refId === id || t.upstreamId === id;
    // Our refIds carry their WIB creation date (refs.ts): try that month before all the others.
    const dated = /^[A-Z]{2}(\d{2})(\d{2})\d{2}/.exec(id);
    const first = dated ? `20${dated[1]}-${dated[2]}` : undefined;
    const months = this.archive.monthCounts(chatId).map(([m]) => m);
    for (const month of first && months.includes(first) ? [first, ...months.filter((m) => m !== first)] : months) {
      const hit = this.archive.read(chatId, month).find(match);
      if (hit) return hit;
    }
    return undefined;
  }

  /** A page of the chat's transactions, newest first (by createdAt, then refId), archived ones included. */
  async listTxByChat(chatId: number, page: { offset?: number; limit?: number } = {}): Promise<{ items: Readonly<TxRecord>[]; total: number }> {
    const list = this.byChat.get(chatId) ?? [];
    const offset = Math.max(0, Math.floor(page.offset ?? 0));
    const limit = Math.max(0, Math.floor(page.limit ?? 10));
    const archived = this.archive.monthCounts(chatId);
    if (archived.length === 0) {
      const total = list.length;
      const end = Math.max(0, total - offset);
      const items = list
        .slice(Math.max(0, end - limit), end)
        .reverse()
        .map((p) => this.tx(p.refId)!);
      return { items, total };
    }
    // Month by month, newest first: each month's size is known without reading it, so only the
    // months the page overlaps are read.
    const counts = new Map(archived);
    for (const month of this.hotMonths(list)) counts.set(month, counts.get(month) ?? 0);
    const months = [...counts.keys()].sort().reverse();
    let total = 0;
    const items: Readonly<TxRecord>[] = [];
    for (const month of months) {
      const [from, to] = this.hotRange(list, month);
      const n = counts.get(month)! + (to - from);
      if (items.length < limit && total + n > offset) {
        const start = Math.max(0, offset - total);
        // Only the lines shown when the archive can find them by position; else the whole month.
        const shown = this.archive.page(chatId, month, list.slice(from, to), start, limit - items.length);
        if (shown) for (const t of shown) items.push("chatId" in t ? t : this.tx(t.refId)!);
        else {
          const all = this.monthList(chatId, month, list.slice(from, to));
          // A duplicate (a record both hot and archived) makes the month shorter than counted: clamp.
          for (let i = all.length - 1 - start; i >= 0 && items.length < limit; i--) items.push(all[i]!);
        }
      }
      total += n;
    }
    return { items, total };
  }

  /** The chat's transactions created in `month` ("YYYY-MM", WIB), oldest first, archived ones included. */
  async txsOfMonth(chatId: number, month: string): Promise<Readonly<TxRecord>[]> {
    const list = this.byChat.get(chatId) ?? [];
    const [from, to] = this.hotRange(list, month);
    return this.monthList(chatId, month, list.slice(from, to));
  }

  /** The WIB months ("YYYY-MM") in which the chat has records, hot or archived, newest first. */
  async txMonths(chatId: number): Promise<string[]> {
    const months = new Set(this.archive.monthCounts(chatId).map(([m]) => m));
    for (const p of this.byChat.get(chatId) ?? []) months.add(wibMonth(p.at));
    return [...months].sort().reverse();
  }

  /** Hot and archived records of one month, de-duplicated by refId (hot wins), oldest first. */
  private monthList(chatId: number, month: string, hot: TxPos[]): Readonly<TxRecord>[] {
    const byRef = new Map<string, Readonly<TxRecord>>();
    for (const t of this.archive.read(chatId, month)) byRef.set(t.refId, t);
    for (const p of hot) byRef.set(p.refId, this.tx(p.refId)!);
    return [...byRef.values()].sort((a, b) => comparePos({ at: a.createdAt, refId: a.refId }, { at: b.createdAt, refId: b.refId }));
  }

  /** Index range [from, to) of `list` created in `month`. */
  private hotRange(list: TxPos[], month: string): [number, number] {
    const start = wibMonthStart(month);
    const end = wibMonthStart(nextMonth(month));
    return [lowerBound(list, { at: start, refId: "" }), lowerBound(list, { at: end, refId: "" })];
  }

  private hotMonths(list: TxPos[]): string[] {
    if (list.length === 0) return [];
    const out: string[] = [];
    const last = wibMonth(list[list.length - 1]!.at);
    for (let m = wibMonth(list[0]!.at); m <= last; m = nextMonth(m)) out.push(m);
    return out;
  }

  /** Transactions whose status is in OPEN_STATUSES (from an index, not a scan). */
  async openTxs(): Promise<Readonly<TxRecord>[]> {
    return Array.from(this.open.values());
  }

  private txShard(refId: string): Map<string, TxRecord> {
    return this.txShards[shardIndex(refId, this.txShards.length)]!;
  }

  /** Keeps a record built by core.ts (validated, frozen) in memory and marks its shard for writing. */
  private putTx(rec: TxRecord, old: TxRecord | undefined): TxRecord {
    this.indexTx(rec, old);
    this.flusher.markDirty(this.txNames[shardIndex(rec.refId, this.txShards.length)]!);
    return rec;
  }

  private indexTx(rec: TxRecord, old: TxRecord | undefined): void {
    this.txShard(rec.refId).set(rec.refId, rec);
    if (OPEN_STATUSES.has(rec.status)) this.open.set(rec.refId, rec);
    else this.open.delete(rec.refId);
    if (old?.upstreamId !== undefined && old.upstreamId !== rec.upstreamId) {
      this.byUpstream.delete(upstreamKey(old.chatId, old.upstreamId));
    }
    if (rec.upstreamId !== undefined) this.byUpstream.set(upstreamKey(rec.chatId, rec.upstreamId), rec.refId);
    if (!old) {
      // createdAt and chatId never change, so only a new transaction moves the history index.
      let list = this.byChat.get(rec.chatId);
      if (!list) this.byChat.set(rec.chatId, (list = []));
      insertSorted(list, { at: rec.createdAt, refId: rec.refId });
    }
  }

  // ---- flows ------------------------------------------------------------------------------------

  async getFlow(chatId: number): Promise<SavedFlow> {
    const entry = this.flowShard(chatId).get(chatId);
    return { state: entry?.state, version: entry?.version ?? 0 };
  }

  /** Checked and set in one synchronous turn, like transitionTx. */
  async setFlow(chatId: number, state: FlowState | undefined, expectedVersion: number): Promise<boolean> {
    this.assertOpen();
    const version = this.flowShard(chatId).get(chatId)?.version ?? 0;
    if (version !== expectedVersion) return false;
    this.putFlow(chatId, version + 1, state === undefined ? undefined : storedFlow(chatId, state));
    return true;
  }

  private putFlow(chatId: number, version: number, state: FlowState | undefined): void {
    const entry: FlowEntry = state === undefined ? { chatId, version } : { chatId, version, state: state as Record<string, unknown> };
    this.flowShard(chatId).set(chatId, deepFreeze(entry));
    this.flusher.markDirty(this.flowNames[shardIndex(chatId, this.flowShards.length)]!);
  }

  private flowShard(chatId: number): Map<number, FlowEntry> {
    return this.flowShards[shardIndex(chatId, this.flowShards.length)]!;
  }

  /** Older versions kept flows in meta (`conv:<chatId>`): they move to the flow shards, once. */
  private moveLegacyFlows(): void {
    for (const [key, value] of [...this.kv]) {
      const chatId = legacyFlowChat(key);
      if (chatId === undefined) continue;
      if (!this.flowShard(chatId).has(chatId)) this.putFlow(chatId, 1, value as FlowState);
      this.kv.delete(key);
      this.flusher.markDirty(META);
    }
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


function upstreamKey(chatId: number, upstreamId: string): string {
  return `${chatId}\u0000${upstreamId}`;
}

function comparePos(a: TxPos, b: TxPos): number {
  return a.at - b.at || (a.refId < b.refId ? -1 : a.refId > b.refId ? 1 : 0);
}

/** First index whose position is not below `pos`. */
function lowerBound(list: TxPos[], pos: TxPos): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePos(list[mid]!, pos) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** New transactions almost always go last; otherwise binary search. */
function insertSorted(list: TxPos[], pos: TxPos): void {
  const last = list[list.length - 1];
  if (!last || comparePos(last, pos) <= 0) {
    list.push(pos);
    return;
  }
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePos(list[mid]!, pos) <= 0) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, pos);
}

/** Times one file write (serialising included) for `onWrite`. */
function observeWrite(name: string, write: () => Promise<void>, onWrite: StoreOptions["onWrite"]): Promise<void> {
  if (!onWrite) return write();
  const t0 = performance.now();
  let written: Promise<void>;
  try {
    written = write();
  } catch (err) {
    written = Promise.reject(err);
  }
  return written.then(
    () => onWrite(name, true, (performance.now() - t0) / 1000),
    (err: unknown) => {
      onWrite(name, false, (performance.now() - t0) / 1000);
      throw err;
    },
  );
}

/**
 * Api keys (encrypted) and money records: the folder and its files are for the owner only (0700 / 0600).
 * Returns the names in the folder (of any type: a directory named like a shard is still refused when read).
 */
async function ownerOnly(root: string): Promise<Set<string>> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  await chmod(root, 0o700);
  const entries = await readdir(root, { withFileTypes: true });
  // At once, not one thread-pool round trip after another: a store with data has ~130 files.
  await Promise.all(entries.filter((e) => e.isFile()).map((e) => chmod(join(root, e.name), 0o600)));
  return new Set(entries.map((e) => e.name));
}
