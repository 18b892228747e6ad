/**
 * Self-tests of the Telegram harness (test/support): the fake Bot API in-process through
 * grammY's `client.fetch`, the user helpers, faults, rate limiting and message state.
 */
import { describe, expect, it } from "vitest";
import { BotError, GrammyError, InputFile } from "grammy";
import { autoRetry } from "@grammyjs/auto-retry";
import QRCode from "qrcode";
import { FakeBotApi, TelegramErrors, apiError } from "../support/fakeBotApi.js";
import { makeUser } from "../support/chat.js";
import { decodeQrPng } from "../support/qr.js";
import { FAKE_BOT_INFO } from "../support/botInfo.js";
import { createToyBot } from "./toyBot.js";

function setup() {
  const fake = new FakeBotApi();
  const bot = createToyBot({ fetch: fake.fetch });
  const user = makeUser(bot, fake, { firstName: "Alice" });
  return { fake, bot, user };
}

describe("FakeBotApi in-process", () => {
  it("answers /start with an inline keyboard and records the call", async () => {
    const { fake, user } = setup();
    const calls = await user.sendCommand("start");

    expect(calls.map((c) => c.method)).toEqual(["sendMessage"]);
    expect(calls[0]!.payload.chat_id).toBe(user.chatId);
    expect(user.lastReply()).toBe("Welcome! Pick a product:");
    expect(user.buttons()).toEqual(["Pulsa 10k", "Data 1GB", "Help"]);
    expect(user.keyboard()).toEqual([["Pulsa 10k", "Data 1GB"], ["Help"]]);

    // The result is a realistic Message: ids per chat (the user's /start took id 1).
    const result = calls[0]!.response;
    expect(result).toMatchObject({
      ok: true,
      result: { message_id: 2, chat: { id: user.chatId, type: "private" }, from: { id: FAKE_BOT_INFO.id, is_bot: true } },
    });
    expect(user.sentMessageIds).toEqual([2]);
    expect(fake.messages(user.chatId).map((m) => m.from)).toEqual(["user", "bot"]);
  });

  it("handles /command@botname and ignores commands for other bots", async () => {
    const { user } = setup();
    await user.sendText(`/start@${FAKE_BOT_INFO.username}`);
    expect(user.lastReply()).toBe("Welcome! Pick a product:");
    const calls = await user.sendText("/start@some_other_bot");
    // falls through to the echo handler, not the /start command
    expect(user.replies()).toEqual(["echo: /start@some_other_bot"]);
    expect(calls).toHaveLength(1);
  });

  it("presses buttons: callback edits the message, then a second keyboard", async () => {
    const { fake, user } = setup();
    await user.sendCommand("start");
    const menuId = user.sentMessageIds[0]!;

    const calls = await user.pressButton("Pulsa 10k");
    expect(calls.map((c) => c.method)).toEqual(["answerCallbackQuery", "editMessageText"]);
    expect(calls[0]!.payload.text).toBe("Noted");
    expect(user.lastReply()).toBe("You chose pulsa10. Confirm?");
    expect(user.buttons()).toEqual(["Confirm", "Cancel"]);
    expect(fake.message(user.chatId, menuId)).toMatchObject({ edited: true, text: "You chose pulsa10. Confirm?" });

    await user.pressButton(/^Conf/);
    expect(user.replies()).toEqual(["Order placed.", "Thank you!"]);
    expect(user.lastReply()).toBe("Thank you!");
    // the edit without reply_markup removed the keyboard, like Telegram does
    expect(fake.message(user.chatId, menuId)!.inlineKeyboard).toBeUndefined();
    expect(user.buttons()).toEqual([]);
  });

  it("explains which buttons exist when a label is not found; URL buttons cannot be pressed", async () => {
    const { user } = setup();
    await user.sendCommand("start");
    await expect(user.pressButton("Token 50k")).rejects.toThrow(/No inline button Token 50k[\s\S]*"Pulsa 10k" \| "Data 1GB" \/ "Help"/);
    expect(user.findButton("Help")?.button).toMatchObject({ url: "https://example.com/help" });
    await expect(user.pressButton("Help")).rejects.toThrow(/not a callback button \(url\)/);
  });

  it("tracks deletions", async () => {
    const { fake, user } = setup();
    await user.sendCommand("start");
    await user.pressButton("Data 1GB");
    await user.pressButton("Cancel");
    const [menu] = fake.messages(user.chatId).filter((m) => m.from === "bot");
    expect(menu!.deleted).toBe(true);
    expect(fake.visibleMessages(user.chatId).every((m) => m.from === "user")).toBe(true);
    expect(user.lastReply()).toBeUndefined();
    await expect(user.pressButton("Confirm")).rejects.toThrow(/no visible bot message/);
  });

  it("receives an uploaded QR photo as multipart and keeps its bytes", async () => {
    const { fake, user } = setup();
    const calls = await user.sendCommand("qr", "PPOB-INV-0001|Rp10.000");
    const call = calls[0]!;
    expect(call.method).toBe("sendPhoto");
    // multipart fields are decoded back to JSON values
    expect(call.payload.chat_id).toBe(user.chatId);
    expect(call.payload.caption).toBe("Scan to pay");
    expect(call.payload.reply_markup).toEqual({ inline_keyboard: [[{ text: "Paid", callback_data: "paid" }]] });
    expect(call.files.photo?.filename).toBe("qr.png");

    expect(decodeQrPng(user.lastPhoto())).toBe("PPOB-INV-0001|Rp10.000");
    expect(user.lastReply()).toBe("Scan to pay");
    expect(user.buttons()).toEqual(["Paid"]);

    const result = (call.response as { result: { photo: { width: number; file_id: string }[] } }).result;
    expect(result.photo.length).toBeGreaterThan(1);
    expect(fake.fileBytes(result.photo.at(-1)!.file_id)).toEqual(user.lastPhoto());
  });

  it("keeps an uploaded file's name as grammY sends it, unquoted, with spaces and any letters", async () => {
    // grammY writes `filename=<name>` raw; Telegram takes it, so the fake must too.
    const fake = new FakeBotApi();
    const bot = createToyBot({ fetch: fake.fetch });
    const name = "Laporan Nov/2026 \"toko\" é.csv";
    const sent = await bot.api.sendDocument(7, new InputFile(Buffer.from("a,b\n"), name));
    expect(sent.document.file_name).toBe(name);
    expect(fake.lastCall("sendDocument")?.files.document).toMatchObject({ filename: name, bytes: Buffer.from("a,b\n") });
  });

  it("reaches inside @grammyjs/conversations", async () => {
    const { user } = setup();
    await user.sendCommand("name");
    expect(user.lastReply()).toBe("What is your name?");
    const calls = await user.sendText("Budi");
    expect(calls.map((c) => c.method)).toEqual(["sendMessage"]);
    expect(user.replies()).toEqual(["Nice to meet you, Budi!"]);
    // conversation over: text goes to the echo handler again
    await user.sendText("hello");
    expect(user.lastReply()).toBe("echo: hello");
  });

  it("keeps users and chats apart", async () => {
    const fake = new FakeBotApi();
    const bot = createToyBot({ fetch: fake.fetch });
    const a = makeUser(bot, fake);
    const b = makeUser(bot, fake);
    await Promise.all([a.sendCommand("name"), b.sendText("hi")]);
    await a.sendText("Ani");
    expect(a.lastReply()).toBe("Nice to meet you, Ani!");
    expect(b.lastReply()).toBe("echo: hi");
    expect(a.user.id).not.toBe(b.user.id);
  });

  it("group chats: negative ids, type group", async () => {
    const fake = new FakeBotApi();
    const bot = createToyBot({ fetch: fake.fetch });
    const u = makeUser(bot, fake, { chatType: "group", chatId: -4242 });
    const [call] = await u.sendText(`/start@${FAKE_BOT_INFO.username}`);
    expect(call!.response).toMatchObject({ result: { chat: { id: -4242, type: "group" } } });
  });

  it("tracks reply keyboards", async () => {
    const { user } = setup();
    await user.sendCommand("menu");
    expect(user.replyKeyboard()).toEqual([["Saldo", "Riwayat"]]);
  });

  it("uses the injected clock for dates and call times", async () => {
    let now = Date.UTC(2026, 0, 15, 3, 0, 0);
    const fake = new FakeBotApi({ clock: () => now });
    const bot = createToyBot({ fetch: fake.fetch });
    const user = makeUser(bot, fake, { clock: () => now });
    const [call] = await user.sendCommand("start");
    expect(call!.at).toBe(now);
    expect(fake.messages(user.chatId)[0]!.message.date).toBe(now / 1000);
    now += 60_000;
    await user.sendText("x");
    expect(fake.messages(user.chatId).at(-1)!.message.date).toBe(now / 1000);
  });
});

describe("faults", () => {
  it("auto-retry honours a 429 retry_after", async () => {
    const { fake, bot, user } = setup();
    bot.api.config.use(autoRetry());
    fake.failNext("sendMessage", { error_code: 429, retry_after: 1 });
    const started = Date.now();
    const calls = await user.sendCommand("start");
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(calls.map((c) => c.response?.ok)).toEqual([false, true]);
    expect(calls[0]!.response).toEqual({
      ok: false,
      error_code: 429,
      description: "Too Many Requests: retry after 1",
      parameters: { retry_after: 1 },
    });
    expect(fake.sentTo(user.chatId)).toHaveLength(1);
    expect(user.lastReply()).toBe("Welcome! Pick a product:");
  });

  it("surfaces a 403 as GrammyError (directly and through handleUpdate)", async () => {
    const { fake, bot, user } = setup();
    fake.failNext("sendMessage", { error_code: 403, description: "Forbidden: bot was blocked by the user" }, { chatId: 555 });

    // other chats are unaffected
    await expect(bot.api.sendMessage(556, "hi")).resolves.toMatchObject({ text: "hi" });

    const err = await bot.api.sendMessage(555, "hi").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GrammyError);
    expect(err).toMatchObject({ error_code: 403, description: "Forbidden: bot was blocked by the user" });

    fake.failNext("sendMessage", TelegramErrors.blocked());
    const botErr = await user.sendCommand("start").catch((e: unknown) => e);
    expect(botErr).toBeInstanceOf(BotError);
    expect((botErr as BotError).error).toBeInstanceOf(GrammyError);
  });

  it("failNext times and the HTTP status", async () => {
    const fake = new FakeBotApi();
    fake.failNext("*", { error_code: 500, description: "Internal Server Error" }, { times: 2 });
    const res1 = await fake.fetch("https://api.telegram.org/botX/sendMessage", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chat_id: 1, text: "a" }),
    });
    expect(res1.status).toBe(500);
    await fake.fetch("https://api.telegram.org/botX/getMe");
    const res3 = await fake.fetch("https://api.telegram.org/botX/getMe");
    expect(res3.status).toBe(200);
    expect(await res3.json()).toEqual({ ok: true, result: FAKE_BOT_INFO });
  });

  it("setResponder customises answers per chat", async () => {
    const { fake, bot } = setup();
    fake.setResponder((method, payload) =>
      method === "sendMessage" && Number(payload.chat_id) % 2 === 0 ? apiError(403, "Forbidden: user is deactivated") : undefined,
    );
    await expect(bot.api.sendMessage(1, "odd")).resolves.toBeDefined();
    await expect(bot.api.sendMessage(2, "even")).rejects.toMatchObject({ error_code: 403 });
    fake.setResponder(undefined);
    await expect(bot.api.sendMessage(2, "even")).resolves.toBeDefined();
  });

  it("limitRate answers 429 beyond the sliding window", async () => {
    let now = 1_000_000;
    const { fake, bot } = setup();
    fake.limitRate({ perSecond: 2, clock: () => now });
    await bot.api.sendMessage(1, "a");
    now += 400;
    await bot.api.sendMessage(2, "b");
    const err = await bot.api.sendMessage(3, "c").catch((e: unknown) => e);
    expect(err).toMatchObject({ error_code: 429, parameters: { retry_after: 1 } });
    await bot.api.sendChatAction(3, "typing"); // not a posting method: not limited
    now += 601; // first send left the window
    await expect(bot.api.sendMessage(3, "c")).resolves.toBeDefined();
    fake.limitRate(undefined);
    await bot.api.sendMessage(4, "d");
    await bot.api.sendMessage(4, "e");

    // per-chat limit (Telegram: about one message per second in a private chat)
    fake.limitRate({ perSecond: 30, perChatPerSecond: 1, clock: () => now });
    await bot.api.sendMessage(5, "f");
    await bot.api.sendMessage(6, "g");
    await expect(bot.api.sendMessage(5, "h")).rejects.toMatchObject({ error_code: 429 });
    now += 1000;
    await expect(bot.api.sendMessage(5, "h")).resolves.toBeDefined();
  });
});

describe("strict Telegram rules", () => {
  it("rejects unescaped MarkdownV2 like Telegram", async () => {
    const { user } = setup();
    const err = await user.sendCommand("price", "Harga Rp10.000").catch((e: unknown) => (e as BotError).error);
    expect(err).toBeInstanceOf(GrammyError);
    expect((err as GrammyError).description).toBe(
      "Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'",
    );
    await user.sendCommand("price", "*Harga* Rp10\\.000");
    expect(user.lastReply()).toBe("Harga Rp10.000");
  });

  it("rejects edits that change nothing, and edits of deleted messages", async () => {
    const { bot } = setup();
    const m = await bot.api.sendMessage(10, "<b>Saldo</b> &amp; poin", { parse_mode: "HTML" });
    expect(m.text).toBe("Saldo & poin");
    await expect(bot.api.editMessageText(10, m.message_id, "<b>Saldo</b> &amp; poin", { parse_mode: "HTML" })).rejects.toMatchObject({
      error_code: 400,
      description: expect.stringContaining("message is not modified"),
    });
    await bot.api.deleteMessage(10, m.message_id);
    await expect(bot.api.editMessageText(10, m.message_id, "x")).rejects.toMatchObject({
      description: "Bad Request: message to edit not found",
    });
    await expect(bot.api.sendMessage(10, "x".repeat(4097))).rejects.toMatchObject({ description: "Bad Request: message is too long" });
    await expect(bot.api.sendMessage(10, "<div>x</div>", { parse_mode: "HTML" })).rejects.toMatchObject({
      description: expect.stringContaining("can't parse entities"),
    });
  });

  it("can be relaxed with strict: false", async () => {
    // What strict mode refuses: unescaped MarkdownV2, and an edit that changes nothing.
    const strict = createToyBot({ fetch: new FakeBotApi().fetch });
    await expect(strict.api.sendMessage(10, "Rp10.000", { parse_mode: "MarkdownV2" })).rejects.toMatchObject({
      description: expect.stringContaining("can't parse entities"),
    });

    const fake = new FakeBotApi({ strict: false });
    const bot = createToyBot({ fetch: fake.fetch });
    const m = await bot.api.sendMessage(10, "Rp10.000", { parse_mode: "MarkdownV2" });
    // Accepted and kept as sent: the unparsable markup is shown verbatim.
    expect(m.text).toBe("Rp10.000");
    expect(fake.message(10, m.message_id)).toMatchObject({ from: "bot", text: "Rp10.000", raw: "Rp10.000", parseMode: "MarkdownV2" });
    const edited = await bot.api.editMessageText(10, m.message_id, "Rp10.000", { parse_mode: "MarkdownV2" });
    expect(edited).toMatchObject({ message_id: m.message_id, text: "Rp10.000" });
    expect(fake.messages(10).map((x) => x.text)).toEqual(["Rp10.000"]);
  });

  it("sends media groups and copies messages", async () => {
    const { fake, bot } = setup();
    const png = await QRCode.toBuffer("one");
    const group = await bot.api.sendMediaGroup(20, [
      { type: "photo", media: new InputFile(png, "a.png"), caption: "first" },
      { type: "photo", media: new InputFile(png, "b.png") },
    ]);
    expect(group.map((m) => m.message_id)).toEqual([1, 2]);
    const call = fake.lastCall("sendMediaGroup")!;
    expect(Object.values(call.files).map((f) => f.filename)).toEqual(["a.png", "b.png"]);
    const copy = await bot.api.copyMessage(21, 20, 1);
    expect(fake.message(21, copy.message_id)).toMatchObject({ kind: "photo", caption: "first" });
    expect(decodeQrPng(fake.message(21, copy.message_id)!.file!.bytes)).toBe("one");
  });
});
