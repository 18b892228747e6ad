/**
 * A transaction whose connection the database closes while our code inside it still runs (a fenced
 * write waiting on the store, the database stopped or the session killed). postgres.js (3.4.9) then
 * sends its COMMIT or ROLLBACK on the dead connection, which throws a TypeError from a timer
 * (`socket.write` on null, nextWrite): uncaught, it would end the process. The caller must get a
 * rejection it can handle, and nothing may escape.
 */
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { silentLogger } from "../../src/logging/logger.js";
import { PgShared } from "../../src/cluster/pgShared.js";
import { beginGuarded } from "../../src/store/pg/transaction.js";
import { freshDatabase, hasPg } from "../support/pg.js";
import { until } from "../support/settle.js";

const opened: { end(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.end();
});

/** Uncaught exceptions while `fn` runs, and for a few turns of the event loop after. */
async function escaped(fn: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const onUncaught = (err: unknown) => void seen.push(err);
  process.on("uncaughtException", onUncaught);
  process.on("unhandledRejection", onUncaught);
  try {
    await fn();
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  } finally {
    process.off("uncaughtException", onUncaught);
    process.off("unhandledRejection", onUncaught);
  }
  return seen;
}

describe.skipIf(!hasPg)("a transaction whose connection dies while it runs", () => {
  it.each(["resolves", "rejects"] as const)("a fenced write that %s after its session was killed: the caller's promise rejects, nothing is thrown uncaught", async (ending) => {
    const url = await freshDatabase();
    const clock = new ManualClock();
    const shared = await PgShared.open(url, { clock, logger: silentLogger, leaseRetryMs: 5_000, checkMs: 3_000 });
    opened.push({ end: () => shared.close() });
    const admin = postgres(url, { max: 1, onnotice: () => undefined });
    opened.push({ end: () => admin.end() });
    shared.leadership().run(async () => {}, async () => {});
    await until(() => shared.leadership().isLeader(), { what: "leads", realMs: 10, tries: 500 });
    const term = shared.fence().term()!;

    const seen = await escaped(async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let inside = false;
      const fenced = shared.fence().fenced(term, async () => {
        inside = true;
        await held;
        if (ending === "rejects") throw new Error("the write failed");
      });
      const settled = fenced.then(() => "resolved", (err: unknown) => err);
      await until(() => inside, { what: "inside the fenced write", realMs: 5, tries: 1000 });
      const killed = await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND state = 'idle in transaction'`;
      expect(killed).toHaveLength(1);
      // The write goes on after the connection closed (it runs on the store's own pool).
      await until(async () => (await Promise.race([settled, Promise.resolve("pending")])) !== "pending", { what: "fenced() settled", realMs: 5, tries: 1000 });
      release();
      expect(await settled).toBeInstanceOf(Error);
    });
    expect(seen).toEqual([]);
    // The lead's other connections still work: a new fenced write commits.
    await until(async () => (await shared.fence().fenced(term, async () => {}).catch(() => false)) === true, { what: "a fenced write commits again", realMs: 10, tries: 300 });
  });

  it("a query of the transaction cut by the kill: the transaction rejects, nothing is thrown uncaught, the pool goes on", async () => {
    const url = await freshDatabase();
    const sql = postgres(url, { max: 2, onnotice: () => undefined, fetch_types: false });
    opened.push({ end: () => sql.end({ timeout: 1 }) });
    const admin = postgres(url, { max: 1, onnotice: () => undefined });
    opened.push({ end: () => admin.end() });
    const seen = await escaped(async () => {
      const run = beginGuarded(sql, async (tx) => {
        await tx`SELECT pg_sleep(30)`;
        return "committed";
      }).catch((err: unknown) => err);
      await until(async () => (await admin`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%pg_sleep%' AND pid <> pg_backend_pid()`).length === 1, { what: "the sleep runs", realMs: 10, tries: 500 });
      await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%pg_sleep%' AND pid <> pg_backend_pid()`;
      expect(await run).toBeInstanceOf(Error);
    });
    expect(seen).toEqual([]);
    expect(await beginGuarded(sql, async (tx) => (await tx<{ n: number }[]>`SELECT 1 AS n`)[0]!.n)).toBe(1);
  });
});
