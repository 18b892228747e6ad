import { afterEach, describe, expect, it } from "vitest";
import { TelegramErrors } from "../support/fakeBotApi.js";
import { makeWorld, type World } from "../support/world.js";
import { decodeQrPng } from "../support/qr.js";
import { noticesAbout, pendingPrepaid, pendingQris, run, statusCalls } from "./support.js";
import { detailOf } from "../../src/store/index.js";
import type { FakeUser } from "../support/chat.js";
import type { Update } from "grammy/types";

let w: World;
afterEach(() => w?.close());

const S = 1000;
const MIN = 60 * S;
const HOUR = 60 * MIN;

/** Clock times (relative to `t0`) of the prepaid status calls the sandbox received from `t0` on. */
function statusTimes(w: World, t0: number): number[] {
  return w.sandbox.calls("/transaksi/status").filter((c) => c.body.type === "prabayar" && c.at >= t0).map((c) => c.at - t0);
}

describe("status watcher: scheduling", () => {
  it("checks every 5 s for the first 2 minutes, then doubles the wait up to 5 minutes, and saves the schedule", async () => {
    w = await makeWorld({ watcher: true, sandbox: { settleMs: 10 * HOUR } });
    const u = await w.linkedUser();
    const t0 = w.clock.now();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");

    await run(w, 21 * MIN);
    const young = Array.from({ length: 24 }, (_, i) => (i + 1) * 5 * S); // 5 s .. 120 s
    expect(statusTimes(w, t0)).toEqual([...young, 130 * S, 150 * S, 190 * S, 270 * S, 430 * S, 730 * S, 1030 * S]);
    const watch = (await w.store.getTx(tx.refId))!.watch!;
    // attempts counts the checks after the young phase (the backoff step).
    expect(watch).toMatchObject({ attempts: 8, nextCheckAt: t0 + 1330 * S });
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(0);
  });

  it("resumes after a restart where it was: no check early, none lost, the outcome announced once", async () => {
    // No young phase: the doubling timeline below shows "where it was" more clearly.
    w = await makeWorld({ watcher: { youngMs: 0 }, sandbox: { settleMs: 3 * MIN } });
    const u = await w.linkedUser();
    const t0 = w.clock.now();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");

    await run(w, 40 * S); // checks at 5, 15, 35 s; next due at 75 s
    expect(statusTimes(w, t0)).toEqual([5 * S, 15 * S, 35 * S]);
    expect((await w.store.getTx(tx.refId))!.watch).toMatchObject({ attempts: 3, nextCheckAt: t0 + 75 * S });

    await w.restart();
    expect(w.watcher!.stats().scheduled).toBe(1);
    await run(w, 5 * MIN);
    // 75 and 155 s as planned; the sandbox settles at 180 s, seen at 315 s.
    expect(statusTimes(w, t0)).toEqual([5 * S, 15 * S, 35 * S, 75 * S, 155 * S, 315 * S]);
    expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "success", watch: { notified: "success" } });
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);

    // Downtime longer than the wait: the overdue check runs at once after the restart.
    const tx2 = await pendingPrepaid(w, u.chatId, "081234567891");
    await w.restart();
    await w.clock.advance(10 * MIN);
    await run(w, 1);
    expect((await w.store.getTx(tx2.refId))!.status).toBe("success");
    expect(noticesAbout(w, u.chatId, tx2.refId)).toHaveLength(1);
    await w.restart();
    await run(w, HOUR);
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);
    expect(noticesAbout(w, u.chatId, tx2.refId)).toHaveLength(1);
  });

  it("gives up after the maximum age: tells the chat once how to check, stops polling, /status still works", async () => {
    w = await makeWorld({ watcher: { maxAgeMs: 2 * HOUR }, sandbox: { settleMs: 10 * HOUR } });
    const u = await w.linkedUser();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");

    await run(w, 2 * HOUR - S);
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(0);
    await run(w, 2 * S);
    const notices = noticesAbout(w, u.chatId, tx.refId);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("masih diproses");
    expect(notices[0]).toContain(`/status ${tx.refId}`);
    expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "pending", watch: { gaveUp: true } });

    const calls = statusCalls(w);
    await run(w, 6 * HOUR);
    expect(statusCalls(w)).toBe(calls);
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);

    // Given up is not forgotten by a restart either.
    await w.restart();
    await run(w, HOUR);
    expect(statusCalls(w)).toBe(calls);

    // checkNow still looks at a given-up transaction (once), without a second give-up notice.
    await w.watcher!.checkNow(tx.refId);
    expect(statusCalls(w)).toBe(calls + 1);
    await run(w, HOUR);
    expect(statusCalls(w)).toBe(calls + 1);
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);

    await w.clock.advance(3 * HOUR); // the sandbox settles at 10 h
    await u.sendCommand("status", tx.refId);
    expect(statusCalls(w)).toBe(calls + 2);
    expect(u.lastReply()).toContain("Berhasil");
    expect((await w.store.getTx(tx.refId))!.status).toBe("success");
  });

  it("an unknown outcome without the provider's id: found by our reference when the provider has it", async () => {
    w = await makeWorld({ watcher: true, sandbox: { settleMs: 30 * S } });
    const u = await w.linkedUser();
    // The create reached the provider, but its answer was lost (timeout): no provider id.
    const made = await pendingPrepaid(w, u.chatId, "081234567890");
    const upstreamId = made.upstreamId!;
    await w.store.updateTx(made.refId, { status: "unknown", upstreamId: undefined, watch: { nextCheckAt: w.clock.now() + 5 * S, attempts: 0, notified: "unknown" } });

    await run(w, 10 * S);
    expect(w.sandbox.calls("/transaksi/status")[0]!.body.id).toBe(made.refId);
    expect(await w.store.getTx(made.refId)).toMatchObject({ status: "pending", upstreamId });
    expect(noticesAbout(w, u.chatId, made.refId)).toHaveLength(0);

    await run(w, 2 * MIN);
    expect((await w.store.getTx(made.refId))!.status).toBe("success");
    expect(noticesAbout(w, u.chatId, made.refId)).toHaveLength(1);
  });

  it("an unknown outcome the provider never saw stays unknown, then points to the dashboard at the maximum age", async () => {
    w = await makeWorld({ watcher: { maxAgeMs: HOUR } });
    const u = await w.linkedUser();
    const sent = await w.bot.api.sendMessage(u.chatId, "outcome unknown");
    const tx = await w.store.createTx({ refId: "TP260115NEVERSEEN1", chatId: u.chatId, kind: "prepaid", status: "unknown", code: "S10", target: "081234567890", amount: 10_500, messageId: sent.message_id });
    w.deps.events.emit("created", tx);

    await run(w, HOUR - S);
    expect(statusCalls(w, tx.refId)).toBeGreaterThan(5);
    expect((await w.store.getTx(tx.refId))!.status).toBe("unknown");
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(0);

    await run(w, 2 * S);
    const notices = noticesAbout(w, u.chatId, tx.refId);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("dashboard penyedia");
    expect(notices[0]).toContain(tx.refId);
    expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "unknown", watch: { gaveUp: true } });
  });

  it("a record left in 'sending' by a crash: looked up after the grace, then unknown (announced once) if the provider has none", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser();
    const confirm = await w.bot.api.sendMessage(u.chatId, "confirm screen");
    await w.restart(); // the watcher starts with the record already there, as after a crash
    await w.store.createTx({ refId: "TP260115CRASHED001", chatId: u.chatId, kind: "prepaid", status: "sending", code: "S10", target: "081234567890", amount: 10_500, messageId: confirm.message_id });
    await w.store.flush();
    await w.restart();

    await run(w, 119 * S);
    expect(statusCalls(w)).toBe(0);
    await run(w, 2 * S);
    expect(statusCalls(w, "TP260115CRASHED001")).toBe(1);
    expect(await w.store.getTx("TP260115CRASHED001")).toMatchObject({ status: "unknown", watch: { notified: "unknown" } });
    const notices = noticesAbout(w, u.chatId, "TP260115CRASHED001");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("Jangan ulangi");
    await run(w, HOUR);
    expect(noticesAbout(w, u.chatId, "TP260115CRASHED001")).toHaveLength(1);
  });
});

describe("status watcher: deposits expire late", () => {
  it("keeps checking a QRIS 30 min after expiry; unpaid -> expired (caption edited, buttons gone), no message", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser();
    const dep = await pendingQris(w, u.chatId);
    const expiresAt = detailOf(dep, "deposit").expiresAt!;

    await run(w, expiresAt - w.clock.now() + 29 * MIN);
    expect((await w.store.getTx(dep.refId))!.status).toBe("pending");
    expect(w.fake.message(u.chatId, dep.messageId!)!.caption).not.toContain("KEDALUWARSA");

    await run(w, 2 * MIN);
    expect(await w.store.getTx(dep.refId)).toMatchObject({ status: "expired", watch: { notified: "expired" } });
    const photo = w.fake.message(u.chatId, dep.messageId!)!;
    expect(photo.caption).toContain("KEDALUWARSA");
    expect(photo.inlineKeyboard).toBeUndefined();
    // The photo no longer carries a payable code.
    expect(() => decodeQrPng(u.lastPhoto())).toThrow(/No QR code/);
    expect(noticesAbout(w, u.chatId, dep.refId)).toHaveLength(0);
    const calls = statusCalls(w);
    await run(w, 2 * HOUR);
    expect(statusCalls(w)).toBe(calls);
  });

  it("a QRIS paid late (after expiry, within the window) is announced as paid", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser();
    const dep = await pendingQris(w, u.chatId, "qrisfast", 30_000);
    const expiresAt = detailOf(dep, "deposit").expiresAt!;

    await run(w, expiresAt - w.clock.now() + 10 * MIN);
    expect((await w.store.getTx(dep.refId))!.status).toBe("pending");
    w.sandbox.payDeposit(dep.upstreamId!); // 10 min late; the sandbox accepts 15
    await run(w, 20 * MIN);
    expect(await w.store.getTx(dep.refId)).toMatchObject({ status: "success", watch: { notified: "success" } });
    expect(noticesAbout(w, u.chatId, dep.refId)).toHaveLength(1);
    expect(w.fake.message(u.chatId, dep.messageId!)!.caption).toContain("LUNAS");
    // Paid: the photo no longer carries a code anybody could pay a second time.
    expect(() => decodeQrPng(w.fake.message(u.chatId, dep.messageId!)!.file!.bytes)).toThrow(/No QR code/);
  });

  it("a QRIS paid and waiting for next-day settlement: the photo shows a paid card, not the code", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser();
    const dep = await pendingQris(w, u.chatId, "qris");
    expect(decodeQrPng(w.fake.message(u.chatId, dep.messageId!)!.file!.bytes)).toBeTruthy();
    w.sandbox.payDeposit(dep.upstreamId!);
    await run(w, 2 * MIN);
    expect((await w.store.getTx(dep.refId))!.status).toBe("processing");
    const photo = w.fake.message(u.chatId, dep.messageId!)!;
    expect(photo.caption).toContain("SUDAH DIBAYAR");
    expect(() => decodeQrPng(photo.file!.bytes)).toThrow(/No QR code/);
    expect(w.fake.callsOf("editMessageMedia").filter((c) => c.payload.message_id === dep.messageId)).toHaveLength(1);
  });
});

describe("status watcher: chats that cannot be told or polled", () => {
  it("a chat that blocked the bot (403) is still polled; when it unblocks it gets the notices it missed", async () => {
    w = await makeWorld({ watcher: { maxAgeMs: 48 * HOUR }, sandbox: { settleMs: 30 * S } });
    const u = await w.linkedUser();
    const first = await pendingPrepaid(w, u.chatId, "081234567890"); // settles at 30 s, seen at 35 s
    await run(w, 25 * S);
    const second = await pendingPrepaid(w, u.chatId, "081234567891"); // settles at 55 s
    w.fake.setResponder((method, payload) =>
      payload.chat_id === u.chatId && (method === "sendMessage" || method.startsWith("editMessage")) ? TelegramErrors.blocked() : undefined,
    );

    await run(w, 11 * S);
    expect((await w.store.getTx(first.refId))!.status).toBe("success"); // recorded, though it could not be told
    expect((await w.store.getChat(u.chatId))!.inactive).toBe(true);
    await run(w, 6 * HOUR);
    // Still checked while blocked, so the record is right.
    expect((await w.store.getTx(second.refId))!.status).toBe("success");
    expect(noticesAbout(w, u.chatId, first.refId)).toHaveLength(0);

    // The user unblocks the bot: Telegram sends my_chat_member "member".
    w.fake.setResponder(undefined);
    await u.deliver(memberUpdate(w, u, "kicked", "member"));
    await w.watcher!.whenIdle();
    expect((await w.store.getChat(u.chatId))!.inactive).toBe(false);
    expect(noticesAbout(w, u.chatId, first.refId)).toHaveLength(1);
    expect(noticesAbout(w, u.chatId, second.refId)).toHaveLength(1);
    expect((await w.store.getTx(first.refId))!.watch).toMatchObject({ notified: "success" });

    // Nothing is owed any more: another update sends nothing again.
    await u.sendCommand("bantuan");
    await w.watcher!.whenIdle();
    expect(noticesAbout(w, u.chatId, first.refId)).toHaveLength(1);
  });

  it("my_chat_member 'kicked' marks the chat inactive; any message from it clears the mark and delivers what it missed", async () => {
    w = await makeWorld({ watcher: { maxAgeMs: 48 * HOUR }, sandbox: { settleMs: 30 * S } });
    const u = await w.linkedUser();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    await u.deliver(memberUpdate(w, u, "member", "kicked"));
    expect((await w.store.getChat(u.chatId))!.inactive).toBe(true);
    await run(w, 2 * MIN);
    expect((await w.store.getTx(tx.refId))!.status).toBe("success");
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(0); // not even tried while blocked

    await u.sendCommand("saldo");
    await w.watcher!.whenIdle();
    expect((await w.store.getChat(u.chatId))!.inactive).toBe(false);
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);
  });

  it("a return that reached no leading watcher (a hand-over between processes) is taken up at the chat's next message", async () => {
    w = await makeWorld({ watcher: { maxAgeMs: 48 * HOUR }, sandbox: { settleMs: 30 * S } });
    const u = await w.linkedUser();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    await u.deliver(memberUpdate(w, u, "member", "kicked"));
    await run(w, 2 * MIN);
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(0);

    // This process does not lead just now: the "chat came back" reaches no watcher.
    await w.watcher!.pause();
    await u.sendCommand("saldo");
    await w.watcher!.start();
    await run(w, 1 * MIN);
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(0);

    // Two messages at once: the notice still goes out once.
    await Promise.all([u.sendCommand("saldo"), u.sendCommand("riwayat")]);
    await w.watcher!.whenIdle();
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);
    expect((await w.store.getChat(u.chatId))!.owedNotices).toBeUndefined();
    // Delivered: further messages send nothing again.
    await u.sendCommand("saldo");
    await w.watcher!.whenIdle();
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);
  });

  it("a chat whose key was removed is not polled; linking again resumes", async () => {
    w = await makeWorld({ watcher: true, sandbox: { settleMs: 20 * MIN } });
    const u = await w.linkedUser();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    await run(w, 20 * S);
    const calls = statusCalls(w);
    await w.store.clearApiKey(u.chatId);
    await run(w, 30 * MIN);
    expect(statusCalls(w)).toBe(calls);
    await w.store.setApiKey(u.chatId, w.demoKey);
    await run(w, 10 * MIN);
    expect((await w.store.getTx(tx.refId))!.status).toBe("success");
    expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);
  });
});

/** The update Telegram sends when a user blocks ("kicked") or unblocks ("member") the bot. */
function memberUpdate(w: World, u: FakeUser, from: "member" | "kicked", to: "member" | "kicked"): Update {
  const bot = { id: 999, is_bot: true, first_name: "Bot", username: "ppob_test_bot" };
  const date = Math.floor(w.clock.now() / 1000);
  return {
    update_id: w.fake.nextUpdateId(),
    my_chat_member: {
      chat: u.chat,
      from: u.user,
      date,
      old_chat_member: from === "kicked" ? { status: "kicked", user: bot, until_date: 0 } : { status: "member", user: bot },
      new_chat_member: to === "kicked" ? { status: "kicked", user: bot, until_date: 0 } : { status: "member", user: bot },
    },
  } as Update;
}
