import { afterEach, describe, expect, it } from "vitest";
import type { WatchState } from "../../src/store/index.js";
import { TelegramErrors } from "../support/fakeBotApi.js";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, pendingPrepaid, run } from "./support.js";

let w: World;
afterEach(() => w?.close());

const S = 1000;
const MIN = 60 * S;

/** The store as a crash would leave it: the notice marker saved, the outcome not yet recorded. */
async function crashLeftMarker(refId: string): Promise<void> {
  const tx = (await w.store.getTx(refId))!;
  const watch = { ...tx.watch, notified: "pending", announcing: "success" } as WatchState;
  await w.store.updateTx(refId, { status: "pending", watch });
  await w.store.flush();
  await w.restart();
}

describe("status watcher: exactly-once notices across crashes and Telegram errors", () => {
  it("crash after the notice went out but before it was recorded: no second notice on restart", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    await run(w, 10 * S);
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);

    await crashLeftMarker(tx.refId);
    await run(w, 5 * MIN);
    expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "success", watch: { notified: "success" } });
    expect((await w.store.getTx(tx.refId))!.watch).not.toHaveProperty("announcing");
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);
    expect(w.fake.message(u.chatId, tx.messageId!)!.text).toContain("Berhasil");
  });

  it("crash before anything went out: the original message is updated, so the outcome is never lost", async () => {
    w = await makeWorld({ watcher: { firstCheckMs: 60 * S } });
    const u = await w.linkedUser();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    await crashLeftMarker(tx.refId); // marker saved, nothing sent (the check was never reached)
    await run(w, 5 * MIN);
    expect((await w.store.getTx(tx.refId))!.status).toBe("success");
    const original = w.fake.message(u.chatId, tx.messageId!)!;
    expect(original.edited).toBe(true);
    expect(original.text).toContain((await w.store.getTx(tx.refId))!.sn!);
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(0);
  });

  it("a crash marker with no message to edit: the notice is sent (a repeat beats a lost outcome)", async () => {
    w = await makeWorld({ watcher: { firstCheckMs: 60 * S } });
    const u = await w.linkedUser();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    await w.store.updateTx(tx.refId, { messageId: undefined });
    await crashLeftMarker(tx.refId);
    await run(w, 5 * MIN);
    expect((await w.store.getTx(tx.refId))!.status).toBe("success");
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);
  });

  it("Telegram 429 on the notice: known not sent, so it is sent later, once", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    w.fake.failNext("sendMessage", TelegramErrors.tooManyRequests(3), { chatId: u.chatId });
    await run(w, 5 * S + 500); // the check at 5 s met the 429; tried again once its retry_after ended
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(0);
    expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "pending" });
    await run(w, 1 * MIN);
    expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "success", watch: { notified: "success" } });
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);
    await run(w, 30 * MIN);
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);
  });

  it("Telegram 5xx on the notice (maybe sent): retried edit-first, never a duplicate, status recorded", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    w.fake.failNext("sendMessage", TelegramErrors.internal(), { chatId: u.chatId });
    await run(w, 5 * S + 500); // the check at 5 s met the 5xx; its probe goes 1 s later
    expect((await w.store.getTx(tx.refId))!.status).toBe("pending"); // marker kept, outcome not yet recorded
    await run(w, 1 * MIN);
    expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "success", watch: { notified: "success" } });
    expect(w.fake.message(u.chatId, tx.messageId!)!.text).toContain("Berhasil");
    expect(noticesAbout(w, u.chatId, tx.refId).length).toBeLessThanOrEqual(1);
  });
});
