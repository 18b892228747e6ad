/**
 * The store in PostgreSQL (STORE_URL=postgres://...), for one or more bot processes on one database:
 * reading, writing and the queries; the records, checks, encryption and compare-and-set rules are
 * rules.ts's, the same as the file store's (file/).
 *
 * Every change is committed before its call resolves, so `flush()` has nothing to wait for. Changes
 * are compare-and-set on a row version: read (data, version), compute and validate the new record in
 * JavaScript, `UPDATE ... WHERE version = $read`; no row means another call or process changed it
 * first, so read again and re-check. `transitionTx` thus has exactly one winner across processes.
 *
 * Records are validated on every write and on every read (rules.ts storedTx): another process, an
 * older version or an operator may have written the row. Records handed out are frozen.
 *
 * PgStore owns the connection pool and its health (reachability.ts), the timed writes, flows and
 * meta; the chats and api keys (pgChats.ts), transactions (pgTxs.ts) and documents and logs
 * (pgDocs.ts) are queried in their own modules over that pool. The rules are in rules.ts, the schema,
 * row mapping and import beside it.
 */
import postgres, { type Sql } from "postgres";
import { systemClock, type Clock } from "../../tools/clock.js";
import type { ChatPatch, Doc, DocChange, DocExpect, DocKind, DocQuery, FlowState, LogEntry, LogPage, NewDoc, NewTx, NewWalletEntry, PostedEntries, SavedFlow, Store, StoreStats, TxPatch, WalletBalance } from "../api.js";
import type { WalletEntry } from "../records.js";
import { KeyRing, storedFlow } from "../rules.js";
import { deriveKey, keyCheck } from "../crypto.js";
import { DatabaseUnreachableError, DuplicateDocError, DuplicateTxError, StoreClosedError, StoreCorruptError, UnknownTxError } from "../errors.js";
import { deepFreeze, frozenCopy } from "../frozen.js";
import { OPEN_STATUSES, type ChatRecord, type TxRecord, type TxStatus } from "../records.js";
import { migrate, OPEN_STATUS_SQL } from "./migrations.js";
import { KEY_CHECK, PgChats } from "./pgChats.js";
import { PgDocs } from "./pgDocs.js";
import { PgTxs } from "./pgTxs.js";
import { PgWallets } from "./pgWallets.js";
import { Reachability } from "./reachability.js";
import { startupParams } from "./startup.js";
import { endSessions } from "./sessions.js";

export interface PgStoreOptions {
  /** postgres:// URL; it may carry a password: never log it (maskUrl). */
  url: string;
  /** Secret the api-key encryption key is derived from (STORE_SECRET), as for the file store. */
  secret: string;
  clock?: Clock;
  /** Told of every write, good or failed (metrics); `name` is the table. */
  onWrite?: (name: string, ok: boolean, seconds: number) => void;
  /** Told when a write fails for a reason other than the data (database unreachable...). */
  onError?: (err: unknown) => void;
  /** Connections in the pool (default 10). */
  max?: number;
  /** While the database cannot be reached, how often a ping checks whether it is back (default 5 s, on the clock). */
  pingEveryMs?: number;
}

if (OPEN_STATUS_SQL.length !== OPEN_STATUSES.size || !OPEN_STATUS_SQL.every((s) => OPEN_STATUSES.has(s))) {
  throw new Error("pg/migrations.ts OPEN_STATUS_SQL differs from OPEN_STATUSES: add a migration for the partial index");
}

/** The url with its password replaced by ***: safe to print. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable url)";
  }
}

/** SQLSTATE classes that are about the data, not the database being there: such a failure leaves canPersist alone. */
const DATA_ERROR_CLASSES = ["22", "23", "42"];

function isPersistenceFailure(err: unknown): boolean {
  if (err instanceof postgres.PostgresError) return !DATA_ERROR_CLASSES.includes(err.code.slice(0, 2));
  if (err instanceof DatabaseUnreachableError) return true;
  return !(
    err instanceof TypeError ||
    err instanceof DuplicateTxError ||
    err instanceof DuplicateDocError ||
    err instanceof UnknownTxError ||
    err instanceof StoreClosedError ||
    err instanceof StoreCorruptError
  );
}


export class PgStore implements Store {
  private closed = false;
  private readonly reach: Reachability;

  private readonly sql: Sql;
  private inFlight = 0;
  private readonly docs: PgDocs;
  private readonly chats: PgChats;
  private readonly txs: PgTxs;
  private readonly wallets: PgWallets;

  private constructor(
    sql: Sql,
    private readonly keys: KeyRing,
    clock: Clock,
    private readonly opts: PgStoreOptions,
  ) {
    this.reach = new Reachability({ clock, probe: () => sql`SELECT 1`, probeEveryMs: opts.pingEveryMs ?? 5000 });
    this.sql = this.watchQueries(sql);
    this.docs = new PgDocs({ sql: this.sql, fragments: sql, clock, write: (table, fn) => this.write(table, fn) });
    const host = {
      sql: this.sql,
      clock,
      write: <T>(table: string, fn: () => Promise<T>) => this.write(table, fn),
      assertOpen: () => {
        if (this.closed) throw new StoreClosedError();
      },
    };
    this.chats = new PgChats({ ...host, keys, promptly: (read) => this.reach.promptly(read) });
    this.wallets = new PgWallets(host);
    this.txs = new PgTxs({ ...host, closed: () => this.closed }, this.wallets);
  }

  /**
   * Every query, reads included: a database that cannot be reached makes canPersist false, and queries
   * fail at once, unsent, while it stays so (reachability.ts), so the bot says "storage problem" within
   * a second instead of waiting on connections one query at a time. The file store answers reads from
   * memory; here a read fails exactly when the next write would.
   */
  private watchQueries(sql: Sql): Sql {
    return new Proxy(sql, {
      apply: (target, self, args: unknown[]) => {
        const send = () => {
          this.inFlight++;
          return (Reflect.apply(target, self, args) as Promise<unknown>)
            .then(
              (out) => (this.reach.answered(), out),
              (err: unknown) => {
                if (!this.closed && isPersistenceFailure(err)) this.reach.lost();
                else this.reach.answered();
                throw err;
              },
            )
            .finally(() => this.inFlight--);
        };
        return this.reach.admit()?.then(send) ?? send();
      },
    });
  }

  /**
   * Queries sent and not yet answered. Tests on a ManualClock wait for 0 before moving the clock:
   * the file store answers at once, the database in real time.
   */
  queriesInFlight(): number {
    return this.inFlight;
  }

  static async open(opts: PgStoreOptions): Promise<PgStore> {
    const keying = deriveKey(opts.secret);
    keying.catch(() => undefined); // awaited below
    const sql = postgres(opts.url, {
      max: opts.max ?? 10,
      onnotice: () => undefined,
      // No array columns; and the driver's type query on a new connection rejects unhandled when it fails
      // (a database going away), which would end the process.
      fetch_types: false,
      // A money action waits for its write: an unreachable database must fail it soon, not in 30 s.
      connect_timeout: 10,
      connection: startupParams("ppob-bot"),
    });
    try {
      await migrate(sql);
      const key = await keying;
      const mine = keyCheck(key);
      // The first process to open a new database makes its secret the store's.
      await sql`INSERT INTO store_info (name, value) VALUES (${KEY_CHECK}, ${mine}) ON CONFLICT (name) DO NOTHING`;
      const [row] = await sql<{ value: string }[]>`SELECT value FROM store_info WHERE name = ${KEY_CHECK}`;
      await moveLegacyFlows(sql);
      const store = new PgStore(sql, new KeyRing(key, row!.value), opts.clock ?? systemClock, opts);
      await store.txs.recountOpen();
      return store;
    } catch (err) {
      await sql.end({ timeout: 1 }).catch(() => undefined);
      throw err;
    }
  }

  // ---- life cycle -------------------------------------------------------------------------------

  /** Each change is committed before its call resolves: nothing is pending. */
  flush(): Promise<void> {
    return Promise.resolve();
  }

  flushTx(): Promise<void> {
    return Promise.resolve();
  }

  flushDoc(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.reach.close();
    await endSessions(this.sql, () => this.inFlight);
  }

  canPersist(): boolean {
    return this.reach.up;
  }

  /**
   * openTxs is this process's count, which its own writes keep exact; each call also recounts in the
   * background, so another process's changes show by the next call (a standby's /healthz).
   */
  stats(): StoreStats {
    void this.txs.recountOpen();
    return { kind: "postgres", openTxs: this.txs.openCount(), dirty: 0 };
  }


  /** Runs one change, timing it for onWrite; a failure of the database (not of the data) makes canPersist false. */
  private async write<T>(name: string, fn: () => Promise<T>): Promise<T> {
    if (this.closed) throw new StoreClosedError();
    const t0 = performance.now();
    try {
      const out = await fn();
      this.opts.onWrite?.(name, true, (performance.now() - t0) / 1000);
      return out;
    } catch (err) {
      if (isPersistenceFailure(err)) {
        this.opts.onWrite?.(name, false, (performance.now() - t0) / 1000);
        this.opts.onError?.(err);
      }
      throw err;
    }
  }

  /** Whether the database answers now; while it cannot be reached this runs every pingEveryMs and clears the failure. */
  ping(): Promise<boolean> {
    return this.reach.probe();
  }

  // ---- the store secret -------------------------------------------------------------------------

  secretMatches(): boolean {
    return this.keys.secretMatches();
  }

  storedKeyCount(): Promise<number> {
    return this.chats.storedKeyCount();
  }

  resetSecret(): Promise<number[]> {
    return this.chats.resetSecret();
  }

  // ---- chats and api keys (pgChats.ts) ----------------------------------------------------------

  getChat(chatId: number, opts: { promptly?: boolean } = {}): Promise<Readonly<ChatRecord> | undefined> {
    return this.chats.getChat(chatId, opts);
  }

  updateChat(chatId: number, patch: ChatPatch): Promise<Readonly<ChatRecord>> {
    return this.chats.updateChat(chatId, patch);
  }

  chatByCallbackToken(token: string): Promise<Readonly<ChatRecord> | undefined> {
    return this.chats.chatByCallbackToken(token);
  }

  linkedChats(): Promise<Readonly<ChatRecord>[]> {
    return this.chats.linkedChats();
  }

  allChats(): Promise<Readonly<ChatRecord>[]> {
    return this.chats.allChats();
  }

  chatCount(): Promise<number> {
    return this.chats.chatCount();
  }

  setApiKey(chatId: number, rawKey: string): Promise<Readonly<ChatRecord>> {
    return this.chats.setApiKey(chatId, rawKey);
  }

  getApiKey(chatId: number): Promise<string | undefined> {
    return this.chats.getApiKey(chatId);
  }

  apiKeyOf(chat: Readonly<ChatRecord>): string | undefined {
    return this.chats.apiKeyOf(chat);
  }

  chatsWithKey(rawKey: string): Promise<Readonly<ChatRecord>[]> {
    return this.chats.chatsWithKey(rawKey);
  }

  clearApiKey(chatId: number): Promise<void> {
    return this.chats.clearApiKey(chatId);
  }

  // ---- transactions (pgTxs.ts) ------------------------------------------------------------------

  createTx(input: NewTx): Promise<Readonly<TxRecord>> {
    return this.txs.createTx(input);
  }

  getTx(refId: string): Promise<Readonly<TxRecord> | undefined> {
    return this.txs.getTx(refId);
  }

  updateTx(refId: string, patch: TxPatch): Promise<Readonly<TxRecord>> {
    return this.txs.updateTx(refId, patch);
  }

  transitionTx(
    refId: string,
    from: readonly TxStatus[],
    patch: TxPatch,
    when?: (current: Readonly<TxRecord>) => boolean,
  ): Promise<Readonly<TxRecord> | undefined> {
    return this.txs.transitionTx(refId, from, patch, when);
  }

  findHotTx(chatId: number, id: string): Promise<Readonly<TxRecord> | undefined> {
    return this.txs.findHotTx(chatId, id);
  }

  findTx(chatId: number, id: string): Promise<Readonly<TxRecord> | undefined> {
    return this.txs.findTx(chatId, id);
  }

  listTxByChat(chatId: number, page: { offset?: number; limit?: number } = {}): Promise<{ items: Readonly<TxRecord>[]; total: number }> {
    return this.txs.listTxByChat(chatId, page);
  }

  txsOfMonth(chatId: number, month: string): Promise<Readonly<TxRecord>[]> {
    return this.txs.txsOfMonth(chatId, month);
  }

  txMonths(chatId: number): Promise<string[]> {
    return this.txs.txMonths(chatId);
  }

  openTxs(): Promise<Readonly<TxRecord>[]> {
    return this.txs.openTxs();
  }

  // ---- flows ------------------------------------------------------------------------------------

  async getFlow(chatId: number): Promise<SavedFlow> {
    const [row] = await this.sql<{ version: string; state: FlowState | null }[]>`
      SELECT version::text AS version, state FROM flows WHERE chat_id = ${chatId}`;
    return { state: row?.state ? deepFreeze(row.state) : undefined, version: row ? Number(row.version) : 0 };
  }

  async setFlow(chatId: number, state: FlowState | undefined, expectedVersion: number): Promise<boolean> {
    if (this.closed) throw new StoreClosedError();
    const json = state === undefined ? null : JSON.stringify(storedFlow(chatId, state));
    const done = await this.write("flows", () =>
      expectedVersion === 0
        ? this.sql`INSERT INTO flows (chat_id, version, state) VALUES (${chatId}, 1, ${json}::text::json) ON CONFLICT (chat_id) DO NOTHING`
        : this.sql`UPDATE flows SET version = version + 1, state = ${json}::text::json WHERE chat_id = ${chatId} AND version = ${expectedVersion}`,
    );
    return done.count === 1;
  }

  // ---- documents and logs (pgDocs.ts) -----------------------------------------------------------

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

  // ---- wallets (pgWallets.ts) --------------------------------------------------------------------

  wallet(chat: number): Promise<WalletBalance> {
    return this.wallets.wallet(chat);
  }

  walletsOf(owner: number): Promise<WalletBalance[]> {
    return this.wallets.walletsOf(owner);
  }

  postEntries(entries: readonly NewWalletEntry[]): Promise<PostedEntries> {
    return this.wallets.postEntries(entries);
  }

  walletEntries(chat: number, page?: LogPage): Promise<WalletEntry[]> {
    return this.wallets.walletEntries(chat, page);
  }

  walletEntry(ref: string): Promise<WalletEntry | undefined> {
    return this.wallets.walletEntry(ref);
  }

  unsettledTxs(): Promise<Readonly<TxRecord>[]> {
    return this.txs.unsettledTxs();
  }

  // ---- meta -------------------------------------------------------------------------------------

  async getMeta<T>(key: string): Promise<Readonly<T> | undefined> {
    const [row] = await this.sql<{ value: T }[]>`SELECT value FROM meta WHERE key = ${key}`;
    return row && deepFreeze(row.value);
  }

  async setMeta(key: string, value: unknown): Promise<void> {
    if (this.closed) throw new StoreClosedError();
    if (value === undefined) {
      await this.write("meta", () => this.sql`DELETE FROM meta WHERE key = ${key}`);
      return;
    }
    const json = JSON.stringify(frozenCopy(value, `meta.${key}`));
    await this.write(
      "meta",
      () => this.sql`INSERT INTO meta (key, value) VALUES (${key}, ${json}::text::json) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    );
  }
}

/** Older versions kept flows in meta (`conv:<chatId>`): they move to the flows table (a flow already there wins). */
async function moveLegacyFlows(sql: Sql): Promise<void> {
  await sql`
    WITH moved AS (DELETE FROM meta WHERE key ~ '^conv:-?[0-9]+$' RETURNING key, value)
    INSERT INTO flows (chat_id, version, state) SELECT substring(key FROM 6)::bigint, 1, value FROM moved
    ON CONFLICT (chat_id) DO NOTHING`;
}
