/**
 * The store in PostgreSQL (STORE_URL=postgres://...), for one or more bot processes on one database:
 * reading, writing and the queries; the records, checks, encryption and compare-and-set rules are
 * core.ts's, the same as the file store's (file/).
 *
 * Every change is committed before its call resolves, so `flush()` has nothing to wait for. Changes
 * are compare-and-set on a row version: read (data, version), compute and validate the new record in
 * JavaScript, `UPDATE ... WHERE version = $read`; no row means another call or process changed it
 * first, so read again and re-check. `transitionTx` thus has exactly one winner across processes.
 *
 * Records are validated on every write and on every read (core.ts storedTx): another process, an
 * older version or an operator may have written the row. Records handed out are frozen.
 *
 * This file is over 350 lines because it is every query of the Store interface (api.ts) over one
 * connection pool and its health; the rules are in core.ts, the schema, row mapping and import beside it.
 */
import postgres, { type Sql } from "postgres";
import { systemClock, type Clock } from "../../tools/clock.js";
import type { ChatPatch, Doc, DocChange, DocExpect, DocKind, DocQuery, FlowState, LogEntry, LogPage, NewDoc, NewTx, SavedFlow, Store, StoreStats, TxPatch } from "../api.js";
import { buildChat, buildNewTx, CLEARED_KEY_PATCH, HOT_FOR_MS, KeyRing, LOST_KEY_PATCH, patchTx, storedChat, storedFlow, storedTx, transitionAllowed } from "../core.js";
import { deriveKey, keyCheck } from "../crypto.js";
import { DatabaseUnreachableError, DuplicateDocError, DuplicateTxError, StoreClosedError, StoreCorruptError, UnknownTxError } from "../errors.js";
import { deepFreeze, frozenCopy } from "../frozen.js";
import { OPEN_STATUSES, type ChatRecord, type TxRecord, type TxStatus } from "../types.js";
import { migrate, OPEN_STATUS_SQL } from "./migrations.js";
import { PgDocs } from "./pgDocs.js";
import { Reachability } from "./reachability.js";
import { startupParams } from "./startup.js";
import { endSessions } from "./sessions.js";
import { chatRow, txRow } from "./rows.js";

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

const KEY_CHECK = "keyCheck";

type Versioned<T> = { data: T; version: string };

export class PgStore implements Store {
  private closed = false;
  private readonly reach: Reachability;
  /** Open transactions: counted at open, kept in step with this process's writes, recounted at each stats(). */
  private openCount = 0;
  /** Transaction writes started, and those not finished: a recount that overlapped one is dropped. */
  private txWritesStarted = 0;
  private txWritesRunning = 0;
  private recounting = false;

  private readonly sql: Sql;
  private inFlight = 0;
  private readonly docs: PgDocs;

  private constructor(
    sql: Sql,
    private readonly keys: KeyRing,
    private readonly clock: Clock,
    private readonly opts: PgStoreOptions,
  ) {
    this.reach = new Reachability({ clock, probe: () => sql`SELECT 1`, probeEveryMs: opts.pingEveryMs ?? 5000 });
    this.sql = this.watchQueries(sql);
    this.docs = new PgDocs({ sql: this.sql, fragments: sql, clock, write: (table, fn) => this.write(table, fn) });
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
      await store.recountOpen();
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
    void this.recountOpen();
    return { kind: "postgres", openTxs: this.openCount, dirty: 0 };
  }

  private async recountOpen(): Promise<void> {
    if (this.recounting || this.closed) return;
    this.recounting = true;
    const started = this.txWritesStarted;
    try {
      const [row] = await this.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM txs WHERE status IN ('sending', 'unknown', 'pending', 'processing')`;
      if (started === this.txWritesStarted && this.txWritesRunning === 0) this.openCount = row!.n;
    } catch {
      // canPersist already tells (watchQueries); the count stays as it was.
    } finally {
      this.recounting = false;
    }
  }

  /** Runs a transaction write, keeping openCount in step with what it changed. */
  private async txWrite(fn: () => Promise<{ before: TxRecord | undefined; after: TxRecord | undefined }>): Promise<TxRecord | undefined> {
    this.txWritesStarted++;
    this.txWritesRunning++;
    try {
      const { before, after } = await fn();
      if (after) this.openCount += Number(OPEN_STATUSES.has(after.status)) - Number(before !== undefined && OPEN_STATUSES.has(before.status));
      return after;
    } finally {
      this.txWritesRunning--;
    }
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

  async storedKeyCount(): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM chats WHERE has_key`;
    return row!.n;
  }

  async resetSecret(): Promise<number[]> {
    const lost: number[] = [];
    const rows = await this.sql<{ data: ChatRecord }[]>`SELECT data FROM chats WHERE has_key ORDER BY chat_id`;
    for (const chat of rows.map((r) => storedChat(`table chats, ${r.data.chatId}`, r.data))) {
      if (!this.keys.lost(chat)) continue;
      await this.putChat(chat.chatId, () => LOST_KEY_PATCH);
      lost.push(chat.chatId);
    }
    const mine = this.keys.ownCheck();
    await this.write("store_info", () => this.sql`UPDATE store_info SET value = ${mine} WHERE name = ${KEY_CHECK}`);
    this.keys.adoptOwnCheck();
    return lost;
  }

  // ---- chats ------------------------------------------------------------------------------------

  async getChat(chatId: number, opts: { promptly?: boolean } = {}): Promise<Readonly<ChatRecord> | undefined> {
    const read = this.readChat(chatId);
    return (await (opts.promptly ? this.reach.promptly(read) : read))?.data;
  }

  updateChat(chatId: number, patch: ChatPatch): Promise<Readonly<ChatRecord>> {
    return this.putChat(chatId, () => patch);
  }

  async chatByCallbackToken(token: string): Promise<Readonly<ChatRecord> | undefined> {
    const [row] = await this.sql<{ data: ChatRecord }[]>`SELECT data FROM chats WHERE callback_token = ${token}`;
    return row && storedChat(`table chats, ${row.data.chatId}`, row.data);
  }

  async linkedChats(): Promise<Readonly<ChatRecord>[]> {
    const rows = await this.sql<{ data: ChatRecord }[]>`SELECT data FROM chats WHERE linked ORDER BY chat_id`;
    return rows.map((r) => storedChat(`table chats, ${r.data.chatId}`, r.data));
  }

  async allChats(): Promise<Readonly<ChatRecord>[]> {
    const rows = await this.sql<{ data: ChatRecord }[]>`SELECT data FROM chats ORDER BY chat_id`;
    return rows.map((r) => storedChat(`table chats, ${r.data.chatId}`, r.data));
  }

  async chatCount(): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM chats`;
    return row!.n;
  }

  private async readChat(chatId: number): Promise<Versioned<ChatRecord> | undefined> {
    const [row] = await this.sql<{ data: ChatRecord; version: string }[]>`
      SELECT data, version::text AS version FROM chats WHERE chat_id = ${chatId}`;
    return row && { data: storedChat(`table chats, ${chatId}`, row.data), version: row.version };
  }

  /**
   * Creates or changes a chat, compare-and-set on its version. `patchOf` sees the current record
   * (undefined: new) and may throw to refuse; it runs again if another writer got there first.
   */
  private async putChat(chatId: number, patchOf: (old: ChatRecord | undefined) => Partial<ChatRecord>): Promise<ChatRecord> {
    return this.write("chats", async () => {
      for (;;) {
        const old = await this.readChat(chatId);
        const rec = buildChat(chatId, old?.data, patchOf(old?.data), this.clock.now());
        const r = chatRow(rec);
        const data = JSON.stringify(rec);
        const done = old
          ? await this.sql`
              UPDATE chats SET callback_token = ${r.callback_token}, linked = ${r.linked}, has_key = ${r.has_key},
                updated_at = ${r.updated_at}, data = ${data}::text::json, version = version + 1
              WHERE chat_id = ${chatId} AND version = ${old.version}`
          : await this.sql`
              INSERT INTO chats (chat_id, callback_token, linked, has_key, updated_at, data)
              VALUES (${chatId}, ${r.callback_token}, ${r.linked}, ${r.has_key}, ${r.updated_at}, ${data}::text::json)
              ON CONFLICT (chat_id) DO NOTHING`;
        if (done.count === 1) return rec;
      }
    });
  }

  // ---- api keys ---------------------------------------------------------------------------------

  async setApiKey(chatId: number, rawKey: string): Promise<Readonly<ChatRecord>> {
    if (this.closed) throw new StoreClosedError();
    const patch = this.keys.seal(chatId, rawKey, this.clock.now());
    return this.putChat(chatId, () => patch);
  }

  async getApiKey(chatId: number): Promise<string | undefined> {
    return this.keys.open(await this.getChat(chatId));
  }

  apiKeyOf(chat: Readonly<ChatRecord>): string | undefined {
    return this.keys.open(chat);
  }

  async clearApiKey(chatId: number): Promise<void> {
    if (this.closed) throw new StoreClosedError();
    this.keys.forget(chatId);
    if ((await this.getChat(chatId))?.apiKeyEnc === undefined) return;
    await this.putChat(chatId, () => CLEARED_KEY_PATCH);
  }

  // ---- transactions -----------------------------------------------------------------------------

  async createTx(input: NewTx): Promise<Readonly<TxRecord>> {
    if (this.closed) throw new StoreClosedError();
    const rec = buildNewTx(input, this.clock.now());
    const r = txRow(rec);
    await this.txWrite(async () => {
      const done = await this.write(
        "txs",
        () => this.sql`
          INSERT INTO txs (ref_id, chat_id, status, upstream_id, created_at, updated_at, month, data)
          VALUES (${r.ref_id}, ${r.chat_id}, ${r.status}, ${r.upstream_id}, ${r.created_at}, ${r.updated_at}, ${r.month},
            ${JSON.stringify(rec)}::text::json)
          ON CONFLICT (ref_id) DO NOTHING`,
      );
      if (done.count === 0) throw new DuplicateTxError(rec.refId);
      return { before: undefined, after: rec };
    });
    return rec;
  }

  async getTx(refId: string): Promise<Readonly<TxRecord> | undefined> {
    return (await this.readTx(refId))?.data;
  }

  async updateTx(refId: string, patch: TxPatch): Promise<Readonly<TxRecord>> {
    const rec = await this.changeTx(refId, () => patch);
    if (!rec) throw new UnknownTxError(refId);
    return rec;
  }

  transitionTx(
    refId: string,
    from: readonly TxStatus[],
    patch: TxPatch,
    when?: (current: Readonly<TxRecord>) => boolean,
  ): Promise<Readonly<TxRecord> | undefined> {
    // Asked on every read of the version loop: a lost race re-checks the guard on the newer record.
    return this.changeTx(refId, (old) => (transitionAllowed(old, from, when) ? patch : undefined));
  }

  /**
   * Compare-and-set on the row version. `patchOf` decides on the current record (undefined: no
   * change); a lost race reads again and asks again. Undefined when the refId is unknown or refused.
   */
  private changeTx(refId: string, patchOf: (old: TxRecord) => TxPatch | undefined): Promise<TxRecord | undefined> {
    return this.txWrite(() => this.write("txs", async () => {
      for (;;) {
        const old = await this.readTx(refId);
        if (!old) return { before: undefined, after: undefined };
        const patch = patchOf(old.data);
        if (!patch) return { before: old.data, after: undefined };
        const rec = patchTx(old.data, patch, this.clock.now());
        const r = txRow(rec);
        const done = await this.sql`
          UPDATE txs SET status = ${r.status}, upstream_id = ${r.upstream_id}, updated_at = ${r.updated_at},
            data = ${JSON.stringify(rec)}::text::json, version = version + 1
          WHERE ref_id = ${refId} AND version = ${old.version}`;
        if (done.count === 1) return { before: old.data, after: rec };
      }
    }));
  }

  private async readTx(refId: string): Promise<Versioned<TxRecord> | undefined> {
    const [row] = await this.sql<{ data: TxRecord; version: string }[]>`
      SELECT data, version::text AS version FROM txs WHERE ref_id = ${refId}`;
    return row && { data: storedTx(`table txs, ${refId}`, row.data), version: row.version };
  }

  /** Open ones and final ones changed within HOT_FOR_MS (core.ts isHot), as the file store keeps in memory. */
  findHotTx(chatId: number, id: string): Promise<Readonly<TxRecord> | undefined> {
    return this.lookupTx(chatId, id, this.clock.now() - HOT_FOR_MS);
  }

  /** Our refId first, then the provider's id, within the chat only. */
  findTx(chatId: number, id: string): Promise<Readonly<TxRecord> | undefined> {
    return this.lookupTx(chatId, id, Number.MIN_SAFE_INTEGER);
  }

  /** findTx among the open records and those changed since `since`. */
  private async lookupTx(chatId: number, id: string, since: number): Promise<Readonly<TxRecord> | undefined> {
    const rows = await this.sql<{ data: TxRecord }[]>`
      (SELECT data, 0 AS rank, created_at FROM txs WHERE ref_id = ${id} AND chat_id = ${chatId}
        AND (updated_at >= ${since} OR status IN ('sending', 'unknown', 'pending', 'processing')))
      UNION ALL
      (SELECT data, 1 AS rank, created_at FROM txs WHERE chat_id = ${chatId} AND upstream_id = ${id}
        AND (updated_at >= ${since} OR status IN ('sending', 'unknown', 'pending', 'processing'))
        ORDER BY created_at DESC LIMIT 1)
      ORDER BY rank LIMIT 1`;
    return rows[0] && storedTx(`table txs, ${rows[0].data.refId}`, rows[0].data);
  }

  async listTxByChat(chatId: number, page: { offset?: number; limit?: number } = {}): Promise<{ items: Readonly<TxRecord>[]; total: number }> {
    const offset = Math.max(0, Math.floor(page.offset ?? 0));
    const limit = Math.max(0, Math.floor(page.limit ?? 10));
    const [rows, [count]] = await Promise.all([
      this.sql<{ data: TxRecord }[]>`
        SELECT data FROM txs WHERE chat_id = ${chatId} ORDER BY created_at DESC, ref_id DESC OFFSET ${offset} LIMIT ${limit}`,
      this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM txs WHERE chat_id = ${chatId}`,
    ]);
    return { items: rows.map((r) => storedTx(`table txs, ${r.data.refId}`, r.data)), total: count!.n };
  }

  async txsOfMonth(chatId: number, month: string): Promise<Readonly<TxRecord>[]> {
    const rows = await this.sql<{ data: TxRecord }[]>`
      SELECT data FROM txs WHERE chat_id = ${chatId} AND month = ${month} ORDER BY created_at, ref_id`;
    return rows.map((r) => storedTx(`table txs, ${r.data.refId}`, r.data));
  }

  /** Distinct months by skipping through the (chat_id, month) index: a few lookups per month, not a scan of the chat's rows. */
  async txMonths(chatId: number): Promise<string[]> {
    const rows = await this.sql<{ month: string }[]>`
      WITH RECURSIVE m AS (
        SELECT max(month) AS month FROM txs WHERE chat_id = ${chatId}
        UNION ALL
        SELECT (SELECT max(month) FROM txs WHERE chat_id = ${chatId} AND month < m.month) FROM m WHERE m.month IS NOT NULL
      )
      SELECT month FROM m WHERE month IS NOT NULL`;
    return rows.map((r) => r.month);
  }

  async openTxs(): Promise<Readonly<TxRecord>[]> {
    // The literal list matches the partial index txs_open, so the planner uses it.
    const rows = await this.sql<{ data: TxRecord }[]>`
      SELECT data FROM txs WHERE status IN ('sending', 'unknown', 'pending', 'processing') ORDER BY created_at, ref_id`;
    return rows.map((r) => storedTx(`table txs, ${r.data.refId}`, r.data));
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
