import { afterEach, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { BROADCAST_META_KEY, type BroadcastState } from "../../src/jobs/broadcastState.js";
import { SendPacer } from "../../src/telegram/pacer.js";
import type { FakeUser } from "../support/chat.js";
import { TelegramErrors, type RecordedCall } from "../support/fakeBotApi.js";
import { makeWorld, type World, type WorldOptions } from "../support/world.js";
import { REAL_TIME_BOUND, settle } from "../support/settle.js";

const ADMIN = 990_001;
const TEXT = { kind: "text", text: "Maintenance malam ini 23.00-24.00 WIB" } as const;

let w: World;
afterEach(() => w.close());

async function world(n: number, opts: WorldOptions = {}): Promise<FakeUser[]> {
  w = await makeWorld({ adminIds: [ADMIN], ...opts });
  const users: FakeUser[] = [];
  for (let i = 0; i < n; i++) users.push(await w.linkedUser({ languageCode: "en" }));
  return users;
}

const delivered = (chatId: number): RecordedCall[] =>
  w.fake.sentTo(chatId).filter((c) => c.method === "sendMessage" || c.method === "sendPhoto");
const attempts = (chatId: number): RecordedCall[] =>
  w.fake.calls.filter((c) => c.method === "sendMessage" && c.payload.chat_id === chatId);
const state = async () => (await w.store.getMeta<BroadcastState>(BROADCAST_META_KEY))!;

describe("Broadcaster", () => {
  it("waits out a 429's retry_after on the clock and gives everyone exactly one copy", async () => {
    const users = await world(6);
    w.fake.failNext("sendMessage", TelegramErrors.tooManyRequests(3), { chatId: users[2]!.chatId });
    const b = w.deps.broadcaster!;
    expect(await b.start(ADMIN, "en", TEXT)).toEqual({ ok: true, total: 6 });
    await settle(w.clock, b.idle(), { stepMs: 100 });

    for (const u of users) {
      expect(delivered(u.chatId)).toHaveLength(1);
      expect(w.fake.textOf(delivered(u.chatId)[0]!)).toBe(TEXT.text);
    }
    const limited = w.fake.calls.find((c) => c.response?.ok === false && c.response.error_code === 429)!;
    const retried = delivered(users[2]!.chatId)[0]!;
    expect(retried.at - limited.at).toBeGreaterThanOrEqual(3000);
    // Nobody was sent anything while the flood wait ran.
    const during = w.fake.calls.filter((c) => c.method === "sendMessage" && c.seq > limited.seq && c.at < limited.at + 3000);
    expect(during).toEqual([]);
    expect(await state()).toMatchObject({ status: "done", sent: 6, failed: 0, blocked: 0, uncertain: 0 });
  });

  it("marks 403 chats inactive and skips them next time; other errors count as failed", async () => {
    const users = await world(5);
    const [a, blocked, c, gone, e] = users as [FakeUser, FakeUser, FakeUser, FakeUser, FakeUser];
    w.fake.failNext("sendMessage", TelegramErrors.blocked(), { chatId: blocked.chatId });
    w.fake.failNext("sendMessage", TelegramErrors.userDeactivated(), { chatId: gone.chatId });
    w.fake.failNext("sendMessage", TelegramErrors.internal(), { chatId: e.chatId });
    const b = w.deps.broadcaster!;
    await b.start(ADMIN, "en", TEXT);
    await settle(w.clock, b.idle(), { stepMs: 100 });
    expect(await state()).toMatchObject({ sent: 2, failed: 1, blocked: 2 });
    expect((await w.store.getChat(blocked.chatId))!.inactive).toBe(true);
    expect((await w.store.getChat(gone.chatId))!.inactive).toBe(true);
    expect((await w.store.getChat(e.chatId))!.inactive).toBeUndefined();
    const summary = w.fake.textOf(w.fake.sentTo(ADMIN).at(-1)!); // the progress message, now the summary
    expect(summary).toContain("2 sent, 1 failed, 2 blocked");

    expect(await b.start(ADMIN, "en", { kind: "text", text: "Second" })).toEqual({ ok: true, total: 3 });
    await settle(w.clock, b.idle(), { stepMs: 100 });
    expect(attempts(blocked.chatId)).toHaveLength(1);
    expect(attempts(gone.chatId)).toHaveLength(1);
    for (const u of [a, c, e]) expect(w.fake.sentTo(u.chatId).map((m) => w.fake.textOf(m)).at(-1)).toBe("Second");
  });

  it("keeps under 25 messages per second of clock time and edits ONE progress message", async () => {
    const users = await world(60, { broadcast: { progressEveryMs: 1000 } });
    w.fake.limitRate({ perSecond: 30 });
    const b = w.deps.broadcaster!;
    await b.start(ADMIN, "en", TEXT);
    await settle(w.clock, b.idle(), { stepMs: 20 }); // small clock steps, so the pacer (not the test's stepping) sets the pace

    for (const u of users) expect(delivered(u.chatId)).toHaveLength(1);
    expect(w.fake.calls.filter((c) => c.response?.ok === false)).toEqual([]);
    const sends = w.fake.calls.filter((c) => c.method === "sendMessage").map((c) => c.at);
    for (const t of sends) expect(sends.filter((s) => s >= t && s < t + 1000).length).toBeLessThanOrEqual(25);
    expect(sends.at(-1)! - sends[0]!).toBeGreaterThanOrEqual(2000); // 61 messages at 25/s

    const toAdmin = w.fake.sentTo(ADMIN);
    const progress = toAdmin.filter((c) => c.method === "sendMessage" && String(c.payload.text).includes("Broadcast running"));
    expect(progress).toHaveLength(1);
    const progressId = (progress[0]!.response as { result: { message_id: number } }).result.message_id;
    const edits = toAdmin.filter((c) => c.method === "editMessageText");
    expect(edits.length).toBeGreaterThanOrEqual(2);
    expect(edits.every((c) => c.payload.message_id === progressId)).toBe(true);
    // The end is told once: the summary replaces the progress message.
    expect(w.fake.message(ADMIN, progressId)!.text).toContain("Broadcast finished: 60 sent, 0 failed, 0 blocked");
    expect(toAdmin.filter((c) => c.method === "sendMessage")).toHaveLength(1);
  });

  it("resumes after a restart mid-way: every chat ends with exactly one copy", async () => {
    const users = await world(40);
    const b = w.deps.broadcaster!;
    await b.start(ADMIN, "en", TEXT);
    // Without clock time the pacer lets 25 messages out (progress + 24 copies), then waits.
    await vi.waitFor(() => expect(users.filter((u) => delivered(u.chatId).length > 0)).toHaveLength(24), REAL_TIME_BOUND);
    const progressId = (await state()).progressMessageId;
    await w.restart();
    expect(await state()).toMatchObject({ status: "running", sent: 24 });
    expect((await state()).pending).toBeUndefined();

    const again = w.deps.broadcaster!;
    expect(await again.isRunning()).toBe(true);
    expect(await again.resume()).toBe(true);
    await settle(w.clock, again.idle(), { stepMs: 100 });
    for (const u of users) expect(delivered(u.chatId)).toHaveLength(1);
    expect(await state()).toMatchObject({ status: "done", sent: 40, uncertain: 0, progressMessageId: progressId });
    expect(w.fake.sentTo(ADMIN).filter((c) => c.method === "sendMessage")).toHaveLength(1); // progress, then the summary in its place
  });

  it("after a crash during a send, the uncertain chat is not sent again", async () => {
    const users = await world(30);
    const b = w.deps.broadcaster!;
    await b.start(ADMIN, "en", TEXT);
    await vi.waitFor(() => expect(users.filter((u) => delivered(u.chatId).length > 0)).toHaveLength(24), REAL_TIME_BOUND);
    await b.stop();
    // What a crash between "pending flushed" and the answer leaves behind: the next chat in flight.
    const inFlight = users[24]!.chatId;
    await w.store.setMeta(BROADCAST_META_KEY, { ...await state(), pending: inFlight });
    await w.restart();
    await w.deps.broadcaster!.resume();
    await settle(w.clock, w.deps.broadcaster!.idle(), { stepMs: 100 });
    expect(attempts(inFlight)).toHaveLength(0);
    for (const u of users) if (u.chatId !== inFlight) expect(delivered(u.chatId)).toHaveLength(1);
    expect(await state()).toMatchObject({ status: "done", sent: 29, uncertain: 1 });
    expect(w.fake.textOf(w.fake.sentTo(ADMIN).at(-1)!)).toContain("1 chat(s) were being sent to");
  });

  it("refuses a second broadcast while one runs, and one with nobody to send to", async () => {
    await world(30);
    const b = w.deps.broadcaster!;
    expect((await b.start(ADMIN, "en", TEXT)).ok).toBe(true);
    expect(await b.start(ADMIN, "en", { kind: "text", text: "again" })).toEqual({ ok: false, reason: "running" });
    await settle(w.clock, b.idle(), { stepMs: 100 });
    expect(await b.isRunning()).toBe(false);

    await w.close();
    w = await makeWorld({ adminIds: [ADMIN] });
    expect(await w.deps.broadcaster!.start(ADMIN, "en", TEXT)).toEqual({ ok: false, reason: "no-recipients" });
  });

  it("sends a photo by the admin's file_id with its caption, no upload", async () => {
    const users = await world(3);
    const b = w.deps.broadcaster!;
    await b.start(ADMIN, "id", { kind: "photo", fileId: "AgACAgadmin-photo", caption: "Promo hari ini" });
    await settle(w.clock, b.idle(), { stepMs: 100 });
    for (const u of users) {
      const [call] = delivered(u.chatId);
      expect(call!.method).toBe("sendPhoto");
      expect(call!.payload.photo).toBe("AgACAgadmin-photo");
      expect(call!.payload.caption).toBe("Promo hari ini");
      expect(call!.files).toEqual({});
    }
    expect(w.fake.textOf(w.fake.sentTo(ADMIN).at(-1)!)).toContain("Siaran selesai: 3 terkirim");
  });
  it("a restart during a 429 wait resends that chat's copy (the 429 means it was not delivered)", async () => {
    const users = await world(4);
    w.fake.failNext("sendMessage", TelegramErrors.tooManyRequests(60), { chatId: users[1]!.chatId });
    const b = w.deps.broadcaster!;
    await b.start(ADMIN, "en", TEXT);
    await vi.waitFor(() => expect(attempts(users[1]!.chatId)).toHaveLength(1), REAL_TIME_BOUND);
    await w.restart();
    expect(await state()).toMatchObject({ sent: 1, doneThrough: users[0]!.chatId });
    expect((await state()).pending).toBeUndefined();
    await w.deps.broadcaster!.resume();
    await settle(w.clock, w.deps.broadcaster!.idle(), { stepMs: 100 });
    for (const u of users) expect(delivered(u.chatId)).toHaveLength(1);
    expect(await state()).toMatchObject({ status: "done", sent: 4, uncertain: 0 });
  });
});

describe("SendPacer", () => {
  it("lets `perSecond` through per second of clock time and holds everyone during a 429 pause", async () => {
    const clock = new ManualClock();
    const pacer = new SendPacer(clock, 3);
    const times: number[] = [];
    const take = async () => {
      await pacer.acquire();
      times.push(clock.now() - start);
    };
    const start = clock.now();
    const all = Promise.all(Array.from({ length: 7 }, take));
    await clock.advance(2500);
    await all;
    expect(times).toEqual([0, 0, 0, 1000, 1000, 1000, 2000]);

    pacer.pause(5000);
    const late = take();
    await clock.advance(4999);
    expect(times).toHaveLength(7);
    await clock.advance(1);
    await late;
    expect(times.at(-1)).toBe(7500);
  });

  it("a slot counts from when its request goes out: work before the send cannot bunch requests", async () => {
    const clock = new ManualClock();
    const pacer = new SendPacer(clock, 2);
    const start = clock.now();
    const slow = (await pacer.take())!; // its request waits 300 ms for a store flush
    (await pacer.take())!.goingOut();
    await clock.advance(300);
    slow.goingOut();
    const times: number[] = [];
    const all = Promise.all([0, 1].map(() => pacer.take().then(() => times.push(clock.now() - start))));
    await clock.advance(1500);
    await all;
    // Counted from when it was taken, the slow one would free its slot at 1000: three requests in [300, 1300).
    expect(times).toEqual([1000, 1300]);
  });

  it("an aborted wait takes no slot", async () => {
    const clock = new ManualClock();
    const pacer = new SendPacer(clock, 1);
    expect(await pacer.acquire()).toBe(true);
    const abort = new AbortController();
    const waiting = pacer.acquire(abort.signal);
    abort.abort();
    expect(await waiting).toBe(false);
    await clock.advance(1000);
    expect(await pacer.acquire()).toBe(true);
  });
});
