import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";

describe("bot core", () => {
  let w: World;
  afterEach(() => w.close());

  describe("with defaults", () => {
    beforeEach(async () => {
      w = await makeWorld();
    });

    it("starts in Indonesian for `id` users and English otherwise", async () => {
      const ina = w.user({ languageCode: "id", firstName: "Sari" });
      const eng = w.user({ languageCode: "en-US", firstName: "Tom" });
      await ina.sendCommand("start");
      await eng.sendCommand("start");
      expect(ina.lastReply()).toContain("Halo, Sari");
      expect(eng.lastReply()).toContain("Hello, Tom");
    });

    it("switches language with /bahasa and keeps it across a restart", async () => {
      const u = w.user({ languageCode: "id" });
      await u.sendCommand("bahasa");
      expect(u.buttons()).toEqual(["🇮🇩 Bahasa Indonesia", "🇬🇧 English"]);
      await u.pressButton("🇬🇧 English");
      expect(u.lastReply()).toBe("✅ Language switched to English.");
      expect(w.fake.callsOf("answerCallbackQuery")).toHaveLength(1);
      await u.sendCommand("menu");
      expect(u.lastReply()).toContain("Main menu");

      await w.restart();
      await u.sendCommand("help");
      expect(u.lastReply()).toContain("/balance: check balance");
      // English command names work too, whatever the language.
      await u.sendCommand("language");
      await u.pressButton("🇮🇩 Bahasa Indonesia");
      expect(u.lastReply()).toContain("Bahasa Indonesia");
    });

    it("a double tap on a language says it once", async () => {
      const u = w.user({ languageCode: "id" });
      await u.sendCommand("bahasa");
      const before = u.messages().length;
      const tap = u.callbackUpdate("🇬🇧 English");
      await u.deliver(tap);
      await u.deliver(tap);
      expect(u.messages()).toHaveLength(before);
      expect(u.lastReply()).toBe("✅ Language switched to English.");
    });

    it("/saldo shows name, balance and status from the provider", async () => {
      const u = await w.linkedUser({ languageCode: "id" });
      w.sandbox.setBalance(w.demoKey, 1234567);
      await u.sendCommand("saldo");
      const reply = u.lastReply()!;
      expect(reply).toContain("Saldo: Rp1.234.567");
      expect(reply).toContain("Status akun: Aktif");
      expect(reply).not.toContain(w.demoKey);
    });

    it("/saldo reports a provider outage without crashing", async () => {
      const u = await w.linkedUser({ languageCode: "en" });
      w.sandbox.fault("/get_profile", "html502");
      await u.sendCommand("balance");
      expect(u.lastReply()).toContain("cannot be reached");
      await u.sendCommand("balance");
      expect(u.lastReply()).toContain("Balance");
    });

    it("explains how to link a key to an unlinked chat asking for money commands", async () => {
      const u = w.user({ languageCode: "en" });
      await u.sendCommand("balance");
      expect(u.lastReply()).toContain("not linked yet");
      expect(u.lastReply()).toContain("/start");
    });

    it("shows the main menu and answers every button press, even stale ones", async () => {
      const u = await w.linkedUser({ languageCode: "id" });
      await u.sendCommand("menu");
      expect(u.buttons()).toContain("💰 Saldo");
      await u.pressButton("💰 Saldo");
      expect(u.lastReply()).toContain("Saldo");
      await u.deliver({
        update_id: 0,
        callback_query: {
          id: "stale-1",
          from: u.user,
          chat_instance: "x",
          data: "something-from-an-old-version",
          message: { message_id: 1, date: 0, chat: u.chat } as never,
        },
      } as never);
      const answers = w.fake.callsOf("answerCallbackQuery").map((c) => c.payload.callback_query_id);
      expect(answers).toContain("stale-1");
    });

    it("/batal says there is nothing to cancel outside a flow", async () => {
      const u = await w.linkedUser({ languageCode: "id" });
      await u.sendCommand("batal");
      expect(u.lastReply()).toBe("Tidak ada proses yang sedang berjalan.");
    });
  });

  it("rate-limits a flooding user with one localized notice", async () => {
    w = await makeWorld({ bot: { rateLimit: { timeFrameMs: 60_000, limit: 3 } } });
    const u = w.user({ languageCode: "en" });
    for (let i = 0; i < 6; i++) await u.sendCommand("help");
    const texts = w.fake.sentTo(u.chatId).map((c) => String(c.payload.text));
    expect(texts.filter((t) => t.includes("Help"))).toHaveLength(3);
    expect(texts.filter((t) => t.includes("Too fast"))).toHaveLength(1);
    // Another user is not affected.
    const other = w.user({ languageCode: "en" });
    await other.sendCommand("help");
    expect(other.lastReply()).toContain("Help");
  });
});

describe("messages nothing handles", () => {
  let w2: World;
  afterEach(() => w2.close());

  it("a linked user's stray text gets a way forward, a group's chatter gets nothing", async () => {
    w2 = await makeWorld();
    const u = await w2.linkedUser({ languageCode: "en" });
    await u.sendText("hello?");
    expect(u.lastReply()).toContain("did not understand");
    const group = w2.user({ chatType: "group", languageCode: "en" });
    const calls = await group.sendText("ordinary group chatter");
    expect(calls.filter((c) => c.method === "sendMessage")).toHaveLength(0);
  });
});
