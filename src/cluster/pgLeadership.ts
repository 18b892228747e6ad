/**
 * The lead over PostgreSQL (cluster/shared.ts Leadership and LeadFence), for PgShared.
 *
 * Leadership: a session-level advisory lock held on a connection of its own. A process tries it
 * every `leaseRetryMs`; the holder checks every `checkMs` that its session still holds it. A failed
 * check or a closed connection means the lead is lost: onLose stops the background work at once.
 * The session sets TCP keepalives (idle 5 s, then 3 probes 5 s apart) so the server drops a holder
 * whose machine vanished without a FIN within ~20 s, freeing the lock: the other process takes over
 * within ~30 s at worst (+ its retry). A killed process (kill -9) closes its socket: freed at once.
 *
 * Term: `lead_term` holds a number that each new leader raises right after it got the lock. A
 * leader-only write runs in `fenced`: a transaction that reads the term FOR SHARE, runs the write and
 * commits, so the raise (which needs the row) waits for the writes fenced under the old term, and every
 * write fenced after it sees the new term and is refused. The old leader learns that its lock is gone
 * only when its client sees the connection close (milliseconds, longer on a busy event loop), and work
 * it had in flight goes on meanwhile: the fence, not that moment, keeps the two leads apart.
 */
import postgres, { type Sql } from "postgres";
import type { Clock, TimerHandle } from "../tools/clock.js";
import type { Logger } from "../logging/logger.js";
import type { LeadFence, LeadLost, Leadership } from "./shared.js";
import { beginGuarded, startupParams } from "../store/index.js";

/** The advisory lock of the lead (differs from migrations.ts MIGRATION_LOCK, which every open takes). */
export const LEADER_LOCK_KEY = 0x7070_6f62; // "ppob"

/**
 * A fenced write's transaction ends when it stays idle this long (the write elsewhere hangs, the
 * process froze): the next leader waits at most this for the old term's writes.
 */
const FENCE_HOLD_MS = 30_000;

/** After a lost lead, how long the database has to answer before it counts as unreachable. */
const PROBE_MS = 1_000;

export interface PgLeadershipOptions {
  clock: Clock;
  logger: Logger;
  /** How often a standby tries to take the lead (default 5 s). */
  leaseRetryMs?: number;
  /** How often the leader checks it still holds the lead (default 3 s). */
  checkMs?: number;
}

/** The term's row, made once by whichever process opens first (beside the store's own tables). */
export async function ensureTermTable(sql: Sql): Promise<void> {
  await beginGuarded(sql, async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${LEADER_LOCK_KEY + 1})`;
    await tx`CREATE TABLE IF NOT EXISTS lead_term (id integer PRIMARY KEY, term bigint NOT NULL)`;
  });
}

export class PgLeadership implements Leadership, LeadFence {
  private leader = false;
  /** The term this process raised when it last took the lead. */
  private heldTerm: number | undefined;
  private stopped = false;
  private timer: TimerHandle | undefined;
  private onLead: () => Promise<void> = async () => {};
  private onLose: (how?: LeadLost) => Promise<void> = async () => {};
  /** The lead was lost while the database did not answer: the updates loop still runs here. */
  private keptUpdates = false;
  private lastPrune = 0;
  private standingBy = false;
  /** Counts leads taken: a start that fails after the lead was lost and taken again is not this one's. */
  private terms = 0;
  private readonly retryMs: number;
  private readonly checkMs: number;
  /**
   * One connection of its own holds the lock (the pool's connections come and go). No lifetime
   * limit (the client's default would close it, and so drop the lead, every 30-60 min). When it
   * closes, the lock is gone with it: the lead is lost at once.
   */
  private readonly sql: Sql;
  /** Fenced writes hold a connection each while they run: a pool of their own, not the lock's one. */
  private readonly fences: Sql;

  constructor(
    url: string,
    private readonly opts: PgLeadershipOptions,
    private readonly prune: () => Promise<void>,
  ) {
    this.retryMs = opts.leaseRetryMs ?? 5_000;
    this.checkMs = opts.checkMs ?? 3_000;
    this.sql = postgres(url, {
      max: 1,
      max_lifetime: null,
      idle_timeout: 0,
      onnotice: () => undefined,
      fetch_types: false,
      connection: startupParams("ppob-bot"),
      onclose: () => void this.lost("the connection that holds the lead closed"),
    });
    this.fences = postgres(url, { max: 16, idle_timeout: 60, connect_timeout: 5, onnotice: () => undefined, fetch_types: false, connection: startupParams("ppob-bot") });
  }

  run(onLead: () => Promise<void>, onLose: (how?: LeadLost) => Promise<void>): void {
    this.onLead = onLead;
    this.onLose = onLose;
    void this.attempt();
  }

  isLeader(): boolean {
    return this.leader;
  }

  term(): number | undefined {
    return this.leader ? this.heldTerm : undefined;
  }

  async fenced(term: number, write: () => Promise<void>): Promise<boolean> {
    return beginGuarded(this.fences, async (tx) => {
      const [row] = await tx<{ term: string }[]>`
        SELECT term, set_config('idle_in_transaction_session_timeout', ${String(FENCE_HOLD_MS)}, true) FROM lead_term WHERE id = 1 FOR SHARE`;
      if (row === undefined || Number(row.term) !== term) return false;
      await write();
      return true;
    });
  }

  /** Begins a new term (waits for the writes fenced under the old one). */
  private async raiseTerm(): Promise<number> {
    const [row] = await this.sql<{ term: string }[]>`
      INSERT INTO lead_term (id, term) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET term = lead_term.term + 1 RETURNING term`;
    return Number(row!.term);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.timer?.cancel();
    // Unlocked at once rather than when the connection ends: the other process need not wait more.
    if (this.leader) await this.sql`SELECT pg_advisory_unlock(${LEADER_LOCK_KEY})`.catch(() => undefined);
    this.leader = false;
    await Promise.all([this.sql.end({ timeout: 2 }), this.fences.end({ timeout: 2 })]);
  }

  private later(ms: number, fn: () => Promise<void>): void {
    if (this.stopped) return;
    this.timer?.cancel();
    this.timer = this.opts.clock.setTimeout(() => void fn(), ms);
  }

  private async attempt(): Promise<void> {
    if (this.stopped || this.leader) return;
    try {
      await this.sql`SELECT set_config('tcp_keepalives_idle', '5', false), set_config('tcp_keepalives_interval', '5', false),
                            set_config('tcp_keepalives_count', '3', false)`;
      const [row] = await this.sql<{ got: boolean }[]>`SELECT pg_try_advisory_lock(${LEADER_LOCK_KEY}) AS got`;
      // The lead counts from its new term on, not from the lock (the old term's fenced writes end first).
      const raised = row?.got && !this.stopped
        ? await this.raiseTerm().catch(async (err: unknown) => {
          await this.sql`SELECT pg_advisory_unlock(${LEADER_LOCK_KEY})`.catch(() => undefined);
          throw err;
        })
        : undefined;
      if (row?.got && this.stopped) await this.sql`SELECT pg_advisory_unlock(${LEADER_LOCK_KEY})`;
      else if (row?.got) {
        this.keptUpdates = false;
        this.heldTerm = raised;
        this.leader = true;
        this.standingBy = false;
        const term = ++this.terms;
        this.opts.logger.info("leading: running background work");
        this.later(this.checkMs, () => this.check());
        const started = await this.onLead().then(
          () => true,
          (err: unknown) => (this.opts.logger.error({ err }, "starting the background work failed; giving the lead up"), false),
        );
        if (started || !this.leader || this.stopped || term !== this.terms) return; // lost meanwhile: lost() stood by
        // A lead running nothing must not keep the lock: stop what did start, let the other process
        // take it, try again at the next retry.
        this.leader = false;
        this.standingBy = true;
        this.timer?.cancel();
        await this.onLose().catch((e: unknown) => this.opts.logger.error({ err: e }, "stopping the background work failed"));
        await this.sql`SELECT pg_advisory_unlock(${LEADER_LOCK_KEY})`.catch(() => undefined);
        this.later(this.retryMs, () => this.attempt());
        return;
      } else {
        if (!this.standingBy) this.opts.logger.info("standing by: another process leads");
        this.standingBy = true;
        if (this.keptUpdates) await this.releaseUpdates();
      }
    } catch (err) {
      this.opts.logger.warn({ err }, "could not try for the lead; trying again");
    }
    this.later(this.retryMs, () => this.attempt());
  }

  /** The lock is held by this very session (a session the client opened again would not hold it). */
  private async check(): Promise<void> {
    if (!this.leader || this.stopped) return;
    let held = false;
    let timedOut = false;
    // A check that hangs (the network is gone) counts as failed after checkMs.
    const limit = this.opts.clock.setTimeout(() => {
      timedOut = true;
      void this.lost("the lead check did not answer");
    }, this.checkMs);
    try {
      const rows = await this.sql`
        SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = ${LEADER_LOCK_KEY}
          AND objsubid = 1 AND pid = pg_backend_pid() AND granted`;
      held = rows.length === 1;
    } catch (err) {
      this.opts.logger.warn({ err }, "the lead check failed");
    } finally {
      limit.cancel();
    }
    if (timedOut || !this.leader || this.stopped) return;
    if (!held) return this.lost("this process no longer holds the lead");
    const now = this.opts.clock.now();
    if (now - this.lastPrune >= 60 * 60_000) {
      this.lastPrune = now;
      await this.prune().catch((err: unknown) => this.opts.logger.warn({ err }, "could not prune handled updates"));
    }
    this.later(this.checkMs, () => this.check());
  }

  /**
   * The background work stops at once; the updates loop only once the database is seen to answer
   * (another process may take the lead then). A database that cannot be reached (stopped, cut off)
   * lets no process lead: the updates loop goes on here, so every update still gets its answer (the
   * storage-unavailable one), until the database answers again.
   */
  private async lost(why: string): Promise<void> {
    if (!this.leader || this.stopped) return;
    this.leader = false;
    this.standingBy = true;
    this.keptUpdates = true;
    this.opts.logger.warn({ why }, "standing by: lost the lead (another process may take over)");
    this.later(this.retryMs, () => this.attempt());
    await this.onLose({ keepUpdates: true }).catch((err: unknown) => this.opts.logger.error({ err }, "stopping the background work failed"));
    if (await this.databaseAnswers()) await this.releaseUpdates();
  }

  /** The updates loop kept through a lost lead stops: another process may lead now. */
  private async releaseUpdates(): Promise<void> {
    if (!this.keptUpdates || this.leader || this.stopped) return;
    this.keptUpdates = false;
    await this.onLose().catch((err: unknown) => this.opts.logger.error({ err }, "stopping the updates loop failed"));
  }

  /** A query answered within PROBE_MS (on the clock), over the fences' pool (the lock's own connection may hang for 30 s). */
  private databaseAnswers(): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const limit = this.opts.clock.setTimeout(() => resolve(false), PROBE_MS);
      this.fences`SELECT 1`.then(
        () => (limit.cancel(), resolve(true)),
        () => (limit.cancel(), resolve(false)),
      );
    });
  }
}
