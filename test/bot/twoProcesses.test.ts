/**
 * Two whole apps on one PostgreSQL database through PgShared (each with its own file store and
 * fake Bot API here; records in PostgreSQL are PgStore's part): exactly one long-polls and runs the
 * background work; when its lock connection dies, the other takes over. The old leader hears of it
 * only when its client sees the connection close, which may be after the other took the lead: what
 * keeps them apart is the term (a write fenced under the old one is refused), so that is what is
 * asserted, not the moment. Real connections answer in their own time: conditions are polled with a
 * bounded loop; the lease timers run on the clocks.
 */
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logging/logger.js";
import { PgShared } from "../../src/cluster/pgShared.js";
import { LEADER_LOCK_KEY } from "../../src/cluster/pgLeadership.js";
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

/** Two apps' worth of setup on a fresh database, and a way to cut the leader's lock connection. */
async function twoApps(): Promise<{ app: () => Promise<World>; cutLead: () => Promise<unknown> }> {
  const url = await freshDatabase();
  const admin = postgres(url, { max: 1, onnotice: () => undefined });
  closing.push(() => admin.end());
  const app = async () => {
    const w = await makeWorld({ shared: (clock) => PgShared.open(url, { clock, logger: silentLogger }) });
    closing.push(() => w.close());
    return w;
  };
  // pg_locks is the whole server's: only this test's database (other test files run beside it).
  const cutLead = () => admin`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objid = ${LEADER_LOCK_KEY}
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
  return { app, cutLead };
}

const leads = (w: World) => w.app.shared.leadership().isLeader();

describe.skipIf(!hasPg)("two bot processes on one database", () => {
  it("one polls and leads; its lock connection dies -> the other takes over under a newer term, the old term's writes are refused, the old one stops polling", async () => {
    const { app, cutLead } = await twoApps();
    const a = await app();
    await a.app.start();
    await until([a], () => leads(a) && a.fake.callsOf("getUpdates").length > 0, "a leads and polls");
    const aTerm = a.app.shared.fence().term()!;
    expect(aTerm).toBeGreaterThan(0);
    const b = await app();
    await b.app.start();
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 5));
      await b.clock.advance(1_000);
    }
    expect(leads(b)).toBe(false);
    expect(b.app.shared.fence().term()).toBeUndefined();
    expect(b.fake.callsOf("getUpdates")).toHaveLength(0);

    await cutLead();
    await until([a, b], () => leads(b) && b.fake.callsOf("getUpdates").length > 0, "b leads and polls");
    const bTerm = b.app.shared.fence().term()!;
    expect(bTerm).toBeGreaterThan(aTerm);
    // Whatever a believes at this moment, a write under its term is refused; b's goes through.
    const wrote: string[] = [];
    expect(await a.app.shared.fence().fenced(aTerm, async () => void wrote.push("a"))).toBe(false);
    expect(await b.app.shared.fence().fenced(bTerm, async () => void wrote.push("b"))).toBe(true);
    expect(wrote).toEqual(["b"]);

    await until([a], () => !leads(a), "a hears that it lost the lead");
    const polled = a.fake.callsOf("getUpdates").length;
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 5));
      await a.clock.advance(1_000);
    }
    expect(a.fake.callsOf("getUpdates").length).toBeLessThanOrEqual(polled + 1); // at most the poll in flight
  });

  it("a write the old leader fenced under its term ends before the new leader's term begins", async () => {
    const { app, cutLead } = await twoApps();
    const a = await app();
    await a.app.start();
    await until([a], () => leads(a), "a leads");
    const aTerm = a.app.shared.fence().term()!;
    const b = await app();
    await b.app.start();

    const order: string[] = [];
    let finish!: () => void;
    let begun!: () => void;
    const running = new Promise<void>((r) => (begun = r));
    const write = a.app.shared.fence().fenced(aTerm, async () => {
      begun();
      await new Promise<void>((r) => (finish = r));
      order.push("a's write ended");
    });
    await running;
    await cutLead();
    // b gets the lock at its next retry, but its term waits for the write a began under the old one.
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 5));
      await b.clock.advance(1_000);
    }
    expect(leads(b)).toBe(false);
    finish();
    expect(await write).toBe(true);
    await until([b], () => leads(b), "b leads once a's write ended");
    order.push("b leads");
    expect(order).toEqual(["a's write ended", "b leads"]);
    expect(b.app.shared.fence().term()).toBeGreaterThan(aTerm);
    expect(await a.app.shared.fence().fenced(aTerm, async () => void order.push("a again"))).toBe(false);
    expect(order).not.toContain("a again");
  });
});
