/**
 * Two whole apps on one PostgreSQL database through PgShared (each with its own file store and
 * fake Bot API here; records in PostgreSQL are PgStore's part): exactly one long-polls and runs the
 * background work; when its lock connection dies, the other takes over. Real connections answer in
 * their own time: conditions are polled with a bounded loop; the lease timers run on the clocks.
 */
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logging/logger.js";
import { LEADER_LOCK_KEY, PgShared } from "../../src/cluster/pgShared.js";
import { freshDatabase, hasPg } from "../support/pg.js";
import { makeWorld, type World } from "../support/world.js";

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closing.splice(0).reverse()) await c();
});

/** Steps both clocks a second at a time, letting real I/O land, until `done()`. */
async function until(worlds: World[], done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300 && !done(); i++) {
    await new Promise((r) => setTimeout(r, 5));
    for (const w of worlds) await w.clock.advance(1_000);
  }
  expect(done(), what).toBe(true);
}

describe.skipIf(!hasPg)("two bot processes on one database", () => {
  it("one polls and leads; its lock connection dies -> it stops polling and the other takes over", async () => {
    const url = await freshDatabase();
    const admin = postgres(url, { max: 1, onnotice: () => undefined });
    closing.push(() => admin.end());
    const app = async () => {
      const w = await makeWorld({ shared: (clock) => PgShared.open(url, { clock, logger: silentLogger }) });
      closing.push(() => w.close());
      return w;
    };
    const a = await app();
    await a.app.start();
    await until([a], () => a.app.shared.leadership().isLeader() && a.fake.callsOf("getUpdates").length > 0, "a leads and polls");
    const b = await app();
    await b.app.start();
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 5));
      await b.clock.advance(1_000);
    }
    expect(b.app.shared.leadership().isLeader()).toBe(false);
    expect(b.fake.callsOf("getUpdates")).toHaveLength(0);

    await admin`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objid = ${LEADER_LOCK_KEY}`;
    await until([a, b], () => b.app.shared.leadership().isLeader() && b.fake.callsOf("getUpdates").length > 0, "b leads and polls");
    expect(a.app.shared.leadership().isLeader()).toBe(false);
    const polled = a.fake.callsOf("getUpdates").length;
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 5));
      await a.clock.advance(1_000);
    }
    expect(a.fake.callsOf("getUpdates").length).toBeLessThanOrEqual(polled + 1); // at most the poll in flight
  });
});
