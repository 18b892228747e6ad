import { afterEach, describe, expect, it, vi } from "vitest";
import { makeWorld, type World } from "../support/world.js";
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
    await w.store.transitionTx(tx.refId, ["pending"], { status: "success", watch: { ...tx.watch, notified: "success" } });
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
