import { afterEach, describe, expect, it, vi } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { until } from "../support/settle.js";
import { noticesAbout, pendingPrepaid, run } from "./support.js";

let w: World;
afterEach(() => w?.close());

const S = 1000;
const HOUR = 3_600 * S;

const statusCallsOf = (upstreamId: string) => w.sandbox.calls("/transaksi/status").filter((c) => c.body.id === upstreamId).length;

describe("status watcher: what a check reads", () => {
  it("a background check that finds nothing new reads the chat once and the record once (to apply what it learned), and writes nothing", async () => {
    w = await makeWorld({ watcher: true, sandbox: { settleMs: 10 * HOUR } });
    const u = await w.linkedUser();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    await run(w, 6 * S); // the first check (at 5 s) has run
    const reads = [vi.spyOn(w.store, "getChat"), vi.spyOn(w.store, "getTx"), vi.spyOn(w.store, "getApiKey")];
    const writes = [vi.spyOn(w.store, "updateTx"), vi.spyOn(w.store, "transitionTx"), vi.spyOn(w.store, "updateChat")];
    await run(w, 5 * S); // one more check, the status unchanged
    expect(statusCallsOf(tx.upstreamId!)).toBe(2);
    expect(reads.map((s) => s.mock.calls.length)).toEqual([1, 1, 0]);
    expect(writes.map((s) => s.mock.calls.length)).toEqual([0, 0, 0]);
    // And a change still reaches the user.
    w.sandbox.settle(tx.upstreamId!, "success");
    await run(w, 5 * S);
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);
  });

  it("a record settled elsewhere between two checks (another process) costs at most one more status call and is not announced again", async () => {
    w = await makeWorld({ watcher: true, sandbox: { settleMs: 10 * HOUR } });
    const u = await w.linkedUser();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    await run(w, 6 * S);
    expect(statusCallsOf(tx.upstreamId!)).toBe(1);
    await w.store.transitionTx(tx.refId, ["pending"], { status: "success", watch: { nextCheckAt: 0, attempts: 0, ...tx.watch, notified: "success" } });
    await run(w, 60 * S);
    expect(statusCallsOf(tx.upstreamId!)).toBeLessThanOrEqual(2);
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(0);
  });

  it("a chat unlinked between two checks is not polled with the key it was queued by", async () => {
    w = await makeWorld({ watcher: true, sandbox: { settleMs: 10 * HOUR } });
    const u = await w.linkedUser();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    await run(w, 6 * S);
    expect(statusCallsOf(tx.upstreamId!)).toBe(1);
    await w.store.clearApiKey(u.chatId);
    await run(w, 60 * S);
    expect(statusCallsOf(tx.upstreamId!)).toBe(1);
  });
});

describe("status watcher: a notice and the next check", () => {
  it("a notice waiting for the pacer does not hold up the next status call: its slot is given back once the status answered", async () => {
    // One call in flight at a time, and one send a second: the first change's notice (an edit and
    // a message) waits a second of clock time for its second send.
    w = await makeWorld({ watcher: { concurrency: 1 }, broadcast: { perSecond: 1 }, sandbox: { settleMs: 10 * HOUR } });
    const a = await w.linkedUser();
    const b = await w.linkedUser();
    const txA = await pendingPrepaid(w, a.chatId, "081234567890");
    const txB = await pendingPrepaid(w, b.chatId, "081234567891");
    await run(w, 6 * S);
    w.sandbox.settle(txA.upstreamId!, "success");
    w.sandbox.settle(txB.upstreamId!, "success");
    const from = w.clock.now();
    // The clock in small steps with real time between them: a notice waits for the pacer on this clock.
    await until(() => noticesAbout(w, a.chatId, txA.refId).length + noticesAbout(w, b.chatId, txB.refId).length === 2, {
      clocks: [w.clock],
      what: "both changes announced",
    });
    const statusAt = (id: string) => w.sandbox.calls("/transaksi/status").filter((c) => c.body.id === id && c.at >= from).map((c) => c.at)[0]!;
    const noticeAt = (chatId: number, refId: string) =>
      w.fake.sentTo(chatId).find((c) => c.method === "sendMessage" && String(c.payload.text).includes(refId))!.at;
    const [first, second] = statusAt(txA.upstreamId!) <= statusAt(txB.upstreamId!) ? [[a, txA], [b, txB]] as const : [[b, txB], [a, txA]] as const;
    expect(noticesAbout(w, a.chatId, txA.refId)).toHaveLength(1);
    expect(noticesAbout(w, b.chatId, txB.refId)).toHaveLength(1);
    // The second id's status call did not wait for the first id's notice to be out.
    expect(statusAt(second[1].upstreamId!)).toBeLessThan(noticeAt(first[0].chatId, first[1].refId));
  });
});
