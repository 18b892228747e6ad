import { afterEach, describe, expect, it } from "vitest";
import { Api } from "grammy";
import { silentLogger } from "../../src/logging/logger.js";
import type { TxRecord } from "../../src/store/index.js";
import type { PrepaidTransaction } from "../../src/upstream/types.js";
import { UpstreamUnavailable } from "../../src/upstream/errors.js";
import type { StatusApi } from "../../src/domain/refresh.js";
import { StatusWatcher, type WatcherOptions } from "../../src/jobs/watcher/watcher.js";
import { FAKE_BOT_TOKEN } from "../support/botInfo.js";
import { makeWorld, type World } from "../support/world.js";
import { runFor } from "./support.js";

let w: World;
let watcher: StatusWatcher | undefined;
/** Status calls a test holds open (a slow key); released before stopping. */
const held: (() => void)[] = [];
afterEach(async () => {
  const stopping = watcher?.stop(); // no new calls from here on
  for (const release of held.splice(0)) release();
  await stopping;
  watcher = undefined;
  await w?.close();
});

const S = 1000;
const MIN = 60 * S;

function makeWatcher(upstream: StatusApi, options: Partial<WatcherOptions>): StatusWatcher {
  return new StatusWatcher({
    store: w.store,
    upstream,
    api: new Api(FAKE_BOT_TOKEN, { fetch: w.fake.fetch as never }),
    clock: w.clock,
    logger: silentLogger,
    translate: w.app.translate,
    options,
  });
}

/** Pending prepaid records (provider ids "<prefix>-<n>") for a chat. */
async function pendingRecords(chatId: number, prefix: string, n: number): Promise<TxRecord[]> {
  const out: TxRecord[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      await w.store.createTx({
        refId: `TP260115${prefix}${String(i).padStart(4, "0")}`,
        chatId,
        kind: "prepaid",
        status: "pending",
        upstreamId: `${prefix}-${i}`,
        code: "S10",
        target: "081234567890",
        amount: 10_500,
      }),
    );
  }
  return out;
}

describe("status watcher: per-key rate cap and isolation", () => {
  it("never starts more than the per-key cap of status calls in any second (real sandbox, three keys)", async () => {
    w = await makeWorld({ sandbox: { settleMs: 20 * S } });
    w.sandbox.addKey("SANDBOX-KEY-3", 1_000_000, "Third");
    const keys = [w.demoKey, "SANDBOX-KEY-2", "SANDBOX-KEY-3"];
    const calls: { key: string; at: number }[] = [];
    const counting: StatusApi = {
      prepaidStatus: (key, id) => {
        calls.push({ key, at: w.clock.now() });
        return w.upstream.prepaidStatus(key, id);
      },
      postpaidStatus: (k, id) => w.upstream.postpaidStatus(k, id),
      transferStatus: (k, id) => w.upstream.transferStatus(k, id),
      depositStatus: (k, id) => w.upstream.depositStatus(k, id),
    };
    watcher = makeWatcher(counting, { perKeyPerSecond: 3, concurrency: 8 });

    const refs: string[] = [];
    for (const [i, key] of keys.entries()) {
      const u = await w.linkedUser({ key });
      for (let n = 0; n < 15; n++) {
        const refId = `TP260115K${i}N${String(n).padStart(3, "0")}`;
        const r = await w.upstream.createTransaction(key, { code: "S5", reffId: refId, target: `0812000${i}${String(n).padStart(4, "1")}`, limitPrice: 50_000 });
        watcher.track(await w.store.createTx({ refId, chatId: u.chatId, kind: "prepaid", status: "pending", upstreamId: r.id, code: "S5", target: r.target, amount: r.price }));
        refs.push(refId);
      }
    }
    await watcher.start();
    await runFor(w.clock, watcher, 10 * MIN);

    for (const ref of refs) expect((await w.store.getTx(ref))!.status).toBe("success");
    expect(calls.length).toBeGreaterThanOrEqual(45);
    expect(w.sandbox.calls("/transaksi/status")).toHaveLength(calls.length);
    for (const key of keys) {
      const times = calls.filter((c) => c.key === key).map((c) => c.at);
      // Any window of 1000 ms (so also every clock second) holds at most 3 starts.
      for (let i = 3; i < times.length; i++) expect(times[i]! - times[i - 3]!).toBeGreaterThanOrEqual(1000);
      const perSecond = new Map<number, number>();
      for (const t of times) perSecond.set(Math.floor(t / 1000), (perSecond.get(Math.floor(t / 1000)) ?? 0) + 1);
      expect(Math.max(...perSecond.values())).toBe(3);
    }
    // The keys were served side by side, not one after another.
    const firstSecond = Math.floor(calls[0]!.at / 1000);
    expect(new Set(calls.filter((c) => Math.floor(c.at / 1000) === firstSecond).map((c) => c.key)).size).toBe(3);
  });

  it("a slow key holds at most its own slots; a failing key rests on its own; a bug does not stop the watcher", async () => {
    w = await makeWorld();
    const fast = await w.linkedUser({ key: "FAST-KEY" });
    const slow = await w.linkedUser({ key: "SLOW-KEY" });
    const failing = await w.linkedUser({ key: "DOWN-KEY" });
    const buggy = await w.linkedUser({ key: "BUGGY-KEY" });

    const at: Record<string, number[]> = { "FAST-KEY": [], "SLOW-KEY": [], "DOWN-KEY": [], "BUGGY-KEY": [] };
    let inflight = 0;
    let maxInflight = 0;
    let slowInflight = 0;
    let maxSlowInflight = 0;
    const answer = (id: string): PrepaidTransaction => ({
      id, reffId: "", productName: "Telkomsel 10.000", code: "S10", target: "081234567890", price: 10_500, sn: null, status: "pending", createdAt: null,
    });
    const upstream = {
      async prepaidStatus(key: string, id: string) {
        at[key]!.push(w.clock.now());
        inflight++;
        maxInflight = Math.max(maxInflight, inflight);
        try {
          if (key === "SLOW-KEY") {
            slowInflight++;
            maxSlowInflight = Math.max(maxSlowInflight, slowInflight);
            await new Promise<void>((resolve) => held.push(resolve));
            slowInflight--;
          }
          if (key === "DOWN-KEY") throw new UpstreamUnavailable("/transaksi/status", "timeout", { outcomeUnknown: false });
          if (key === "BUGGY-KEY") throw new TypeError("a bug in a status parser");
          return answer(id);
        } finally {
          inflight--;
        }
      },
    } as unknown as StatusApi;
    watcher = makeWatcher(upstream, { concurrency: 4, perKeyConcurrency: 2, perKeyPerSecond: 5 });

    const fastTx = await pendingRecords(fast.chatId, "FAST", 6);
    await pendingRecords(slow.chatId, "SLOW", 6);
    await pendingRecords(failing.chatId, "DOWN", 10);
    await pendingRecords(buggy.chatId, "BUGY", 1);
    await watcher.start(); // picks them up from the store: first checks 5 s after creation

    // Step the clock without waiting for the held calls (they never finish on their own), but
    // after each step for the store's answers (PgStore: real time), as the watcher reads before it calls.
    const step = async (ms: number) => {
      for (let t = 0; t < ms; t += 500) {
        await w.clock.advance(500);
        await w.storeSettled();
      }
    };
    await step(6 * S);
    // The slow key holds 2 of the 4 slots; the fast key's 6 checks all ran at 5 s regardless.
    expect(maxSlowInflight).toBe(2);
    expect(at["FAST-KEY"]!.filter((t) => t === at["FAST-KEY"]![0])).toHaveLength(5); // 5 per second...
    expect(at["FAST-KEY"]).toHaveLength(6); // ...and the sixth in the next second
    await step(10 * MIN);
    expect(maxInflight).toBeLessThanOrEqual(4);
    expect(maxSlowInflight).toBe(2);
    expect(at["SLOW-KEY"]).toHaveLength(2);
    // Fast checks kept their own schedule (6 transactions x checks at 5, 15, 35, 75, 155, 315 s...).
    expect(at["FAST-KEY"]!.length).toBeGreaterThanOrEqual(6 * 6);
    for (const tx of fastTx) expect((await w.store.getTx(tx.refId))!.watch!.attempts).toBeGreaterThanOrEqual(6);
    // The failing key backed off to one probe at a time, at most one every 5 s (its recovery is seen
    // within that): far fewer calls than 10 transactions on their normal schedule (~270 in 10 min).
    const down = at["DOWN-KEY"]!;
    expect(down.length).toBeLessThanOrEqual((10 * MIN) / (5 * S) + 5);
    expect(down.length).toBeGreaterThan(2);
    for (let i = 5; i < down.length; i++) expect(down[i]! - down[i - 1]!).toBeGreaterThanOrEqual(5 * S);
    // The bug was logged and the transaction kept (checked again later), nothing else disturbed.
    expect(at["BUGGY-KEY"]!.length).toBeGreaterThanOrEqual(2);

    for (const release of held.splice(0)) release();
    await step(S);
  });

  it("keeps scheduling cheap for 10,000 open transactions", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ key: "BULK-KEY" });
    let calls = 0;
    const upstream = {
      async prepaidStatus(_key: string, id: string) {
        calls++;
        return { id, reffId: "", productName: "x", code: "S10", target: "0812", price: 10_500, sn: null, status: "pending", createdAt: null };
      },
    } as unknown as StatusApi;
    for (let i = 0; i < 10_000; i++) {
      await w.store.createTx({ refId: `TP260115BULK${String(i).padStart(6, "0")}`, chatId: u.chatId, kind: "prepaid", status: "pending", upstreamId: `B${i}`, amount: 1, createdAt: w.clock.now() + (i % 300) * S });
    }
    watcher = makeWatcher(upstream, { perKeyPerSecond: 1000, concurrency: 50, perKeyConcurrency: 50 });
    const started = performance.now();
    await watcher.start();
    expect(watcher.stats().scheduled).toBe(10_000);
    expect(w.clock.pendingTimers()).toBeLessThan(10); // one timer for the earliest due time, not one per id
    await w.clock.advance(10 * S);
    await watcher.whenIdle(); // the due ids are read from the store before they are checked
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThan(10_000);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
