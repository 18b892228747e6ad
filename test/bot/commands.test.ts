import { describe, expect, it } from "vitest";
import type { Api } from "grammy";
import { registerCommands } from "../../src/telegram/roleCommands.js";
import { createTranslate } from "../../src/render/i18n.js";

describe("registerCommands", () => {
  it("sends both command lists at once: start-up waits one Bot API round trip for them, not two", async () => {
    const sent: { language?: string; finish: () => void }[] = [];
    const api = {
      setMyCommands: (_commands: unknown, other: { language_code?: string }) =>
        new Promise<true>((resolve) => sent.push({ ...(other.language_code ? { language: other.language_code } : {}), finish: () => resolve(true) })),
    } as unknown as Api;
    const done = registerCommands(api, createTranslate());
    await new Promise((r) => setImmediate(r));
    // Both requests are out before either is answered.
    expect(sent.map((s) => s.language ?? "default")).toEqual(["id", "default"]);
    for (const s of sent) s.finish();
    await done;
  });
});

describe("the command table", () => {
  it("binds every command under each of its names: none falls through to 'not understood'", async () => {
    const { makeWorld } = await import("../support/world.js");
    const { commands } = await import("../../src/telegram/commands.js");
    const w = await makeWorld({ adminIds: [4242] });
    try {
      const u = await w.linkedUser({ id: 4242, languageCode: "id" });
      const notUnderstood = w.deps.translate("id", "fallback-hint");
      // Logging out last: the commands before it need the linked key to answer as themselves.
      const names = Object.values(commands).flat().sort((a, b) => Number(commands.keluar.includes(a)) - Number(commands.keluar.includes(b)));
      const fellThrough: string[] = [];
      for (const name of names) {
        await u.sendCommand("batal");
        const before = u.messages().length;
        await u.sendCommand(name);
        if (u.messages().length === before || u.lastReply() === notUnderstood) fellThrough.push(name);
      }
      expect(fellThrough).toEqual([]);
    } finally {
      await w.close();
    }
  });
});

describe("a command addressed to a bot by name (as in a group)", () => {
  it("is this bot's when it names this bot, in any case, with its argument; not when it names another bot", async () => {
    const { makeWorld } = await import("../support/world.js");
    const w = await makeWorld();
    try {
      const u = await w.linkedUser({ languageCode: "en" });
      const notUnderstood = w.deps.translate("en", "fallback-hint");
      await u.sendCommand("help");
      const help = u.lastReply();
      await u.sendText("/help@PPOB_Test_Bot");
      expect(u.lastReply()).toBe(help);
      await u.sendText("/help@other_bot");
      expect(u.lastReply()).toBe(notUnderstood);
      // The argument after the name (extra spaces trimmed) reaches the command as typed plainly.
      await u.sendCommand("beli", "PLN50");
      const plain = u.lastReply();
      await u.sendCommand("batal");
      await u.sendText("/beli@ppob_test_bot  PLN50");
      expect(u.lastReply()).toBe(plain);
    } finally {
      await w.close();
    }
  });
});
