/**
 * A purchase left "sending" by a process that died during its create call (kill -9, power loss): on the
 * file store one process owns the data folder, so after the restart no create call can still be running
 * for it. The reseller, maybe with the customer at the counter, hears the outcome within seconds.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { newRefId } from "../../src/bot/money/refs.js";
import { SLOW_NOTICE_MS } from "../../src/bot/slowAnswer.js";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, run } from "./support.js";

let w: World;
afterEach(() => w?.close());

const S = 1000;
const MIN = 60 * S;

/**
 * What the engine had saved before its create call, and the create itself if it reached the provider.
 * `screenMs`: how long the confirm screen was shown before the tap (the record is as old).
 */
async function diedDuringCreate(chatId: number, reachedProvider: boolean, screenMs = 0): Promise<string> {
  const refId = newRefId("prepaid", w.clock.now());
  const sent = await w.bot.api.sendMessage(chatId, "⏳ Mengirim ke penyedia...");
  const now = w.clock.now();
  await w.store.createTx({ refId, chatId, kind: "prepaid", status: "sending", code: "S10", title: "Pulsa 10.000", target: "081234567890", amount: 10_500, messageId: sent.message_id, createdAt: now - screenMs, updatedAt: now });
  await w.store.flush();
  if (reachedProvider) await w.upstream.createTransaction(w.demoKey, { code: "S10", reffId: refId, target: "081234567890", limitPrice: 100_000 });
  await w.clock.advance(S);
  await w.restart();
  return refId;
}

describe("status watcher: a create cut by a crash", () => {
  it("a create still running in this process is not taken for lost when the watcher starts after it (webhook updates come first)", async () => {
    w = await makeWorld({ watcher: true, upstreamTimeoutMs: 4_000 });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    w.sandbox.fault("/transaksi/create", "timeout", 1); // the provider takes it, its answer is lost
    const confirming = u.pressButton(/Konfirmasi/);
    await vi.waitFor(() => expect(w.sandbox.calls("/transaksi/create")).toHaveLength(1));
    const [tx] = (await w.store.listTxByChat(u.chatId, { limit: 5 })).items;
    // The watcher (re)starts while the create runs, as after a restart in webhook mode.
    await w.watcher!.pause();
    await w.clock.advance(1);
    await w.watcher!.start();
    await run(w, 60 * S);
    expect((await w.store.getTx(tx!.refId))?.status).toBe("sending"); // left to the create call
    await confirming;
    await run(w, 15 * MIN);
    const statuses = w.fake.sentTo(u.chatId).filter((c) => c.method === "sendMessage" && String(c.payload.text).includes("berhasil"));
    expect(statuses).toHaveLength(1);
    expect((await w.store.getTx(tx!.refId))?.status).toBe("success");
  }, 30_000);

  it("the provider took it: its outcome is told within seconds of the restart, once (not after the 2-minute grace)", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser();
    const refId = await diedDuringCreate(u.chatId, true);
    await run(w, 15 * S);
    expect(noticesAbout(w, u.chatId, refId).filter((t) => t.includes("berhasil"))).toHaveLength(1);
    await run(w, 5 * MIN);
    expect(noticesAbout(w, u.chatId, refId).filter((t) => t.includes("berhasil"))).toHaveLength(1);
    expect(w.sandbox.calls("/transaksi/create")).toHaveLength(1);
  });

  it("the provider never got it: nothing is said while it may still appear, then 'outcome unknown' once after the grace", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser();
    // Confirmed after 110 s on the confirm screen: the grace still counts from the tap.
    const refId = await diedDuringCreate(u.chatId, false, 110 * S);
    await run(w, 90 * S);
    expect(noticesAbout(w, u.chatId, refId)).toHaveLength(0);
    expect((await w.store.getTx(refId))?.status).toBe("sending");
    await run(w, 40 * S);
    expect(noticesAbout(w, u.chatId, refId)).toHaveLength(1);
    expect((await w.store.getTx(refId))?.status).toBe("unknown");
    expect(w.sandbox.calls("/transaksi/create")).toHaveLength(0); // never sent again
  });
});

describe("a purchase cut by a crash during its create, as the chat sees it", () => {
  it("the '⏳ Mengecek ke penyedia…' line of the dead process goes when the outcome is told after the restart", async () => {
    w = await makeWorld({ watcher: true, stopGraceMs: 0 });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    w.sandbox.holdNext("/transaksi/create"); // the provider takes it; its answer never reaches the process
    void u.pressButton(/Konfirmasi/).catch(() => undefined);
    await vi.waitFor(() => expect(w.sandbox.calls("/transaksi/create")).toHaveLength(1));
    await w.clock.advance(SLOW_NOTICE_MS);
    const checking = await vi.waitFor(() => {
      const line = w.fake.sentTo(u.chatId).find((c) => c.method === "sendMessage" && String(c.payload.text).includes("Mengecek ke penyedia"));
      expect(line).toBeDefined();
      return (line!.response as { result: { message_id: number } }).result.message_id;
    });
    const [tx] = (await w.store.listTxByChat(u.chatId, { limit: 5 })).items;
    await w.clock.advance(S); // the process dies; the next one starts a moment later
    await w.crash();
    await run(w, 15 * S);
    expect(noticesAbout(w, u.chatId, tx!.refId).filter((t) => t.includes("berhasil"))).toHaveLength(1);
    expect(w.fake.message(u.chatId, checking)?.deleted).toBe(true);
  }, 30_000);
});

describe("a create whose outcome another path told first", () => {
  it("the create's own answer, arriving after a /status on another process told the outcome, neither steps the status back nor tells it again", async () => {
    w = await makeWorld({ watcher: true, upstreamTimeoutMs: 10_000 });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    w.sandbox.setLatency(1_500); // the create's answer is slow
    const confirming = u.pressButton(/Konfirmasi/);
    await vi.waitFor(() => expect(w.sandbox.calls("/transaksi/create")).toHaveLength(1));
    const [tx] = (await w.store.listTxByChat(u.chatId, { limit: 5 })).items;
    w.sandbox.setLatency(0);
    // The provider settles it; a /status handled by another process (webhook mode, two processes) checks it now.
    w.sandbox.settle(tx!.refId, "success");
    await w.watcher!.checkNow(tx!.refId);
    expect((await w.store.getTx(tx!.refId))?.status).toBe("success");
    await confirming; // the create's answer ("pending") arrives
    await run(w, 15 * MIN);
    expect((await w.store.getTx(tx!.refId))?.status).toBe("success");
    const told = w.fake.sentTo(u.chatId).filter((c) => c.method === "sendMessage" && /berhasil|Diproses|pending/i.test(String(c.payload.text)));
    expect(told.map((c) => String(c.payload.text).split("\n")[0])).toHaveLength(1);
  }, 30_000);
});
