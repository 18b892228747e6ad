/**
 * PgShared: two processes' worth of Shared on one database. Real connections answer in their own
 * time, so conditions are polled with a bounded loop; the lease timers run on a ManualClock.
 */
import postgres from "postgres";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { silentLogger } from "../../src/logging/logger.js";
import { MIGRATION_LOCK } from "../../src/store/pg/migrations.js";
import { PgShared } from "../../src/cluster/pgShared.js";
import { LEADER_LOCK_KEY } from "../../src/cluster/pgLeadership.js";
import { freshDatabase, hasPg } from "../support/pg.js";
import { until } from "../support/settle.js";
import { freezableDatabase } from "../support/pgFreeze.js";
import { PROMPT_DEADLINE_MS } from "../../src/store/pg/reachability.js";
import { DatabaseUnreachableError } from "../../src/store/errors.js";

const opened: { end(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.end();
});

async function two(clock = new ManualClock()) {
  const url = await freshDatabase();
  const open = async () => {
    const s = await PgShared.open(url, { clock, logger: silentLogger, leaseRetryMs: 5_000, checkMs: 3_000 });
    opened.push({ end: () => s.close() });
    return s;
  };
  const a = await open();
  const b = await open();
  const admin = postgres(url, { max: 1, onnotice: () => undefined });
  opened.push({ end: () => admin.end() });
  return { a, b, admin, clock };
}

describe.skipIf(!hasPg)("PgShared on one database", () => {
  it("exactly one of two leads; when the leader's connection dies it stops, and the other takes over", async () => {
    const { a, b, admin, clock } = await two();
    const log: string[] = [];
    a.leadership().run(async () => void log.push("a leads"), async () => void log.push("a lost"));
    await until(() => a.leadership().isLeader(), { what: "a leads", realMs: 10, tries: 500 });
    b.leadership().run(async () => void log.push("b leads"), async () => void log.push("b lost"));
    await clock.advance(5_000); // b's first try failed; its retry fails too
    await until(async () => (await admin`SELECT 1 FROM pg_stat_activity WHERE datname = current_database()`).length >= 3, { what: "both connected", realMs: 10, tries: 500 });
    expect(a.leadership().isLeader()).toBe(true);
    expect(b.leadership().isLeader()).toBe(false);

    // pg_locks is the whole server's: only this test's database (other test files run beside it).
    const killed = await admin`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objid = ${LEADER_LOCK_KEY}
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
    expect(killed).toHaveLength(1);
    // The leader's next check finds its session gone: it stops its background work at once.
    // Its check is a real query: step the clock with real waits between, so a check still at the
    // database when the steps ran out is not left without the next one (a loaded machine did that).
    await until(() => log.includes("a lost"), { what: "a lost", clocks: [clock], stepMs: 1_000, realMs: 10, tries: 500 });
    expect(a.leadership().isLeader()).toBe(false);
    // The standby's next retry takes the lead.
    // b tries again on the clock; a's unlock takes real time: step both until b leads.
    await until(() => b.leadership().isLeader(), { what: "b leads", clocks: [clock], stepMs: 1_000, realMs: 10, tries: 500 });
    expect(log.filter((l) => l.endsWith("leads"))).toEqual(["a leads", "b leads"]);
    // a keeps trying but cannot lead while b does.
    await clock.advance(10_000);
    expect(a.leadership().isLeader()).toBe(false);
  });

  it("a leader that stops hands over at the other's next retry", async () => {
    const { a, b, clock } = await two();
    a.leadership().run(async () => {}, async () => {});
    await until(() => a.leadership().isLeader(), { what: "a leads", realMs: 10, tries: 500 });
    b.leadership().run(async () => {}, async () => {});
    await a.leadership().stop();
    // b tries again on the clock; a's unlock takes real time: step both until b leads.
    await until(() => b.leadership().isLeader(), { what: "b leads", clocks: [clock], stepMs: 1_000, realMs: 10, tries: 500 });
  });

  it("claims an update once across both, counts hits across both, shares one webhook secret", async () => {
    const { a, b } = await two();
    const claims = await Promise.all([a.claimUpdate(41), b.claimUpdate(41), a.claimUpdate(41)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await b.claimUpdate(42)).toBe(true);

    const counts = [await a.hit("chat:7", 3_000), await b.hit("chat:7", 3_000), await a.hit("chat:7", 3_000)];
    expect(counts).toEqual([1, 2, 3]);
    expect(await b.hit("chat:8", 3_000)).toBe(1);

    const secret = await a.webhookSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(await b.webhookSecret()).toBe(secret);
  });

  it("the leader prunes claimed update ids older than a day (Telegram resends for a day at most)", async () => {
    const { a, clock } = await two();
    expect(await a.claimUpdate(5)).toBe(true);
    await clock.advance(25 * 60 * 60_000);
    expect(await a.claimUpdate(6)).toBe(true); // recent: kept
    a.leadership().run(async () => {}, async () => {});
    await until(() => a.leadership().isLeader(), { what: "a leads", realMs: 10, tries: 500 });
    await clock.advance(3_000); // its first check prunes
    await until(async () => await a.claimUpdate(5), { what: "update 5 pruned", realMs: 10, tries: 500 });
    expect(await a.claimUpdate(6)).toBe(false);
  });

  it("starts a new window once the old one has passed", async () => {
    const { a, b, clock } = await two();
    expect(await a.hit("k", 3_000)).toBe(1);
    expect(await b.hit("k", 3_000)).toBe(2);
    await clock.advance(3_000);
    expect(await b.hit("k", 3_000)).toBe(1);
  });

  it("a hint reaches the other instance, not the sender", async () => {
    const { a, b } = await two();
    const gotA: string[] = [];
    const gotB: string[] = [];
    a.on("hurry", (id) => gotA.push(id));
    b.on("hurry", (id) => gotB.push(`hurry ${id}`));
    b.on("track", (id) => gotB.push(`track ${id}`));
    a.notify("track", "R1");
    a.notify("hurry", "R2");
    await until(() => gotB.length === 2, { what: "b got both hints", realMs: 10, tries: 500 });
    expect(gotB).toEqual(["track R1", "hurry R2"]);
    expect(gotA).toEqual([]);
  });
});

describe.skipIf(!hasPg)("PgShared and the store's migrations", () => {
  it("a process opening while another leads is not held up by the lead's lock", async () => {
    expect(MIGRATION_LOCK).not.toBe(LEADER_LOCK_KEY);
    const url = await freshDatabase();
    const clock = new ManualClock();
    const a = await PgShared.open(url, { clock, logger: silentLogger });
    let led = false;
    a.leadership().run(async () => void (led = true), async () => undefined);
    await vi.waitFor(() => expect(led).toBe(true), { timeout: 5_000, interval: 5 });
    const b = await Promise.race([
      PgShared.open(url, { clock, logger: silentLogger }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("open is held up by the lead")), 5_000)),
    ]);
    await b.close();
    await a.close();
  });
});

describe.skipIf(!hasPg)("PgShared: a lead whose start-up work fails", () => {
  it("stops what it started, gives the lock up, and the other process takes over", async () => {
    const { a, b, clock } = await two();
    const log: string[] = [];
    a.leadership().run(
      async () => {
        log.push("a starts");
        throw new Error("database hiccup while reading open transactions");
      },
      async () => void log.push("a stops"),
    );
    await until(() => log.includes("a stops"), { what: "a stops what it started", realMs: 10, tries: 500 });
    b.leadership().run(async () => void log.push("b leads"), async () => {});
    // b tries again on the clock; a's unlock takes real time: step both until b leads.
    await until(() => b.leadership().isLeader(), { what: "b leads", clocks: [clock], stepMs: 1_000, realMs: 10, tries: 500 });
    expect(a.leadership().isLeader()).toBe(false);
    expect(log).toContain("b leads");
  });
});

describe.skipIf(!hasPg)("PgShared when the database stops answering", () => {
  it("an update's claim fails at the deadline, then claims and hits fail at once, unsent; once the database answers, they work again", async () => {
    const db = await freezableDatabase(await freshDatabase());
    opened.push({ end: () => db.close() });
    const clock = new ManualClock();
    const s = await PgShared.open(db.url, { clock, logger: silentLogger });
    opened.push({ end: () => s.close() });
    expect(await s.claimUpdate(1)).toBe(true);

    db.freeze();
    opened.push({ end: async () => db.thaw() }); // closed before the relay: runs first
    const claim = s.claimUpdate(2).catch((err: unknown) => err);
    await clock.advance(PROMPT_DEADLINE_MS);
    expect(await claim).toBeInstanceOf(DatabaseUnreachableError);
    await expect(s.hit("u1", 3000)).rejects.toMatchObject({ why: "not sent" });
    await expect(s.claimUpdate(3)).rejects.toMatchObject({ why: "not sent" });

    db.thaw();
    await until(async () => (await s.claimUpdate(4).catch(() => false)) === true, { what: "claims work again", realMs: 20, tries: 200 });
    expect(await s.hit("u1", 3000)).toBe(1);
  });
});
