import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, pendingPrepaid, run } from "./support.js";

let w: World;
afterEach(() => w?.close());

const S = 1000;
const MIN = 60 * S;
const HOUR = 60 * MIN;

/** Clock times (relative to `t0`) of the prepaid status calls the sandbox received from `t0` on, per provider id. */
function statusTimes(t0: number): Map<string, number[]> {
  const byId = new Map<string, number[]>();
  for (const c of w.sandbox.calls("/transaksi/status")) {
    if (c.body.type !== "prabayar" || c.at < t0) continue;
    byId.set(c.body.id!, [...(byId.get(c.body.id!) ?? []), c.at - t0]);
  }
  return byId;
}

describe("status watcher: the young phase", () => {
  it("a change while young is announced within one step (5 s), and the sandbox's settle control decides when", async () => {
    w = await makeWorld({ watcher: true, sandbox: { settleMs: 10 * HOUR } });
    const u = await w.linkedUser();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    await run(w, 83 * S);
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(0);
    w.sandbox.settle(tx.upstreamId!, "success");
    const changedAt = w.clock.now();
    await run(w, 5 * S);
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);
    const notice = w.fake.sentTo(u.chatId).find((c) => c.method === "sendMessage" && String(c.payload.text).includes(tx.refId))!;
    expect(notice.at - changedAt).toBeLessThanOrEqual(5 * S);
  });

  it("does not save every young due time; a restart while young checks at once and goes on every 5 s", async () => {
    w = await makeWorld({ watcher: true, sandbox: { settleMs: 10 * HOUR } });
    const u = await w.linkedUser();
    const t0 = w.clock.now();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");

    await run(w, 32 * S); // checks at 5, 10, ... 30 s
    expect(statusTimes(t0).get(tx.upstreamId!)).toEqual([5, 10, 15, 20, 25, 30].map((s) => s * S));
    // The saved due time is the one from creation: earlier than the real one, never later.
    expect((await w.store.getTx(tx.refId))!.watch).toMatchObject({ attempts: 0, nextCheckAt: t0 + 5 * S });

    await w.restart();
    await run(w, 12 * S);
    expect(statusTimes(t0).get(tx.upstreamId!)!.slice(6)).toEqual([32, 37, 42].map((s) => s * S));
    w.sandbox.settle(tx.upstreamId!, "failed");
    await run(w, 5 * S);
    expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "failed", watch: { notified: "failed" } });
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);
  });

  it("many young ids on one key share its cap round robin: each checked every (ids / cap) s, none starved", async () => {
    w = await makeWorld({ watcher: true, sandbox: { settleMs: 10 * HOUR } });
    const u = await w.linkedUser();
    const t0 = w.clock.now();
    const txs = [];
    for (let i = 0; i < 40; i++) txs.push(await pendingPrepaid(w, u.chatId, `0812345${String(i).padStart(5, "1")}`));

    await run(w, 60 * S);
    const calls = statusTimes(t0);
    const all = [...calls.values()].flat().sort((a, b) => a - b);
    for (let i = 5; i < all.length; i++) expect(all[i]! - all[i - 5]!).toBeGreaterThanOrEqual(1000); // cap 5/s
    // 40 ids at 5 calls/s: every id about every 8 s once the first round is done.
    for (const tx of txs) {
      const times = calls.get(tx.upstreamId!)!;
      expect(times.length).toBeGreaterThanOrEqual(6);
      const gaps = times.slice(2).map((t, i) => t - times[i + 1]!);
      for (const g of gaps) expect(g).toBeLessThanOrEqual(9 * S);
    }
  });
});
