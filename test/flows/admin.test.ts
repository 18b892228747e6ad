import { afterEach, describe, expect, it } from "vitest";
import type { FakeUser } from "../support/chat.js";
import { TelegramErrors } from "../support/fakeBotApi.js";
import { makeWorld, type World } from "../support/world.js";
import { settle } from "../support/settle.js";

const ADMIN = 990_101;
let w: World;
afterEach(() => w.close());

async function setup(n: number): Promise<{ admin: FakeUser; users: FakeUser[] }> {
  w = await makeWorld({
    adminIds: [ADMIN],
    sandbox: {
      keys: [
        { key: "KEY-RICH", balance: 1_000_000 },
        { key: "KEY-POOR", balance: 5_000 },
      ],
    },
  });
  const admin = w.user({ id: ADMIN, languageCode: "en" });
  const users: FakeUser[] = [];
  for (let i = 0; i < n; i++) users.push(await w.linkedUser({ languageCode: i % 2 ? "en" : "id", key: "KEY-RICH" }));
  return { admin, users };
}

describe("admin commands are invisible to others", () => {
  it("a non-admin gets no reply at all to any admin command or button", async () => {
    const { users } = await setup(1);
    const u = users[0]!;
    for (const cmd of ["broadcast", "siaran", "ceksaldo", "balances", "admin"]) {
      expect(await u.sendCommand(cmd)).toEqual([]);
    }
    expect(await w.store.getMeta("broadcast")).toBeUndefined();
  });

  it("an admin in a group gets no reply either", async () => {
    await setup(0);
    const group = w.user({ id: ADMIN, chatType: "group" });
    expect(await group.sendCommand("broadcast")).toEqual([]);
  });

  it("/admin lists the admin commands to an admin", async () => {
    const { admin } = await setup(0);
    await admin.sendCommand("admin");
    expect(admin.lastReply()).toContain("/broadcast");
    expect(admin.lastReply()).toContain("/balances");
  });
});

describe("/ceksaldo (/balances): the admin balance round", () => {
  it("sends every linked chat its balance, warns those under their threshold, and sums up for the admin", async () => {
    const { admin, users } = await setup(2);
    const [rich, richBlocked] = users as [FakeUser, FakeUser];
    await w.store.updateChat(rich.chatId, { alertThreshold: 100_000 });
    const poor = await w.linkedUser({ languageCode: "id", key: "KEY-POOR" });
    await w.store.updateChat(poor.chatId, { alertThreshold: 10_000, shopName: "Konter Poor" });
    w.fake.failNext("sendMessage", TelegramErrors.blocked(), { chatId: richBlocked.chatId });

    await admin.sendCommand("balances");
    expect(admin.lastReply()).toContain("Checking the balance of 3 chats");
    await settle(w.clock, w.deps.balanceRound!.done(), { stepMs: 20 });

    expect(rich.replies()).toEqual(["💰 Saldo Anda: Rp1.000.000"]);
    expect(poor.lastReply()).toContain("Saldo Anda: Rp5.000");
    expect(poor.lastReply()).toContain("Di bawah batas peringatan Anda (Rp10.000)");
    expect((await w.store.getChat(poor.chatId))!.alertFired).toBe(true);
    expect((await w.store.getChat(richBlocked.chatId))!.inactive).toBe(true);
    const summary = admin.lastReply()!;
    expect(summary).toContain("Balance round finished");
    expect(summary).toContain("Chats: 3");
    expect(summary).toContain("Sent: 2 (under threshold: 1)");
    // The chat under its threshold is named, with its balance and threshold, not only counted.
    expect(summary).toContain(`Under threshold:\n• Konter Poor · ${poor.chatId}: Rp5,000 (threshold Rp10,000)`);
    expect(summary).not.toContain(String(rich.chatId));
    expect(summary).toContain("Failed: 0");
    expect(summary).toContain("Blocked the bot: 1");

    // The warning was this dip's alert: the periodic check stays quiet.
    const before = w.fake.sentTo(poor.chatId).length;
    await settle(w.clock, w.deps.alerts!.runRound(), { stepMs: 20 });
    expect(w.fake.sentTo(poor.chatId)).toHaveLength(before);
  });

  it("counts chats whose balance cannot be read as failed", async () => {
    const { admin } = await setup(2);
    w.sandbox.fault("/get_profile", "html502");
    await admin.sendCommand("ceksaldo");
    await settle(w.clock, w.deps.balanceRound!.done(), { stepMs: 20 });
    expect(admin.lastReply()).toContain("Sent: 1 (under threshold: 0)");
    expect(admin.lastReply()).toContain("Failed: 1");
  });
});

describe("/broadcast", () => {
  it("composes, previews exactly, confirms, delivers in the background and reports", async () => {
    const { admin, users } = await setup(4);
    await admin.sendCommand("broadcast");
    expect(admin.lastReply()).toContain("Send the message to broadcast");

    const entities = [{ type: "bold" as const, offset: 0, length: 5 }];
    await admin.sendMessage({ text: "Promo <b> & diskon", entities });
    const [preview, confirm] = admin.replies();
    expect(preview).toBe("Promo <b> & diskon");
    const previewCall = w.fake.sentTo(ADMIN).find((c) => c.payload.text === "Promo <b> & diskon")!;
    expect(previewCall.payload.entities).toEqual(entities);
    expect(previewCall.payload.parse_mode).toBeUndefined();
    expect(confirm).toContain("Send it to 4 chats?");
    expect(admin.buttons()).toEqual(["📣 Send", "❌ Cancel"]);

    await admin.pressButton("📣 Send");
    expect(admin.replies()).toContain("📣 Broadcast started to 4 chats.");
    await settle(w.clock, w.deps.broadcaster!.idle(), { stepMs: 20 });

    for (const u of users) {
      const got = w.fake.sentTo(u.chatId);
      expect(got).toHaveLength(1);
      expect(got[0]!.payload).toMatchObject({ text: "Promo <b> & diskon", entities });
    }
    const finished = admin.messages().filter((m) => m.from === "bot" && m.text?.includes("Broadcast finished"));
    expect(finished).toHaveLength(1);
    expect(admin.lastReply()).toContain("4 sent, 0 failed, 0 blocked");
    expect(await w.store.getMeta(`broadcast:draft:${ADMIN}`)).toBeUndefined();

    // The Send button of a finished draft does nothing more.
    const confirmMessage = admin.messages().find((m) => m.text?.includes("Broadcast started"))!;
    expect(confirmMessage.inlineKeyboard).toBeUndefined();
  });

  it("a linked admin is not a recipient of their own broadcast, and its end is told once", async () => {
    const { users } = await setup(2);
    const admin = await w.linkedUser({ id: ADMIN, languageCode: "en", key: "KEY-RICH" });
    await admin.sendCommand("broadcast");
    await admin.sendText("Promo");
    expect(admin.lastReply()).toContain("Send it to 2 chats?");
    await admin.pressButton("📣 Send");
    expect(admin.replies()).toContain("📣 Broadcast started to 2 chats.");
    await settle(w.clock, w.deps.broadcaster!.idle(), { stepMs: 20 });
    for (const u of users) expect(w.fake.sentTo(u.chatId).map((c) => c.payload.text)).toEqual(["Promo"]);
    const toAdmin = admin.messages().filter((m) => m.from === "bot");
    expect(toAdmin.filter((m) => m.text === "Promo")).toHaveLength(1); // the preview only
    const finished = toAdmin.filter((m) => /finished/i.test(m.text ?? ""));
    expect(finished).toHaveLength(1);
    expect(finished[0]!.text).toContain("2 sent, 0 failed, 0 blocked");
  });

  it("broadcasts a photo by the admin's file_id with its caption", async () => {
    const { admin, users } = await setup(2);
    await admin.sendCommand("siaran");
    const photo = [
      { file_id: "small-id", file_unique_id: "s1", width: 90, height: 90 },
      { file_id: "big-id", file_unique_id: "b1", width: 1280, height: 1280 },
    ];
    await admin.sendMessage({ photo, caption: "Harga baru mulai besok" });
    const preview = w.fake.sentTo(ADMIN).find((c) => c.method === "sendPhoto")!;
    expect(preview.payload).toMatchObject({ photo: "big-id", caption: "Harga baru mulai besok" });
    await admin.pressButton("📣 Send");
    await settle(w.clock, w.deps.broadcaster!.idle(), { stepMs: 20 });
    for (const u of users) {
      const [call] = w.fake.sentTo(u.chatId);
      expect(call!.method).toBe("sendPhoto");
      expect(call!.payload).toMatchObject({ photo: "big-id", caption: "Harga baru mulai besok" });
      expect(call!.files).toEqual({});
    }
  });

  it("asks again for something that is neither text nor photo", async () => {
    const { admin } = await setup(1);
    await admin.sendCommand("broadcast");
    await admin.sendMessage({ sticker: { file_id: "st", file_unique_id: "st", type: "regular", width: 1, height: 1, is_animated: false, is_video: false } });
    expect(admin.lastReply()).toContain("Send text or one photo");
  });

  it("cancel at the confirm step sends nothing", async () => {
    const { admin, users } = await setup(2);
    await admin.sendCommand("broadcast");
    await admin.sendText("Jangan dikirim");
    await admin.pressButton("❌ Cancel");
    expect(admin.lastReply()).toContain("Broadcast cancelled");
    await w.clock.advance(5_000);
    for (const u of users) expect(w.fake.sentTo(u.chatId)).toEqual([]);
    expect(await w.store.getMeta("broadcast")).toBeUndefined();
  });

  it("refuses a second broadcast while one runs", async () => {
    const { admin, users } = await setup(30);
    await admin.sendCommand("broadcast");
    await admin.sendText("Pertama");
    await admin.pressButton("📣 Send");
    // 25 messages per second: the rest waits for clock time, so it is still running.
    expect(await w.deps.broadcaster!.isRunning()).toBe(true);
    await admin.sendCommand("broadcast");
    expect(admin.lastReply()).toMatch(/A broadcast is still running \(sent \d+, remaining \d+\)/);

    await settle(w.clock, w.deps.broadcaster!.idle(), { stepMs: 20 });
    for (const u of users) expect(w.fake.sentTo(u.chatId)).toHaveLength(1);
    await admin.sendCommand("broadcast");
    expect(admin.lastReply()).toContain("Send the message to broadcast");
  });

  it("the Send button survives a restart and is good for one broadcast only", async () => {
    const { admin, users } = await setup(2);
    await admin.sendCommand("broadcast");
    await admin.sendText("Setelah restart");
    const send = admin.callbackUpdate("📣 Send");
    await w.restart();
    await admin.deliver(send);
    await settle(w.clock, w.deps.broadcaster!.idle(), { stepMs: 20 });
    for (const u of users) expect(w.fake.sentTo(u.chatId)).toHaveLength(1);
    await admin.deliver({ ...send, update_id: w.fake.nextUpdateId() });
    expect(admin.lastReply()).toContain("no longer valid");
    await settle(w.clock, w.deps.broadcaster!.idle(), { stepMs: 20 });
    for (const u of users) expect(w.fake.sentTo(u.chatId)).toHaveLength(1);
  });
});
