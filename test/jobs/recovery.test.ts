import { afterEach, describe, expect, it } from "vitest";
import { Api } from "grammy";
import { silentLogger } from "../../src/logging/logger.js";
import type { PrepaidTransaction } from "../../src/upstream/types.js";
import { UpstreamUnavailable } from "../../src/upstream/errors.js";
import type { StatusApi } from "../../src/domain/refresh.js";
import { StatusWatcher } from "../../src/jobs/watcher/watcher.js";
import { FAKE_BOT_TOKEN } from "../support/botInfo.js";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, runFor } from "./support.js";

let w: World;
let watcher: StatusWatcher | undefined;
afterEach(async () => {
  await watcher?.stop();
  watcher = undefined;
  await w?.close();
});

const S = 1000;
const MIN = 60 * S;

describe("status watcher: news soon after the provider recovers", () => {
  it("after 3 minutes of provider 5xx, every item that settled meanwhile is told within 10 s of recovery, one probe per key while down, never above the per-key cap", async () => {
    w = await makeWorld();
    const keys = ["KEY-ONE", "KEY-TWO"];
    let down = false;
    const settled = new Set<string>();
    const calls: { key: string; at: number; ok: boolean }[] = [];
    const inflight = new Map<string, number>();
    let maxInflightWhileDown = 0;
    const upstream = {
      async prepaidStatus(key: string, id: string): Promise<PrepaidTransaction> {
        const at = w.clock.now();
        inflight.set(key, (inflight.get(key) ?? 0) + 1);
        // Once a key has failed, its calls go one at a time (the calls before the first failure may overlap).
        if (down && calls.some((c) => c.key === key && !c.ok)) maxInflightWhileDown = Math.max(maxInflightWhileDown, inflight.get(key)!);
        try {
          await Promise.resolve();
          if (down) {
            calls.push({ key, at, ok: false });
            throw new UpstreamUnavailable("/transaksi/status", "http", { outcomeUnknown: false });
          }
          calls.push({ key, at, ok: true });
          const status = settled.has(id) ? "success" : "pending";
          return { id, reffId: "", productName: "Telkomsel 10.000", code: "S10", target: "081234567890", price: 10_500, sn: status === "success" ? "SN-1" : null, status, createdAt: null };
        } finally {
          inflight.set(key, inflight.get(key)! - 1);
        }
      },
    } as unknown as StatusApi;
    watcher = new StatusWatcher({
      store: w.store, upstream, api: new Api(FAKE_BOT_TOKEN, { fetch: w.fake.fetch as never }), clock: w.clock, logger: silentLogger, translate: w.app.translate,
    });

    // 20 pending items over 2 keys, of different ages: some checked every 5 s, older ones minutes apart.
    const items: { refId: string; chatId: number; upstreamId: string }[] = [];
    for (const [k, key] of keys.entries()) {
      const u = await w.linkedUser({ key });
      for (let i = 0; i < 10; i++) {
        const refId = `TP260115R${k}${String(i).padStart(5, "0")}`;
        const upstreamId = `${key}-${i}`;
        await w.store.createTx({ refId, chatId: u.chatId, kind: "prepaid", status: "pending", upstreamId, code: "S10", target: "081234567890", amount: 10_500, createdAt: w.clock.now() - i * 3 * MIN });
        items.push({ refId, chatId: u.chatId, upstreamId });
      }
    }
    await watcher.start();
    await runFor(w.clock, watcher, 10 * MIN);
    for (const it of items) expect(noticesAbout(w, it.chatId, it.refId)).toHaveLength(0);

    // The provider answers 5xx for 3 minutes; meanwhile every item settles there.
    down = true;
    for (const it of items) settled.add(it.upstreamId);
    await runFor(w.clock, watcher, 3 * MIN);
    down = false;
    const upAt = w.clock.now();

    // Politeness while down: one probe at a time per key, a few seconds apart.
    expect(maxInflightWhileDown).toBeLessThanOrEqual(1);
    for (const key of keys) {
      const firstFailAt = calls.find((c) => c.key === key && !c.ok)!.at;
      const times = calls.filter((c) => c.key === key && c.at > firstFailAt && c.at < upAt).map((c) => c.at);
      expect(times.length).toBeGreaterThan(3);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1 * S);
      expect(times.length).toBeLessThanOrEqual((3 * MIN) / (5 * S) + 5);
    }

    await runFor(w.clock, watcher, 10 * S);
    for (const it of items) {
      expect(noticesAbout(w, it.chatId, it.refId), it.refId).toHaveLength(1);
      expect((await w.store.getTx(it.refId))!.status).toBe("success");
    }
    // After recovery: never more than the per-key cap (5) started in any second.
    for (const key of keys) {
      const times = calls.filter((c) => c.key === key && c.at >= upAt).map((c) => c.at);
      for (let i = 5; i < times.length; i++) expect(times[i]! - times[i - 5]!).toBeGreaterThanOrEqual(1000);
    }
  });
});
