/**
 * Two bot processes, seen from one: a standby takes no updates by long polling and runs
 * no watcher until the lead comes (a fake Leadership hands it out); it tells the leader what it
 * hears instead. Two apps on one Shared answer an update once and share the rate limit.
 */
import { freePort } from "../support/freePort.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeUser } from "../support/chat.js";
import { FakeShared } from "../support/fakeShared.js";
import { makeWorld, type World } from "../support/world.js";
import { pendingPrepaid, statusCalls } from "../jobs/support.js";
import { LocalShared } from "../../src/cluster/localShared.js";
import { ManualClock } from "../../src/tools/clock.js";
import { TxEvents } from "../../src/domain/events.js";
import { LeaderWork, wireHints } from "../../src/jobs/leaderWork.js";
import { PgShared } from "../../src/cluster/pgShared.js";
import { freshDatabase, hasPg, pgAdmin } from "../support/pg.js";
import { silentLogger } from "../../src/logging/logger.js";
import type { StatusWatcher } from "../../src/jobs/watcher/watcher.js";
import type { LeadFence } from "../../src/cluster/index.js";

const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close();
});

const S = 1000;

/** Lets real I/O land and moves the clock, until `done()` or the step limit. */
async function stepUntil(w: World, done: () => boolean, stepMs: number, maxSteps = 2000): Promise<void> {
  for (let i = 0; i < maxSteps && !done(); i++) {
    await new Promise((r) => setTimeout(r, 1));
    await w.clock.advance(stepMs);
  }
  expect(done(), "condition not reached").toBe(true);
}

describe("a process that does not lead", () => {
  it("long polling: takes no updates and polls no status until it leads; stops both when it loses the lead, resumes when it leads again", async () => {
    let shared!: FakeShared;
    const port = await freePort();
    const w = await makeWorld({
      shared: (clock, dir) => (shared = new FakeShared(clock, dir)),
      sandbox: { settleMs: 10 * 60 * S },
      env: { HTTP_PORT: String(port) },
    });
    worlds.push(w);
    const u = await w.linkedUser({ languageCode: "en" });
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    expect(shared.sent).toEqual([["track", tx.refId]]); // made here while standing by: the leader hears of it

    await w.app.start();
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 1));
      await w.clock.advance(6 * S);
    }
    expect(w.fake.callsOf("getUpdates")).toHaveLength(0);
    expect(statusCalls(w, tx.upstreamId)).toBe(0);
    const standby = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as Record<string, unknown>;
    expect(standby).toMatchObject({ ok: true, role: "standby", updatesLoopAlive: false });

    await shared.control.take();
    await stepUntil(w, () => w.fake.callsOf("getUpdates").length > 0 && statusCalls(w, tx.upstreamId) > 0, 1000);
    const leading = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as Record<string, unknown>;
    expect(leading).toMatchObject({ ok: true, role: "leader", updatesLoopAlive: true });
    const user = makeUser(null, w.fake, { languageCode: "en", clock: w.clock });
    await user.sendCommand("start");
    await w.fake.waitFor((c) => c.method === "sendMessage" && c.payload.chat_id === user.chatId, 10_000);

    await shared.control.lose();
    const polls = w.fake.callsOf("getUpdates").length;
    const checks = statusCalls(w, tx.upstreamId);
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 1));
      await w.clock.advance(6 * S);
    }
    expect(w.fake.callsOf("getUpdates").length).toBeLessThanOrEqual(polls + 1); // at most the poll in flight
    expect(statusCalls(w, tx.upstreamId)).toBe(checks);

    // The lead comes back: polling and checks go on, the background parts start again.
    const again = w.fake.callsOf("getUpdates").length;
    await shared.control.take();
    await stepUntil(w, () => statusCalls(w, tx.upstreamId) > checks && w.fake.callsOf("getUpdates").length > again, 1000);
    const later = makeUser(null, w.fake, { languageCode: "en", clock: w.clock });
    await later.sendCommand("help");
    await w.fake.waitFor((c) => c.method === "sendMessage" && c.payload.chat_id === later.chatId, 10_000);
  });

  it("passes what it hears to the leader: a chat that came back; a hint it receives while leading is acted on", async () => {
    let shared!: FakeShared;
    const w = await makeWorld({ shared: (clock, dir) => (shared = new FakeShared(clock, dir)), sandbox: { settleMs: 10 * 60 * S } });
    worlds.push(w);
    const u = await w.linkedUser({ languageCode: "en" });
    await w.store.updateChat(u.chatId, { inactive: true });
    await u.sendCommand("help");
    expect(shared.sent).toContainEqual(["chatBack", String(u.chatId)]);

    await w.app.start();
    await shared.control.take();
    const mine = await pendingPrepaid(w, u.chatId, "081234567890");
    expect(shared.sent.filter(([k]) => k === "track")).toEqual([]); // the leader's own watcher heard
    expect(w.app.watcher.stats().scheduled).toBe(1);
    // A purchase made on the other process: saved there, its hint arrives here.
    const emit = w.deps.events.emit.bind(w.deps.events);
    w.deps.events.emit = () => {};
    const theirs = await pendingPrepaid(w, u.chatId, "081234567891");
    w.deps.events.emit = emit;
    expect(w.app.watcher.stats().scheduled).toBe(1);
    shared.receive("track", theirs.refId);
    // At once (the clock stands still, so not by a rescan), once the hint's store read is answered.
    await vi.waitFor(() => expect(w.app.watcher.stats().scheduled).toBe(2), { timeout: 5_000, interval: 1 });
    expect(mine.refId).not.toBe(theirs.refId);
  });
});

describe("a broadcast started on the standby", () => {
  it("is saved there, not sent; the leader is told and delivers it once", async () => {
    let shared!: FakeShared;
    const w = await makeWorld({ shared: (clock, dir) => (shared = new FakeShared(clock, dir)) });
    worlds.push(w);
    const users = [await w.linkedUser(), await w.linkedUser()];
    await w.app.start();
    const b = w.deps.broadcaster;
    expect(await b.start(9001, "en", { kind: "text", text: "Promo hari ini" })).toEqual({ ok: true, total: 2 });
    expect(b.delivering).toBe(false);
    expect(shared.sent).toContainEqual(["broadcast", "new"]);
    await w.clock.advance(30 * S);
    for (const u of users) expect(w.fake.sentTo(u.chatId).filter((c) => c.payload.text === "Promo hari ini")).toHaveLength(0);

    await shared.control.take(); // the leader (here: this process after a hand-over) resumes it
    await b.idle();
    for (const u of users) expect(w.fake.sentTo(u.chatId).filter((c) => c.payload.text === "Promo hari ini")).toHaveLength(1);
  });
});

describe("two processes on one Shared", () => {
  it("an update delivered to both is answered once, and the rate limit counts on both", async () => {
    let shared: LocalShared | undefined;
    const one = (clock: ConstructorParameters<typeof LocalShared>[0], dir: string) => (shared ??= new LocalShared(clock, dir));
    const a = await makeWorld({ shared: one, bot: { rateLimit: { timeFrameMs: 60_000, limit: 3 } } });
    worlds.push(a);
    const b = await makeWorld({ shared: one, bot: { rateLimit: { timeFrameMs: 60_000, limit: 3 } } });
    worlds.push(b);
    const onA = a.user({ languageCode: "en", id: 777001 });
    const onB = makeUser({ handleUpdate: (up) => b.bot.handleUpdate(up) }, a.fake, { id: 777001, languageCode: "en", clock: a.clock });

    const update = onA.textUpdate("/help");
    await a.bot.handleUpdate(update);
    await b.bot.handleUpdate(update); // the resend reached the other process
    expect(a.fake.sentTo(777001).length + b.fake.sentTo(777001).length).toBe(1);

    await onB.sendCommand("help");
    await onA.sendCommand("help");
    await onB.sendCommand("help"); // the 4th in the window, on either process
    const texts = [...a.fake.sentTo(777001), ...b.fake.sentTo(777001)].map((c) => String(c.payload.text));
    expect(texts.filter((t) => t.includes("Help"))).toHaveLength(3);
    expect(texts.filter((t) => t.includes("Too fast"))).toHaveLength(1);
  });
});

describe("hints (wireHints)", () => {
  it("a provider callback on the standby goes to the leader; on the leader its own watcher checks at once", async () => {
    const shared = new FakeShared(new ManualClock(), "/nonexistent");
    const hurried: string[] = [];
    const watcher = { hurry: (r: string) => (hurried.push(r), true), adopt: () => {}, chatBack: () => {}, checkNow: async () => undefined };
    const hints = wireHints(shared, new TxEvents(silentLogger), {
      watcher: watcher as unknown as StatusWatcher,
      alerts: { afterCreate: async () => {} },
      store: { getTx: async () => undefined },
      broadcaster: { resume: async () => false },
    });
    expect(await hints.hurry("R1")).toBe(true);
    expect(shared.sent).toEqual([["hurry", "R1"]]);
    expect(hurried).toEqual([]);
    await shared.control.take();
    expect(await hints.hurry("R2")).toBe(true);
    shared.receive("hurry", "R3"); // from the standby
    expect(hurried).toEqual(["R2", "R3"]);
    expect(shared.sent).toEqual([["hurry", "R1"]]);
  });
});

describe("the shared rate counter unreachable", () => {
  it("lets updates through rather than silencing everyone", async () => {
    class Unreachable extends LocalShared {
      override async hit(): Promise<number> {
        throw new Error("connection refused");
      }
    }
    const w = await makeWorld({ shared: (clock, dir) => new Unreachable(clock, dir), bot: { rateLimit: { timeFrameMs: 60_000, limit: 3 } } });
    worlds.push(w);
    const u = w.user({ languageCode: "en" });
    await u.sendCommand("help");
    expect(u.lastReply()).toContain("Help");
  });
});

describe("LeaderWork: the lead changing while its work starts or stops", () => {
  /** Parts that record which of them run; `hold` keeps one call waiting until released. */
  function parts(fence?: LeadFence) {
    const running = new Set<string>();
    const order: string[] = [];
    const holds = new Map<string, Promise<void>>();
    const hold = (name: string) => {
      let release!: () => void;
      holds.set(name, new Promise<void>((r) => (release = r)));
      return () => {
        holds.delete(name);
        release();
      };
    };
    const step = (name: string, part: string, on: boolean) => async () => {
      order.push(name);
      await holds.get(name);
      if (on) running.add(part);
      else running.delete(part);
    };
    const sync = (part: string, on: boolean) => () => void (on ? running.add(part) : running.delete(part));
    const work = new LeaderWork({
      clock: new ManualClock(),
      logger: silentLogger,
      bot: undefined as never,
      polling: undefined,
      recover: step("recover", "recover", false),
      alerts: { start: sync("alerts", true), stop: step("alerts.stop", "alerts", false) } as never,
      broadcaster: { resume: step("broadcaster.resume", "broadcaster", true), stop: step("broadcaster.stop", "broadcaster", false) } as never,
      watcher: { start: step("watcher.start", "watcher", true), pause: step("watcher.pause", "watcher", false) } as never,
      relink: { start: sync("relink", true), stop: step("relink.stop", "relink", false) } as never,
      dailySummary: { start: sync("daily", true), stop: step("daily.stop", "daily", false) } as never,
      stopping: () => false,
      pollingFailed: () => undefined,
      ...(fence ? { fence } : {}),
    });
    return { work, running, order, hold };
  }
  const ALL = ["alerts", "broadcaster", "daily", "relink", "watcher"];

  it("lost while the start-up still reads the store: nothing runs afterwards", async () => {
    const { work, running, hold } = parts();
    const release = hold("recover");
    const leading = work.lead();
    const losing = work.lose();
    release();
    await Promise.all([leading, losing]);
    expect([...running]).toEqual([]);
  });

  it("back while the previous stop still waits: the new lead's work all keeps running", async () => {
    const { work, running, hold } = parts();
    await work.lead();
    const release = hold("watcher.pause");
    const losing = work.lose();
    const leading = work.lead();
    release();
    await Promise.all([losing, leading]);
    expect([...running].sort()).toEqual(ALL);
  });

  /** A term of 1 that stops being current when `moveOn()` is called (the other process took the lead). */
  function termOne() {
    let current = 1;
    const fence: LeadFence = {
      term: () => 1,
      fenced: async (term, write) => (term === current ? (await write(), true) : false),
    };
    return { fence, moveOn: () => void (current = 2) };
  }

  it("a lead whose term is still current starts all its work", async () => {
    const { work, running } = parts(termOne().fence);
    await work.lead();
    expect([...running].sort()).toEqual(ALL);
  });

  it("a newer term began while the start-up still ran (the lock died unheard): the rest does not start", async () => {
    const { fence, moveOn } = termOne();
    const { work, running, order, hold } = parts(fence);
    const release = hold("recover");
    const leading = work.lead();
    await vi.waitFor(() => expect(order).toContain("recover"), { timeout: 1_000, interval: 1 });
    moveOn();
    release();
    await leading;
    expect([...running]).toEqual([]);
    expect(order).toEqual(["recover"]);
  });

  it("lost: the broadcast stops without waiting for the watcher to pause", async () => {
    const { work, running, order, hold } = parts();
    await work.lead();
    const release = hold("watcher.pause");
    const losing = work.lose();
    await vi.waitFor(() => expect(order).toContain("broadcaster.stop"), { timeout: 1_000, interval: 1 });
    expect(running.has("broadcaster")).toBe(false);
    release();
    await losing;
    expect([...running]).toEqual([]);
  });
});

describe.skipIf(!hasPg)("the shared database unreachable (PgShared)", () => {
  it("the user is told the storage has a problem rather than nothing at all", async () => {
    const url = await freshDatabase();
    const w = await makeWorld({ shared: (clock) => PgShared.open(url, { clock, logger: silentLogger }), env: { STORE_URL: url } });
    worlds.push(w);
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("topup", "S10 081234567890");
    const name = new URL(url).pathname.slice(1); // the store and Shared both on this database
    await pgAdmin(async (sql) => {
      await sql.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`;
    });
    await u.pressButton(/Confirm/);
    expect(u.replies().join("\n") + String(w.fake.lastCall("answerCallbackQuery")?.payload.text)).toMatch(/storage has a problem|Nothing was sent/);
    expect(w.sandbox.calls("/transaksi/create")).toHaveLength(0);
  });
});
