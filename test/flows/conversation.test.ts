/**
 * How a guided flow behaves around its steps: text that does not fit, a command typed mid-flow, a
 * correction at the confirm screen, a restart in the middle, and Telegram's 429 inside a flow.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World, type WorldOptions } from "../support/world.js";
import { settle } from "../support/settle.js";
import { Bot, Composer, type Middleware } from "grammy";
import { createConversation } from "@grammyjs/conversations";
import type { BotContext, BotConversation, ConvContext } from "../../src/bot/context.js";
import { ChatRecordContext, ChatRecords } from "../../src/bot/middlewares/chatRecord.js";
import { role } from "../../src/bot/middlewares/role.js";
import { extras } from "../../src/bot/middlewares/extras.js";
import { flows } from "../../src/bot/middlewares/conversations.js";
import { WayOuts } from "../../src/bot/middlewares/wayOuts.js";
import { errorHandler } from "../../src/bot/handlers/error.js";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "../support/botInfo.js";

let w: World;
afterEach(() => {
  vi.restoreAllMocks();
  return w?.close();
});

async function world(opts?: WorldOptions): Promise<World> {
  w = await makeWorld(opts);
  return w;
}

async function drafts(u: FakeUser) {
  return (await w.store.listTxByChat(u.chatId, { limit: 100 })).items.filter((t) => t.status === "draft");
}

/** /transfer up to the account number step (English). */
async function toAccountStep(u: FakeUser): Promise<void> {
  await u.sendCommand("transfer");
  await u.sendText("bca");
  await u.pressButton(/BCA/);
  expect(u.lastReply()).toContain("account number");
}

describe("what the user types that the step does not expect", () => {
  it("a wrong meter number gets the reason and the step again, with a way out", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("beli", "PLN50");
    await u.sendText("12345");
    expect(u.lastReply()).toContain("11–12 digits");
    expect(u.lastReply()).toContain("send it again or tap ❌ Cancel");
    expect(u.lastReply()).not.toContain("did not understand");
    await u.sendText("5301 1234 5678");
    expect(u.lastReply()).toContain("Target: 530112345678");
  });

  it("a command typed during a flow says the flow was left, then runs", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("beli", "PLN50");
    await u.sendCommand("saldo");
    const texts = u.replies(); // since the last user action
    expect(texts[0]).toContain("The step you were in has ended");
    expect(texts.at(-1)).toContain("Balance");

    await u.sendCommand("beli", "S10");
    await u.sendCommand("xyz");
    expect(u.replies()).toEqual([expect.stringContaining("has ended"), expect.stringContaining("did not understand")]);

    // /batal is the way out: it says "cancelled", no second notice.
    await u.sendCommand("beli", "S10");
    await u.sendCommand("batal");
    expect(u.replies()).toEqual(["❌ Cancelled."]);
  });

  it("a new number typed at the confirm screen makes a new confirm screen; the old one is void", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("beli", "S10");
    await u.sendText("081234567890");
    expect(u.lastReply()).toContain("Target: 081234567890");
    const [first] = await drafts(u);

    await u.sendText("0812-9876-5432");
    expect(u.lastReply()).toContain("Check before you confirm");
    expect(u.lastReply()).toContain("Target: 081298765432");
    const [second] = await drafts(u);
    expect(await drafts(u)).toHaveLength(1);
    expect(second!.refId).not.toBe(first!.refId);
    expect((await w.store.getTx(first!.refId))!.status).toBe("cancel");

    await u.pressButton(/Confirm/);
    expect(w.sandbox.calls("/transaksi/create").map((c) => c.body.target)).toEqual(["081298765432"]);
  });

  it("other text at the confirm screen is explained, not 'not understood'", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("beli", "S10");
    await u.sendText("081234567890");
    await u.sendText("hello?");
    expect(u.lastReply()).toContain("waiting for ✅ Confirm or ❌ Cancel");
    expect(u.lastReply()).not.toContain("did not understand");
    expect(await drafts(u)).toHaveLength(1);
  });
});

describe("a restart in the middle of a flow", () => {
  it("the flow goes on where it was: the next answer is taken as the step's answer", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "en" });
    await toAccountStep(u);

    await w.restart();
    await u.sendText("1234567890");
    expect(u.lastReply()).toContain("Account found");
    await u.sendText("50rb");
    await u.pressButton("⏭ Skip");
    expect(u.lastReply()).toContain("Check before you confirm");
    expect(await drafts(u)).toHaveLength(1);
  });

  it("a flow kept by an older version of the bot is not replayed: the user is told to start again", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "en" });
    await toAccountStep(u);
    // The saved state of this chat as an older code version wrote it.
    const saved = await w.store.getFlow(u.chatId);
    const state = saved.state as { version: [number, number] } | undefined;
    expect(state).toBeDefined();
    expect(await w.store.setFlow(u.chatId, { ...state, version: [state!.version[0], -1] }, saved.version)).toBe(true);

    await w.restart();
    await u.sendText("1234567890");
    expect(u.lastReply()).toContain("The bot was updated");
    expect(u.lastReply()).not.toContain("did not understand");
    expect((await w.store.getFlow(u.chatId)).state).toBeUndefined();
    expect(w.sandbox.calls("/transfer/cek_rekening")).toHaveLength(0);
  });
});

describe("Telegram's 429 inside a flow", () => {
  it("one 429 on an early step costs one wait, not one more on every later step", async () => {
    await world({ bot: { maxRetryDelaySeconds: 5 } });
    const u = await w.linkedUser({ languageCode: "en" });
    // The waits are counted, not timed: the settling below moves the clock on while real work runs,
    // so clock time elapsed says little about how many waits there were on a loaded machine.
    const waits: number[] = [];
    const sleep = w.clock.sleep.bind(w.clock);
    vi.spyOn(w.clock, "sleep").mockImplementation((ms) => {
      waits.push(ms);
      return sleep(ms);
    });
    // The first step waits retry_after (1 s) on the clock, the later ones not at all (a wait
    // replayed from an old 429 would hold them, and the clock does not move).
    w.fake.failNext("sendMessage", { error_code: 429, retry_after: 1 }, { chatId: u.chatId });
    const start = w.clock.now();
    await settle(w.clock, u.sendCommand("transfer"), { stepMs: 100 });
    expect(u.lastReply()).toContain("Pick the destination bank or e-wallet");
    expect(w.clock.now() - start).toBeGreaterThanOrEqual(1000);
    expect(waits).toEqual([1000]);

    const later = async () => {
      await u.sendText("bca");
      await u.pressButton(/BCA/);
      await u.sendText("1234567890");
      await u.sendText("50rb");
      await u.pressButton("⏭ Skip");
    };
    await settle(w.clock, later(), { stepMs: 0, realMs: 2, tries: 5000, what: "a later step waited on the clock" });
    expect(u.lastReply()).toContain("Check before you confirm");
    expect(waits).toEqual([1000]);
  });
});

describe("a chat with no flow saved", () => {
  /** The bot's flow middlewares around one flow, `probe`: asks, waits for an answer, says it got it. */
  function probeBot(onGo: (ctx: BotContext) => Promise<void>) {
    const bot = new Bot<BotContext>(FAKE_BOT_TOKEN, {
      botInfo: FAKE_BOT_INFO,
      client: { fetch: w.fake.fetch as never },
      ContextConstructor: ChatRecordContext as never,
    });
    const chatRecords = new ChatRecords(w.deps.store);
    const root = new Composer<BotContext>();
    root.use(chatRecords.load as Middleware<BotContext>, role as Middleware<BotContext>, extras(w.deps) as Middleware<BotContext>);
    root.use(flows(w.deps, { chatRecords, wayOuts: new WayOuts(), maxRetryDelaySeconds: 1 }));
    async function probe(conversation: BotConversation, ctx: ConvContext) {
      await ctx.reply("question");
      const answer = await conversation.waitFor("message:text");
      await ctx.reply(`got ${answer.message.text}`);
    }
    root.errorBoundary(errorHandler(w.deps), createConversation<BotContext, ConvContext>(probe, "probe"));
    root.command("go", onGo);
    bot.use(root);
    return bot;
  }

  it("an update that found no flow and enters one saves over the state it read: a flow another writer saved meanwhile stands", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "en" });
    // Another chat's flow at the account step: the state another process saves for u meanwhile.
    const other = await w.linkedUser({ languageCode: "en" });
    await toAccountStep(other);
    const theirs = (await w.store.getFlow(other.chatId)).state;
    expect(theirs).toBeDefined();
    const getFlow = w.deps.store.getFlow.bind(w.deps.store);
    let interleaved = false;
    vi.spyOn(w.deps.store, "getFlow").mockImplementation(async (chatId) => {
      const read = await getFlow(chatId);
      if (chatId === u.chatId && !interleaved) {
        interleaved = true;
        expect(await w.deps.store.setFlow(chatId, theirs, read.version)).toBe(true);
      }
      return read;
    });
    await u.sendCommand("beli", "PLN50");
    expect(interleaved).toBe(true);
    expect(u.lastReply()).toContain("PLN meter number");
    expect((await w.store.getFlow(u.chatId)).state).toEqual(theirs);
  });

  it("an update that enters no flow saves no flow state", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "en" });
    const saves = vi.spyOn(w.deps.store, "setFlow");
    await u.sendCommand("harga");
    await u.sendCommand("batal");
    expect(u.lastReply()).toContain("Nothing is running");
    await u.sendText("halo");
    expect(saves).not.toHaveBeenCalled();
    expect(await w.store.getFlow(u.chatId)).toEqual({ state: undefined, version: 0 });
  });

  it("a flow entered by an update that then fails is saved all the same, and takes the next answer", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "en" });
    const bot = probeBot(async (ctx) => {
      await ctx.conversation.enter("probe");
      throw new Error("failed after entering");
    });
    await expect(bot.handleUpdate(u.textUpdate("/go"))).rejects.toThrow("failed after entering");
    expect(w.fake.textOf(w.fake.lastCall("sendMessage")!)).toBe("question");
    expect(Object.keys((await w.store.getFlow(u.chatId)).state?.state as object)).toEqual(["probe"]);
    await bot.handleUpdate(u.textUpdate("42"));
    expect(w.fake.textOf(w.fake.lastCall("sendMessage")!)).toBe("got 42");
    expect((await w.store.getFlow(u.chatId)).state).toBeUndefined();
  });

  it("the controls of an update that is done refuse to enter a flow, as the plugin's do", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "en" });
    let kept: BotContext | undefined;
    const bot = probeBot(async (ctx) => {
      kept = ctx;
      expect(ctx.conversation.active()).toEqual({});
      await ctx.conversation.exitAll();
    });
    await bot.handleUpdate(u.textUpdate("/go"));
    await expect(kept!.conversation.enter("probe")).rejects.toThrow("already completed");
    await expect(kept!.conversation.exitAll()).rejects.toThrow("already completed");
    expect(await w.store.getFlow(u.chatId)).toEqual({ state: undefined, version: 0 });
  });
});
