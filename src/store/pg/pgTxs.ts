/**
 * PgStore's transactions (api.ts createTx... openTxs) in the table `txs`: compare-and-set on the row
 * version (changeTx), lookups by refId or provider id, the history pages and months, and the count
 * of open transactions stats() reports, kept in step with this process's writes.
 */
import type { Sql, TransactionSql } from "postgres";
import type { Clock } from "../../tools/clock.js";
import type { NewTx, TxPatch } from "../api.js";
import { buildNewTx, HOT_FOR_MS, patchTx, storedTx, transitionAllowed } from "../rules.js";
import { DuplicateTxError, UnknownTxError, WalletShortError } from "../errors.js";
import { heldChange } from "../walletRules.js";
import type { PgWallets } from "./pgWallets.js";
import { moveHeld } from "./pgWallets.js";
import { beginGuarded } from "./transaction.js";
import { OPEN_STATUSES, type TxRecord, type TxStatus } from "../records.js";
import { txRow } from "./rows.js";

/** What the transactions need of the PgStore they live in. */
export interface PgTxsHost {
  /** Queries (watched for reachability). */
  sql: Sql;
  clock: Clock;
  /** Runs one change (timed; refused once closed). */
  write<T>(table: string, fn: () => Promise<T>): Promise<T>;
  /** Throws StoreClosedError once the store is closed. */
  assertOpen(): void;
  closed(): boolean;
}

type Versioned<T> = { data: T; version: string };

export class PgTxs {
  /** Open transactions: counted at open, kept in step with this process's writes, recounted at each stats(). */
  private open = 0;
  /** Transaction writes started, and those not finished: a recount that overlapped one is dropped. */
  private txWritesStarted = 0;
  private txWritesRunning = 0;
  private recounting = false;

  constructor(
    private readonly host: PgTxsHost,
    private readonly wallets: PgWallets,
  ) {}

  /** This process's count of open transactions (exact for its own writes). */
  openCount(): number {
    return this.open;
  }

  /** Counts the open transactions again, unless one of this process's writes overlapped the count. */
  async recountOpen(): Promise<void> {
    if (this.recounting || this.host.closed()) return;
    this.recounting = true;
    const started = this.txWritesStarted;
    try {
      const [row] = await this.host.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM txs WHERE status IN ('sending', 'unknown', 'pending', 'processing')`;
      if (started === this.txWritesStarted && this.txWritesRunning === 0) this.open = row!.n;
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
      if (after) this.open += Number(OPEN_STATUSES.has(after.status)) - Number(before !== undefined && OPEN_STATUSES.has(before.status));
      return after;
    } finally {
      this.txWritesRunning--;
    }
  }

  async createTx(input: NewTx): Promise<Readonly<TxRecord>> {
    this.host.assertOpen();
    const rec = buildNewTx(input, this.host.clock.now());
    const r = txRow(rec);
    const insert = (sql: Sql | TransactionSql) => sql`
      INSERT INTO txs (ref_id, chat_id, status, upstream_id, created_at, updated_at, month, wallet_unsettled, data)
      VALUES (${r.ref_id}, ${r.chat_id}, ${r.status}, ${r.upstream_id}, ${r.created_at}, ${r.updated_at}, ${r.month}, ${r.wallet_unsettled},
        ${JSON.stringify(rec)}::text::json)
      ON CONFLICT (ref_id) DO NOTHING`;
    const more = heldChange(undefined, rec);
    await this.txWrite(async () => {
      const done = await this.host.write("txs", () =>
        more === 0
          ? insert(this.host.sql)
          : // Created already holding (a payout request): the wallet's row locked in the same SQL transaction.
            beginGuarded(this.host.sql, async (tx) => {
              if (!(await moveHeld(tx, rec.wallet!.chat, more))) {
                const w = await this.wallets.wallet(rec.wallet!.chat);
                throw new WalletShortError(w.chat, w.balance - w.held, more);
              }
              const inserted = await insert(tx);
              if (inserted.count === 0) throw new DuplicateTxError(rec.refId);
              return inserted;
            }),
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
    const rec = await this.changeTx(refId, () => patch, "throw");
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
    return this.changeTx(refId, (old) => (transitionAllowed(old, from, when) ? patch : undefined), "refuse");
  }

  /**
   * Compare-and-set on the row version. `patchOf` decides on the current record (undefined: no
   * change); a lost race reads again and asks again. Undefined when the refId is unknown or refused.
   */
  private changeTx(refId: string, patchOf: (old: TxRecord) => TxPatch | undefined, onShort: "refuse" | "throw"): Promise<TxRecord | undefined> {
    return this.txWrite(() => this.host.write("txs", async () => {
      for (;;) {
        const old = await this.readTx(refId);
        if (!old) return { before: undefined, after: undefined };
        const patch = patchOf(old.data);
        if (!patch) return { before: old.data, after: undefined };
        const rec = patchTx(old.data, patch, this.host.clock.now());
        const more = heldChange(old.data, rec);
        const r = txRow(rec);
        if (more === 0) {
          const done = await this.host.sql`
            UPDATE txs SET status = ${r.status}, upstream_id = ${r.upstream_id}, updated_at = ${r.updated_at}, wallet_unsettled = ${r.wallet_unsettled},
              data = ${JSON.stringify(rec)}::text::json, version = version + 1
            WHERE ref_id = ${refId} AND version = ${old.version}`;
          if (done.count === 1) return { before: old.data, after: rec };
          continue;
        }
        // One statement, as few round trips as an owner's claim (docs/wallets.md rule 1): t reads w before
        // it locks the record's row, so the wallet's row is always locked first (no deadlock with another
        // wallet write); available is checked on the locked row; the record and held change together or not at all.
        const chat = rec.wallet!.chat;
        const [row] = await this.host.sql<{ done: boolean; available: number | null }[]>`
          WITH w AS (
            SELECT balance - held AS available FROM wallets WHERE chat = ${chat} FOR UPDATE
          ), t AS (
            UPDATE txs SET status = ${r.status}, upstream_id = ${r.upstream_id}, updated_at = ${r.updated_at}, wallet_unsettled = ${r.wallet_unsettled},
              data = ${JSON.stringify(rec)}::text::json, version = version + 1
            WHERE ref_id = ${refId} AND version = ${old.version}
              AND (SELECT ${more}::bigint <= 0 OR coalesce(bool_or(available >= ${more}::bigint), false) FROM w)
            RETURNING 1
          ), h AS (
            UPDATE wallets SET held = held + ${more}::bigint WHERE chat = ${chat} AND EXISTS (SELECT 1 FROM t)
          )
          SELECT EXISTS (SELECT 1 FROM t) AS done, (SELECT available FROM w)::float8 AS available`;
        if (row!.done) return { before: old.data, after: rec };
        const available = row!.available ?? 0;
        if (more > 0 && available < more) {
          if (onShort === "refuse") return { before: old.data, after: undefined };
          throw new WalletShortError(chat, available, more);
        }
        // Lost the race for the record: read again.
      }
    }));
  }

  /** Records the wallets still owe entries (a partial index, migration 6, holds only those). */
  async unsettledTxs(): Promise<Readonly<TxRecord>[]> {
    const rows = await this.host.sql<{ data: unknown; ref_id: string }[]>`
      SELECT ref_id, data FROM txs WHERE wallet_unsettled`;
    return rows.map((r) => storedTx(`table txs, ${r.ref_id}`, r.data));
  }

  private async readTx(refId: string): Promise<Versioned<TxRecord> | undefined> {
    const [row] = await this.host.sql<{ data: TxRecord; version: string }[]>`
      SELECT data, version::text AS version FROM txs WHERE ref_id = ${refId}`;
    return row && { data: storedTx(`table txs, ${refId}`, row.data), version: row.version };
  }

  /** Open ones and final ones changed within HOT_FOR_MS (rules.ts isHot), as the file store keeps in memory. */
  findHotTx(chatId: number, id: string): Promise<Readonly<TxRecord> | undefined> {
    return this.lookupTx(chatId, id, this.host.clock.now() - HOT_FOR_MS);
  }

  /** Our refId first, then the provider's id, within the chat only. */
  findTx(chatId: number, id: string): Promise<Readonly<TxRecord> | undefined> {
    return this.lookupTx(chatId, id, Number.MIN_SAFE_INTEGER);
  }

  /** findTx among the open records and those changed since `since`. */
  private async lookupTx(chatId: number, id: string, since: number): Promise<Readonly<TxRecord> | undefined> {
    const rows = await this.host.sql<{ data: TxRecord }[]>`
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
      this.host.sql<{ data: TxRecord }[]>`
        SELECT data FROM txs WHERE chat_id = ${chatId} ORDER BY created_at DESC, ref_id DESC OFFSET ${offset} LIMIT ${limit}`,
      this.host.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM txs WHERE chat_id = ${chatId}`,
    ]);
    return { items: rows.map((r) => storedTx(`table txs, ${r.data.refId}`, r.data)), total: count!.n };
  }

  async txsOfMonth(chatId: number, month: string): Promise<Readonly<TxRecord>[]> {
    const rows = await this.host.sql<{ data: TxRecord }[]>`
      SELECT data FROM txs WHERE chat_id = ${chatId} AND month = ${month} ORDER BY created_at, ref_id`;
    return rows.map((r) => storedTx(`table txs, ${r.data.refId}`, r.data));
  }

  /** Distinct months by skipping through the (chat_id, month) index: a few lookups per month, not a scan of the chat's rows. */
  async txMonths(chatId: number): Promise<string[]> {
    const rows = await this.host.sql<{ month: string }[]>`
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
    const rows = await this.host.sql<{ data: TxRecord }[]>`
      SELECT data FROM txs WHERE status IN ('sending', 'unknown', 'pending', 'processing') ORDER BY created_at, ref_id`;
    return rows.map((r) => storedTx(`table txs, ${r.data.refId}`, r.data));
  }
}
