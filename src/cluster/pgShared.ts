/**
 * Shared over PostgreSQL, for two (or more) bot processes on one database. The lead and its term are
 * pgLeadership.ts.
 *
 * Hints: LISTEN/NOTIFY. Updates once: a row per update_id. Rate limit: one counter row per key. Both
 * of these run before every update is answered: they fail within a second when the database stopped
 * answering, and at once while it is known to be unreachable (the bot then handles the update here
 * and lets it through the limit).
 * Own `postgres` pools, independent of the store; its tables are the store's migration 2 (migrations.ts),
 * applied by whichever opens first, and `lead_term` (pgLeadership.ts), made at open.
 */
import { randomBytes, randomUUID } from "node:crypto";
import postgres, { type Sql } from "postgres";
import type { HintKind, LeadFence, Leadership, Shared } from "./shared.js";
import { countingQueries, endSessions, migrate, Reachability, startupParams } from "../store/index.js";
import { ensureTermTable, PgLeadership, type PgLeadershipOptions } from "./pgLeadership.js";


const CHANNEL = "ppob_hints";
const DAY = 24 * 60 * 60_000;
const HINT_KINDS: ReadonlySet<string> = new Set<HintKind>(["track", "hurry", "chatBack", "broadcast"]);

export type PgSharedOptions = PgLeadershipOptions;

export class PgShared implements Shared {
  /** Tells this process's own notifications apart (NOTIFY reaches the sender's LISTEN too). */
  private readonly instance = randomUUID();
  private readonly handlers = new Map<HintKind, ((id: string) => void)[]>();
  private readonly lead: PgLeadership;
  private readonly reach: Reachability;

  private constructor(
    url: string,
    private readonly sql: Sql,
    private readonly inFlight: () => number,
    private readonly opts: PgSharedOptions,
  ) {
    this.lead = new PgLeadership(url, opts, () => this.prune());
    this.reach = new Reachability({ clock: opts.clock, probe: () => sql`SELECT 1`, probeEveryMs: opts.leaseRetryMs ?? 5_000 });
  }

  /** A query of an update's path: at once refused while the database is unreachable, else cut when it stays silent. */
  private promptly<T>(query: () => Promise<T>): Promise<T> {
    const send = () => this.reach.promptly(query()).then(
      (out) => (this.reach.answered(), out),
      (err: unknown) => {
        if (err instanceof postgres.PostgresError) this.reach.answered();
        else this.reach.lost();
        throw err;
      },
    );
    return this.reach.admit()?.then(send) ?? send();
  }

  static async open(url: string, opts: PgSharedOptions): Promise<PgShared> {
    // connect_timeout: a connection to a database that stopped answering gives up in 5 s rather than
    // the client's 30 s default (the update path does not wait for it: promptly, below).
    const { sql, inFlight } = countingQueries(
      postgres(url, { max: 4, connect_timeout: 5, onnotice: () => undefined, fetch_types: false, connection: startupParams("ppob-bot") }),
    );
    try {
      await migrate(sql);
      await ensureTermTable(sql);
      const shared = new PgShared(url, sql, inFlight, opts);
      await sql.listen(CHANNEL, (payload) => shared.received(payload));
      return shared;
    } catch (err) {
      await sql.end({ timeout: 1 });
      throw err;
    }
  }

  leadership(): Leadership {
    return this.lead;
  }

  fence(): LeadFence {
    return this.lead;
  }

  notify(kind: HintKind, id: string): void {
    this.sql.notify(CHANNEL, JSON.stringify({ from: this.instance, kind, id })).catch((err: unknown) =>
      // A lost hint costs at most one rescan interval of the leader's watcher.
      this.opts.logger.warn({ err, kind, id }, "could not send a hint to the other process"),
    );
  }

  on(kind: HintKind, fn: (id: string) => void): void {
    this.handlers.set(kind, [...(this.handlers.get(kind) ?? []), fn]);
  }

  async claimUpdate(updateId: number): Promise<boolean> {
    const rows = await this.promptly(() => this.sql`
      INSERT INTO handled_updates (update_id, at) VALUES (${updateId}, ${this.opts.clock.now()})
      ON CONFLICT DO NOTHING RETURNING 1`);
    return rows.length === 1;
  }

  async hit(key: string, windowMs: number): Promise<number> {
    const now = this.opts.clock.now();
    const start = now - (now % windowMs);
    const [row] = await this.promptly(() => this.sql<{ n: number }[]>`
      INSERT INTO rate_hits (key, window_start, n) VALUES (${key}, ${start}, 1)
      ON CONFLICT (key) DO UPDATE SET
        n = CASE WHEN rate_hits.window_start = EXCLUDED.window_start THEN rate_hits.n + 1 ELSE 1 END,
        window_start = EXCLUDED.window_start
      RETURNING n`);
    return row!.n;
  }

  async webhookSecret(): Promise<string> {
    const candidate = randomBytes(32).toString("base64url");
    await this.sql`INSERT INTO shared_secrets (name, value) VALUES ('webhook', ${candidate}) ON CONFLICT DO NOTHING`;
    const [row] = await this.sql<{ value: string }[]>`SELECT value FROM shared_secrets WHERE name = 'webhook'`;
    return row!.value;
  }

  async close(): Promise<void> {
    this.reach.close();
    await this.lead.stop();
    await endSessions(this.sql, this.inFlight);
  }

  /** Run by the leader now and then: resends older than a day are not possible, counters are idle. */
  private async prune(): Promise<void> {
    const before = this.opts.clock.now() - DAY;
    await this.sql`DELETE FROM handled_updates WHERE at < ${before}`;
    await this.sql`DELETE FROM rate_hits WHERE window_start < ${before}`;
  }

  private received(payload: string): void {
    let hint: { from?: unknown; kind?: unknown; id?: unknown };
    try {
      hint = JSON.parse(payload) as typeof hint;
    } catch {
      return;
    }
    if (hint.from === this.instance || typeof hint.kind !== "string" || !HINT_KINDS.has(hint.kind) || typeof hint.id !== "string") return;
    for (const fn of this.handlers.get(hint.kind as HintKind) ?? []) {
      try {
        fn(hint.id);
      } catch (err) {
        this.opts.logger.error({ err, kind: hint.kind }, "a hint handler failed");
      }
    }
  }
}
