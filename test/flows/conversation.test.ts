/**
 * How a guided flow behaves around its steps: text that does not fit, a command typed mid-flow, a
 * correction at the confirm screen, a restart in the middle, and Telegram's 429 inside a flow.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World, type WorldOptions } from "../support/world.js";
import { settle } from "../support/settle.js";

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
