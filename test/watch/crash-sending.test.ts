/**
 * A purchase left "sending" by a process that died during its create call (kill -9, power loss): on the
 * file store one process owns the data folder, so after the restart no create call can still be running
 * for it. The reseller, maybe with the customer at the counter, hears the outcome within seconds.
 */
import { afterEach, describe, expect, it } from "vitest";
import { newRefId } from "../../src/bot/money/refs.js";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, run } from "./support.js";

let w: World;
afterEach(() => w?.close());

const S = 1000;
const MIN = 60 * S;

/** What the engine had saved before its create call, and the create itself if it reached the provider. */
async function diedDuringCreate(chatId: number, reachedProvider: boolean): Promise<string> {
  const refId = newRefId("prepaid", w.clock.now());
  const sent = await w.bot.api.sendMessage(chatId, "⏳ Mengirim ke penyedia...");
  await w.store.createTx({ refId, chatId, kind: "prepaid", status: "sending", code: "S10", title: "Pulsa 10.000", target: "081234567890", amount: 10_500, messageId: sent.message_id });
  await w.store.flush();
  if (reachedProvider) await w.upstream.createTransaction(w.demoKey, { code: "S10", reffId: refId, target: "081234567890", limitPrice: 100_000 });
  await w.clock.advance(S);
  await w.restart();
  return refId;
}

describe("status watcher: a create cut by a crash", () => {
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
    const refId = await diedDuringCreate(u.chatId, false);
    await run(w, 90 * S);
    expect(noticesAbout(w, u.chatId, refId)).toHaveLength(0);
    expect((await w.store.getTx(refId))?.status).toBe("sending");
    await run(w, 2 * MIN);
    expect(noticesAbout(w, u.chatId, refId)).toHaveLength(1);
    expect((await w.store.getTx(refId))?.status).toBe("unknown");
    expect(w.sandbox.calls("/transaksi/create")).toHaveLength(0); // never sent again
  });
});
