/**
 * Telegram's flood limit (30 messages/s, 429 with retry_after past it) with 200 users at once:
 * every answer and every QR photo arrives, and no key message is deleted before its link is saved.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { SendPacer } from "../../src/telegram/pacer.js";
import type { FakeUser } from "../support/chat.js";
import { TelegramErrors } from "../support/fakeBotApi.js";
import { makeWorld, type World } from "../support/world.js";
import { settle } from "../support/settle.js";

let w: World;
afterEach(() => w.close());

/**
 * Runs `p` while moving the clock (and real time, for the sandbox's HTTP answers and the database)
 * until it settles. The budget is clock time (5000 x 50 ms); each step waits 10 ms of real time, so
 * the clock runs at most 5x real time: on PostgreSQL the work waits for ~6,500 real queries, and when
 * a loaded server answered slowly, 1 ms steps spent the whole budget before the work was done.
 * (The pool size is not the limit: 3, 10 or 30 connections take the same time.)
 */
const FLOOD_STEPS = { stepMs: 50, realMs: 10, tries: 5000, what: "the users' actions did not finish" };

async function pickQris(u: FakeUser): Promise<void> {
  for (let page = 0; page < 5 && !u.findButton(/^QRIS · /); page++) await u.pressButton(/Berikutnya|Next/);
  await u.pressButton(/^QRIS · /);
}

describe("under Telegram's flood limit (30 messages/s)", () => {
  it("200 users at once: 100 link their key and 100 create a QRIS deposit; every answer and every QR photo arrives", async () => {
    // The clock runs fast here; the sandbox answers over real HTTP: no upstream timeout in this test.
    w = await makeWorld({ paceAnswers: true, upstreamTimeoutMs: 3_600_000 });
    w.fake.limitRate({ perSecond: 30 });
    const linking = Array.from({ length: 100 }, () => w.user({ languageCode: "id" }));
    const depositing = await Promise.all(Array.from({ length: 100 }, () => w.linkedUser({ languageCode: "id" })));
    await w.store.flush();

    // At the moment a key message is deleted, its link is already saved (what a crash would leave).
    const deletedBeforeSaved: number[] = [];
    const checks: Promise<void>[] = [];
    w.fake.setResponder((method, payload) => {
      if (method === "deleteMessage") {
        const id = payload.chat_id as number;
        checks.push(w.savedChat(id).then((c) => void (c?.apiKeyEnc === undefined && deletedBeforeSaved.push(id))));
      }
      return undefined;
    });

    const link = async (u: FakeUser) => {
      await u.sendCommand("start");
      expect(u.lastReply()).toContain("Halo");
      await u.sendText(w.demoKey);
      return u.lastReply();
    };
    const deposit = async (u: FakeUser) => {
      await u.sendCommand("deposit");
      await pickQris(u);
      await u.sendText("50rb");
      await u.pressButton("✅ Konfirmasi");
      return u.lastPhoto();
    };
    await settle(w.clock, Promise.all([...linking.map(link), ...depositing.map(deposit)]), FLOOD_STEPS);

    const limited = w.fake.calls.filter((c) => c.response?.ok === false && c.response.error_code === 429);
    const failed = w.fake.calls.filter((c) => c.response?.ok === false && c.response.error_code !== 429);
    expect(failed.map((c) => `${c.method}: ${(c.response as { description: string }).description}`)).toEqual([]);
    for (const u of linking) {
      expect(u.lastReply(), `chat ${u.chatId}`).toContain("API key terhubung");
      expect(await w.store.getApiKey(u.chatId)).toBe(w.demoKey);
      expect(u.messages().find((m) => m.from === "user" && m.text === w.demoKey)?.deleted).toBe(true);
    }
    await Promise.all(checks);
    expect(deletedBeforeSaved).toEqual([]);
    for (const u of depositing) {
      const photos = w.fake.sentTo(u.chatId).filter((c) => c.method === "sendPhoto" && c.response?.ok === true);
      expect(photos, `chat ${u.chatId}`).toHaveLength(1);
      expect((await w.store.listTxByChat(u.chatId)).items[0]?.status).toBe("pending");
    }
    // Nobody was told something went wrong, and the pace kept (almost) every message inside the limit.
    for (const u of [...linking, ...depositing]) {
      for (const c of w.fake.sentTo(u.chatId)) expect(w.fake.textOf(c) ?? "").not.toMatch(/Maaf, terjadi kesalahan/);
    }
    expect(limited.length).toBeLessThan(5);
  }, 240_000);
});

describe("a 429 on an answer", () => {
  it("waits retry_after on the clock and sends the same QR photo again: it arrives once", async () => {
    w = await makeWorld({ paceAnswers: true, upstreamTimeoutMs: 3_600_000 });
    const u = await w.linkedUser({ languageCode: "id" });
    await settle(w.clock, u.sendCommand("deposit").then(() => pickQris(u)).then(() => u.sendText("50rb")), FLOOD_STEPS);
    w.fake.failNext("sendPhoto", TelegramErrors.tooManyRequests(3));
    const before = w.clock.now();
    await settle(w.clock, u.pressButton("✅ Konfirmasi"), FLOOD_STEPS);
    const photos = w.fake.callsOf("sendPhoto").filter((c) => c.payload.chat_id === u.chatId);
    expect(photos.map((c) => c.response?.ok)).toEqual([false, true]);
    expect(photos[1]!.at - before).toBeGreaterThanOrEqual(3000);
    expect(photos[1]!.files.photo!.bytes.equals(photos[0]!.files.photo!.bytes)).toBe(true);
    expect(u.lastReply()).toContain("Nominal: Rp50.000");
  }, 60_000);
});

describe("SendPacer priorities", () => {
  it("a waiting answer goes before bulk sends that were waiting longer", async () => {
    const clock = new ManualClock();
    const pacer = new SendPacer(clock, 1);
    await pacer.take(undefined, "bulk");
    const order: string[] = [];
    const bulk = [1, 2].map((i) => pacer.take(undefined, "bulk").then(() => order.push(`bulk${i}`)));
    const answer = pacer.take(undefined, "answer").then(() => order.push("answer"));
    await clock.advance(3000);
    await Promise.all([...bulk, answer]);
    expect(order).toEqual(["answer", "bulk1", "bulk2"]);
  });
});
