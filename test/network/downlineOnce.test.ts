/**
 * A downline's purchase is created at most once and debited at most once (docs/wallets.md), through the
 * built bot: a stop between the claim (draft -> sending with its hold, durable) and the create, a stop
 * after the create before its answer was saved, a repeated update and a double tap. Two processes on
 * PostgreSQL: downlineTwoProcesses.test.ts.
 */
import type { Update } from "grammy/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MoneyEngine } from "../../src/money/createOnce.js";
import { makeWorld, type World } from "../support/world.js";
import { run } from "../jobs/support.js";
import { until } from "../support/settle.js";
import { costOf, CREATE, debitsOf, fund, GOLD_MARKUP, rinaAndAndi } from "./support.js";

let w: World;
beforeEach(async () => {
  w = await makeWorld({ watcher: true });
});
afterEach(() => w.close());

const S = 1000;

/**
 * The process dies inside the engine's send: before the create (`reached` false) or after the provider
 * took it, before its answer was saved. The tap never finishes; the next process starts on the same data.
 */
function dieInSend(money: MoneyEngine, reached: boolean): void {
  money.send = async (sending, create) => {
    if (reached) await create(sending);
    return new Promise<never>(() => undefined);
  };
}

/** Another press of the same button (a new update and callback query), as a second tap sends. */
function again(press: Update): Update {
  const copy = structuredClone(press);
  copy.update_id = w.fake.nextUpdateId();
  if (copy.callback_query) copy.callback_query.id = `${copy.callback_query.id}-${copy.update_id}`;
  return copy;
}

async function andiAtConfirm(funded = 30_000) {
  const { rina, andi } = await rinaAndAndi(w);
  await fund(w, rina, "Andi", funded);
  await andi.sendCommand("beli", "S10");
  await andi.sendText("081234567890");
  const screen = andi.messages().at(-1)!.messageId;
  const tx = (await w.store.listTxByChat(rina.chatId)).items.find((t) => t.status === "draft")!;
  return { rina, andi, screen, tx, price: (await costOf(w, "S10")) + GOLD_MARKUP };
}

describe("a downline's purchase, exactly once", () => {
  it("a stop between the claim and the create: never created, never debited; held while unknown, released once not at the provider", async () => {
    const { andi, screen, tx, price } = await andiAtConfirm();
    dieInSend(w.app.deps.money, false);
    const press = andi.callbackUpdate(/Konfirmasi/, { messageId: screen });
    void andi.deliver(press);
    await until(async () => (await w.store.getTx(tx.refId))?.wallet?.state === "held", { what: "the claim was never made" });
    await w.clock.advance(S);
    await w.restart();
    // The hold came back with the record: durable in the claim's own write.
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 30_000, held: price, available: 30_000 - price });
    // The old screen's Confirm again, after the restart: nothing sent.
    await andi.deliver(again(press));
    await run(w, 5 * 60 * S);
    await w.app.deps.wallets.idle();
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
    expect((await w.store.getTx(tx.refId))?.status).toBe("unknown");
    expect(await debitsOf(w, andi.chatId, tx.refId)).toBe(0);
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 30_000, held: price, available: 30_000 - price });
    // Never before the window: answers "not found" for 25 minutes more still keep the hold.
    await run(w, 25 * 60 * S);
    expect((await w.store.getTx(tx.refId))).toMatchObject({ status: "unknown", wallet: { state: "held" } });
    // Not at the provider (docs/wallets.md, as shop-orders rule 9): 3+ answers over 30+ minutes, the key
    // still answering. Failed, and the hold released in the same write; nothing created, nothing debited.
    await run(w, 30 * 60 * S);
    await w.app.deps.wallets.idle();
    expect((await w.store.getTx(tx.refId))).toMatchObject({ status: "failed", wallet: { state: "released" } });
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 30_000, held: 0, available: 30_000 });
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
    expect(await debitsOf(w, andi.chatId, tx.refId)).toBe(0);
    expect(andi.lastReply()).toContain(tx.refId);
  });

  it("a stop between the claim and the create with the key refused: the hold stays (a refused key also reads as not found)", async () => {
    const { andi, screen, tx, price } = await andiAtConfirm();
    dieInSend(w.app.deps.money, false);
    void andi.deliver(andi.callbackUpdate(/Konfirmasi/, { messageId: screen }));
    await until(async () => (await w.store.getTx(tx.refId))?.wallet?.state === "held", { what: "the claim was never made" });
    await w.clock.advance(S);
    await w.restart();
    // The status answers "not found" all along, but the key itself is refused meanwhile (revoked).
    w.sandbox.fault("/get_profile", "reject", 1_000);
    await run(w, 2 * 60 * 60 * S);
    expect(w.sandbox.calls("/get_profile").length).toBeGreaterThan(0);
    expect((await w.store.getTx(tx.refId))).toMatchObject({ status: "unknown", wallet: { state: "held" } });
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 30_000, held: price, available: 30_000 - price });
  });

  it("a stop after the create, before its answer was saved: created once, debited once, after another restart too", async () => {
    const { andi, screen, tx, price } = await andiAtConfirm();
    dieInSend(w.app.deps.money, true);
    const press = andi.callbackUpdate(/Konfirmasi/, { messageId: screen });
    void andi.deliver(press);
    await until(() => w.sandbox.calls(CREATE).length === 1, { what: "the create never reached the provider" });
    // A new process starts a moment later (one started at the same instant takes the create as its own, still running).
    await w.clock.advance(S);
    await w.restart();
    await andi.deliver(again(press));
    await run(w, 30 * S);
    await w.app.deps.wallets.idle();
    expect((await w.store.getTx(tx.refId))).toMatchObject({ status: "success", wallet: { state: "posted" } });
    await w.restart();
    await run(w, 30 * S);
    await w.app.deps.wallets.idle();
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
    expect(await debitsOf(w, andi.chatId, tx.refId)).toBe(1);
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 30_000 - price, held: 0, available: 30_000 - price });
  });

  it("the same Confirm update delivered twice at once, then tapped twice more: one create, one debit", async () => {
    const { andi, screen, tx, price } = await andiAtConfirm();
    const press = andi.callbackUpdate(/Konfirmasi/, { messageId: screen });
    await Promise.all([andi.deliver(press), andi.deliver(structuredClone(press))]);
    // A double tap: two more presses of the same button, each its own update.
    await Promise.all([andi.deliver(again(press)), andi.deliver(again(press))]);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
    await run(w, 30 * S);
    await w.app.deps.wallets.idle();
    expect(await debitsOf(w, andi.chatId, tx.refId)).toBe(1);
    expect(await w.app.deps.wallets.view(andi.chatId)).toEqual({ balance: 30_000 - price, held: 0, available: 30_000 - price });
  });
});
