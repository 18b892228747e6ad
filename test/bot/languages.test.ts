import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createBot, type AppBot } from "../../src/bot/index.js";
import { createTranslate, LOCALES_DIR } from "../../src/render/i18n.js";
import { registerCommands } from "../../src/telegram/roleCommands.js";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "../support/botInfo.js";
import { makeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";

/** A locales folder with Indonesian, English and `xx`: English with its own name and a few words of its own. */
async function localesWithXx(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "locales-"));
  await copyFile(join(LOCALES_DIR, "id.ftl"), join(dir, "id.ftl"));
  await copyFile(join(LOCALES_DIR, "en.ftl"), join(dir, "en.ftl"));
  const en = await readFile(join(LOCALES_DIR, "en.ftl"), "utf8");
  const xx = en
    .replace(/^language-self = .*$/m, "language-self = XX tongue")
    .replace(/^language-set = .*$/m, "language-set = XX: language set.")
    .replace(/^menu-title = .*$/m, "menu-title = XX: main menu")
    .replace(/^cmd-saldo = .*$/m, "cmd-saldo = XX: balance");
  await writeFile(join(dir, "xx.ftl"), xx);
  return dir;
}

/** A locales folder with Indonesian, English and Danish (English words under Danish's own name). */
async function localesWithDa(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "locales-"));
  await copyFile(join(LOCALES_DIR, "id.ftl"), join(dir, "id.ftl"));
  await copyFile(join(LOCALES_DIR, "en.ftl"), join(dir, "en.ftl"));
  const en = await readFile(join(LOCALES_DIR, "en.ftl"), "utf8");
  await writeFile(join(dir, "da.ftl"), en.replace(/^language-self = .*$/m, "language-self = Dansk"));
  return dir;
}

describe("a third language is one .ftl file", () => {
  let w: World;
  let dir: string;
  afterEach(async () => {
    await w.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The world's bot, built again over a locales folder that also has xx.ftl. */
  async function botWithXx(): Promise<AppBot> {
    w = await makeWorld();
    dir = await localesWithXx();
    const translate = createTranslate(dir);
    return createBot(FAKE_BOT_TOKEN, { ...w.deps, translate }, { botInfo: FAKE_BOT_INFO, client: { fetch: w.fake.fetch as never }, rateLimit: false });
  }

  it("is offered in the language picker, chosen, kept, and used for the chat's replies", async () => {
    const bot = await botWithXx();
    const u = makeUser({ handleUpdate: (update) => bot.handleUpdate(update) }, w.fake, { clock: w.clock, languageCode: "id" });
    await u.sendCommand("bahasa");
    expect(u.buttons()).toEqual(["🇮🇩 Bahasa Indonesia", "🇬🇧 English", "XX tongue"]);
    await u.pressButton("XX tongue");
    expect(u.lastReply()).toBe("XX: language set.");
    expect((await w.store.getChat(u.chatId))?.lang).toBe("xx");
    await u.sendCommand("menu");
    expect(u.lastReply()).toBe("XX: main menu");
  });

  it("writes numbers, times and dates its own way: a percent's decimal mark, the confirm screen's clock, the report's days", async () => {
    w = await makeWorld();
    dir = await localesWithDa();
    const bot = createBot(FAKE_BOT_TOKEN, { ...w.deps, translate: createTranslate(dir) }, { botInfo: FAKE_BOT_INFO, client: { fetch: w.fake.fetch as never }, rateLimit: false });
    const u = makeUser({ handleUpdate: (update) => bot.handleUpdate(update) }, w.fake, { clock: w.clock, languageCode: "da" });
    await w.store.updateChat(u.chatId, { lang: "da" });
    await w.store.setApiKey(u.chatId, w.demoKey);

    // Danish writes a decimal comma, as Indonesian does (English: 2.5%).
    await u.sendCommand("markup", "2,5%");
    expect(u.lastReply()).toContain("+2,5%");

    // The same purchase again while the first is open: the warning gives the first one's time, in
    // Danish "14.05" (English: 14:05).
    await u.sendCommand("beli", "S10 081234567890");
    await u.pressButton(/Confirm/);
    await u.sendCommand("beli", "S10 081234567890");
    expect(u.lastReply()).toMatch(/\b\d\d\.\d\d WIB/);

    // Danish days read "25. nov." (English: 25 Nov).
    await u.sendCommand("laporan");
    expect(u.lastReply()).toMatch(/\b\d{1,2}\. [a-z]{3}\./);
  });

  it("is the language of a Telegram user whose language_code names it, and gets its command list", async () => {
    const bot = await botWithXx();
    const u = makeUser({ handleUpdate: (update) => bot.handleUpdate(update) }, w.fake, { clock: w.clock, languageCode: "xx-YY" });
    await u.sendCommand("menu");
    expect(u.lastReply()).toBe("XX: main menu");
    await registerCommands(bot.api, createTranslate(dir));
    const xxList = w.fake.callsOf("setMyCommands").find((c) => c.payload.language_code === "xx");
    expect(JSON.stringify(xxList?.payload.commands)).toContain('{"command":"balance","description":"XX: balance"}');
  });
});
