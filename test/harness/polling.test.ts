/**
 * Self-tests of the fake's real HTTP mode: a bot talks to it over the network with long
 * polling (`bot.start()` and @grammyjs/runner), like a separately started bot process would
 * with TELEGRAM_API_ROOT=apiRoot.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Bot } from "grammy";
import { run } from "@grammyjs/runner";
import { FakeBotApi, type FakeServer } from "../support/fakeBotApi.js";
import { makeUser } from "../support/chat.js";
import { decodeQrPng } from "../support/qr.js";
import { FAKE_BOT_TOKEN } from "../support/botInfo.js";
import { createToyBot } from "./toyBot.js";

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

async function startFake(): Promise<{ fake: FakeBotApi; server: FakeServer }> {
  const fake = new FakeBotApi();
  const server = await fake.startServer();
  cleanup.push(() => server.close());
  return { fake, server };
}

describe("FakeBotApi over HTTP", () => {
  it("serves a bot.start() long-polling bot, including multipart uploads", async () => {
    const { fake, server } = await startFake();
    const bot = createToyBot({ apiRoot: server.apiRoot });
    const started = new Promise<void>((resolve) => void bot.start({ onStart: () => resolve() }));
    await started;

    // The user helper only builds the updates here; the bot receives them via getUpdates.
    const user = makeUser(bot, fake, { firstName: "Poller" });
    fake.pushUpdate(user.textUpdate("/start"));
    const reply = await fake.waitFor((c) => c.method === "sendMessage" && c.payload.chat_id === user.chatId);
    expect(reply.via).toBe("http");
    expect(reply.payload.text).toBe("Welcome! Pick a product:");
    expect(user.buttons()).toEqual(["Pulsa 10k", "Data 1GB", "Help"]);

    fake.pushUpdate(user.callbackUpdate("Data 1GB"));
    await fake.waitFor("editMessageText");
    expect(user.lastReply()).toBe("You chose data1. Confirm?");

    fake.pushUpdate(user.textUpdate("/qr over-http"));
    const photo = await fake.waitFor("sendPhoto");
    expect(decodeQrPng(photo.files.photo!.bytes)).toBe("over-http");

    await bot.stop();
    // stop() confirms the handled updates with a final getUpdates(offset)
    expect(fake.pendingUpdates()).toHaveLength(0);
    expect(fake.lastCall("getUpdates")!.payload).toMatchObject({ limit: 1 });
  });

  it("serves a @grammyjs/runner bot", async () => {
    const { fake, server } = await startFake();
    const bot = createToyBot({ apiRoot: server.apiRoot });
    const handle = run(bot);
    cleanup.push(async () => {
      if (handle.isRunning()) await handle.stop(); // when an expectation below fails
    });
    const user = makeUser(bot, fake);
    fake.pushUpdate(user.textUpdate("hello runner"));
    const reply = await fake.waitFor((c) => c.method === "sendMessage" && c.payload.chat_id === user.chatId);
    expect(reply.via).toBe("http");
    expect(reply.payload.text).toBe("echo: hello runner");
    expect(reply.response).toMatchObject({ ok: true, result: { chat: { id: user.chatId }, text: "echo: hello runner" } });
    expect(user.replies()).toEqual(["echo: hello runner"]);
    // The update reached the runner through getUpdates over HTTP, not through handleUpdate.
    const polls = fake.callsOf("getUpdates");
    expect(polls.length).toBeGreaterThan(0);
    expect(new Set(polls.map((c) => c.via))).toEqual(new Set(["http"]));
    expect(handle.isRunning()).toBe(true);
    await handle.stop();
    expect(handle.isRunning()).toBe(false);
  });

  it("makeUser(null, fake) drives a bot running elsewhere through getUpdates", async () => {
    const { fake, server } = await startFake();
    const bot = createToyBot({ apiRoot: server.apiRoot });
    await new Promise<void>((resolve) => void bot.start({ onStart: () => resolve() }));
    cleanup.push(() => bot.stop());

    const user = makeUser(null, fake, { firstName: "Remote" });
    const calls = await user.sendCommand("start");
    expect(calls.map((c) => c.method)).toEqual(["sendMessage"]);
    await user.pressButton("Pulsa 10k");
    expect(user.replies()).toEqual(["You chose pulsa10. Confirm?"]);
    await user.sendCommand("name");
    await user.sendText("Sari");
    expect(user.lastReply()).toBe("Nice to meet you, Sari!");
    expect(fake.messages(user.chatId).filter((m) => m.from === "user")).toHaveLength(3);
  });

  it("getUpdates honours offset and timeout; close() releases waiting polls", async () => {
    const { fake, server } = await startFake();
    const bot = new Bot(FAKE_BOT_TOKEN, { client: { apiRoot: server.apiRoot } });
    expect((await bot.api.getMe()).username).toBe("ppob_test_bot");

    const a = fake.pushUpdate({ message: undefined as never });
    const b = fake.pushUpdate({ message: undefined as never });
    expect(b.update_id).toBe(a.update_id + 1);
    expect((await bot.api.getUpdates({ timeout: 0 })).map((u) => u.update_id)).toEqual([a.update_id, b.update_id]);
    expect((await bot.api.getUpdates({ offset: b.update_id })).map((u) => u.update_id)).toEqual([b.update_id]);

    let t = Date.now();
    expect(await bot.api.getUpdates({ offset: b.update_id + 1, timeout: 1 })).toEqual([]);
    expect(Date.now() - t).toBeGreaterThanOrEqual(900);

    // a waiting poll is woken by a new update
    const waiting = bot.api.getUpdates({ offset: b.update_id + 1, timeout: 10 });
    setTimeout(() => fake.pushUpdate({ message: undefined as never }), 50);
    expect(await waiting).toHaveLength(1);

    // ... and released (empty) by close()
    t = Date.now();
    const pending = bot.api.getUpdates({ offset: b.update_id + 2, timeout: 30 });
    await new Promise((r) => setTimeout(r, 50));
    await server.close();
    expect(await pending).toEqual([]);
    expect(Date.now() - t).toBeLessThan(2_000);
  });

  it("in-process fetch mode also long-polls and stops cleanly", async () => {
    const fake = new FakeBotApi();
    const bot = createToyBot({ fetch: fake.fetch });
    await new Promise<void>((resolve) => void bot.start({ onStart: () => resolve() }));
    const user = makeUser(bot, fake);
    fake.pushUpdate(user.textUpdate("/start"));
    await fake.waitFor("sendMessage");
    const t = Date.now();
    await bot.stop();
    expect(Date.now() - t).toBeLessThan(1_000);
  });
});
