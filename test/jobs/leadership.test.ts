/**
 * The watcher when two processes share a store: only the leader polls. A standby's
 * watcher is paused (users' own checks still run); a purchase made on the other process reaches
 * the leader by a hint (adopt) or, if the hint was lost, by the periodic rescan.
 */
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logging/logger.js";
import { StatusWatcher } from "../../src/jobs/watcher/watcher.js";
import type { LeadFence } from "../../src/cluster/index.js";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, pendingPrepaid, run, runFor, statusCalls } from "./support.js";

let w: World;
afterEach(() => w?.close());

const S = 1000;
const MIN = 60 * S;

/** A pending purchase as another process leaves it: saved with its first due time, no local event. */
async function madeElsewhere(w: World, chatId: number) {
  const events = w.deps.events;
  const emit = events.emit.bind(events);
  events.emit = () => {}; // the other process's watcher, not this one, heard the create
  try {
    const tx = await pendingPrepaid(w, chatId, "081234567890");
    await w.store.updateTx(tx.refId, { watch: { nextCheckAt: w.clock.now() + 5 * S, attempts: 0, notified: "pending" } });
    return tx;
  } finally {
    events.emit = emit;
  }
}

describe("status watcher: leading and standing by", () => {
  it("a purchase whose hint was lost is picked up by the rescan within rescanMs, and announced once", async () => {
    w = await makeWorld({ watcher: true, sandbox: { settleMs: 30 * S } });
    const u = await w.linkedUser({ languageCode: "en" });
    const tx = await madeElsewhere(w, u.chatId);
    expect(w.watcher!.stats().scheduled).toBe(0);
    await run(w, 10 * S);
    expect(w.watcher!.stats().scheduled + w.watcher!.stats().queued).toBe(1);
    await run(w, 2 * MIN);
    expect((await w.store.getTx(tx.refId))!.status).toBe("success");
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);
  });

  it("a hint (adopt) schedules at the saved due time at once; adopting twice changes nothing", async () => {
    w = await makeWorld({ watcher: { rescanMs: 0 }, sandbox: { settleMs: 10 * MIN } });
    const u = await w.linkedUser();
    const tx = await madeElsewhere(w, u.chatId);
    const t0 = w.clock.now();
    await w.watcher!.adopt(tx.refId);
    await w.watcher!.adopt(tx.refId);
    expect(w.watcher!.nextWakeAt()).toBe(t0 + 5 * S);
    await run(w, 5 * S);
    expect(statusCalls(w, tx.upstreamId)).toBe(1);
  });

  it("paused (another process leads): no background checks, /status still checks; start() resumes from the store", async () => {
    w = await makeWorld({ watcher: true, sandbox: { settleMs: 10 * MIN } });
    const u = await w.linkedUser({ languageCode: "en" });
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    await run(w, 5 * S);
    expect(statusCalls(w, tx.upstreamId)).toBe(1);

    await w.watcher!.pause();
    await run(w, 2 * MIN);
    expect(statusCalls(w, tx.upstreamId)).toBe(1);
    const outcome = await w.watcher!.checkNow(tx.refId);
    expect(outcome?.lookup?.kind).toBe("found");
    expect(statusCalls(w, tx.upstreamId)).toBe(2);
    expect(await w.watcher!.hurry(tx.refId)).toBe(false);
    await run(w, 2 * MIN);
    expect(statusCalls(w, tx.upstreamId)).toBe(2);

    await w.watcher!.start(); // the lead came back
    await run(w, 10 * MIN);
    expect((await w.store.getTx(tx.refId))!.status).toBe("success");
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);
  });
});

describe("status watcher: fenced by the lead's term", () => {
  it("a background check after a newer term began writes nothing and tells no one; the user's own check still does", async () => {
    w = await makeWorld({});
    const u = await w.linkedUser({ languageCode: "en" });
    // The term in the shared database: 1 while this process leads, 2 once the other took over.
    let currentTerm = 1;
    const fence: LeadFence = {
      term: () => 1,
      fenced: async (term, write) => {
        if (term !== currentTerm) return false;
        await write();
        return true;
      },
    };
    const watcher = new StatusWatcher({ store: w.store, upstream: w.upstream, api: w.bot.api, clock: w.clock, logger: silentLogger, translate: w.app.translate, fence });
    try {
      const told = await pendingPrepaid(w, u.chatId, "081234567890");
      await watcher.start();
      await runFor(w.clock, watcher, 10 * S);
      expect((await w.store.getTx(told.refId))!.status).toBe("success");
      expect(noticesAbout(w, u.chatId, told.refId)).toHaveLength(1);

      const late = await pendingPrepaid(w, u.chatId, "081234567890");
      await watcher.adopt(late.refId);
      currentTerm = 2; // this process has not heard yet that it lost the lead
      await runFor(w.clock, watcher, 10 * S);
      expect(statusCalls(w, late.upstreamId)).toBeGreaterThan(0);
      expect((await w.store.getTx(late.refId))!.status).toBe("pending");
      expect(noticesAbout(w, u.chatId, late.refId)).toHaveLength(0);

      const own = await watcher.checkNow(late.refId, { shownByCaller: true });
      expect(own?.tx.status).toBe("success");
    } finally {
      await watcher.stop();
    }
  });
});
