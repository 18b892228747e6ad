import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TxRecord } from "../../src/store/index.js";
import type { BalanceAlerts } from "../../src/jobs/alerts.js";
import type { FakeUser } from "../support/chat.js";
import { TelegramErrors } from "../support/fakeBotApi.js";
import { makeWorld, type World } from "../support/world.js";
import { settle } from "../support/settle.js";

const ROUND = 30 * 60_000;
let w: World;
let alerts: BalanceAlerts;

beforeEach(async () => {
  w = await makeWorld({ alerts: { debounceMs: 10_000 } });
  alerts = w.deps.alerts!;
});
afterEach(() => w.close());

/** Moves to the next periodic round and waits for it. */
async function nextRound(): Promise<void> {
  await w.clock.advance(ROUND);
  await settle(w.clock, alerts.idle(), { stepMs: 10 });
}

async function watchedUser(threshold: number | undefined, lang: "id" | "en" = "en"): Promise<FakeUser> {
  const u = await w.linkedUser({ languageCode: lang });
  if (threshold !== undefined) await w.store.updateChat(u.chatId, { alertThreshold: threshold });
  return u;
}

const alertsTo = (u: FakeUser) =>
  w.fake
    .sentTo(u.chatId)
    .map((c) => w.fake.textOf(c) ?? "")
    .filter((t) => /Low balance|Saldo menipis/.test(t));
const profileCalls = () => w.sandbox.calls("/get_profile").length;
const tx = (chatId: number) => ({ refId: "R1", chatId, kind: "prepaid", status: "pending", amount: 10_000 }) as TxRecord;

describe("BalanceAlerts", () => {
  it("fires once, stays quiet while low, re-arms above the threshold and fires again on the next dip", async () => {
    const u = await watchedUser(100_000);
    alerts.start();
    w.sandbox.setBalance(w.demoKey, 50_000);

    await nextRound();
    expect(alertsTo(u)).toHaveLength(1);
    expect(alertsTo(u)[0]).toContain("Rp50,000");
    expect(alertsTo(u)[0]).toContain("Rp100,000");
    expect((await w.store.getChat(u.chatId))!.alertFired).toBe(true);
    const alert = w.fake.sentTo(u.chatId).at(-1)!;
    expect(alert.payload.reply_markup).toMatchObject({ inline_keyboard: [[{ callback_data: "menu:deposit" }, { callback_data: "menu:alerts" }]] });

    await nextRound();
    w.sandbox.setBalance(w.demoKey, 40_000);
    await nextRound();
    expect(alertsTo(u)).toHaveLength(1);

    w.sandbox.setBalance(w.demoKey, 100_000); // at the threshold counts as recovered
    await nextRound();
    expect((await w.store.getChat(u.chatId))!.alertFired).toBe(false);
    expect(alertsTo(u)).toHaveLength(1);

    w.sandbox.setBalance(w.demoKey, 99_999);
    await nextRound();
    expect(alertsTo(u)).toHaveLength(2);
    expect((await w.store.getChat(u.chatId))!.alertFired).toBe(true);
  });

  it("checks after a purchase, once for a burst (debounced)", async () => {
    const u = await watchedUser(2_000_000, "id");
    const before = profileCalls();
    for (let i = 0; i < 5; i++) w.deps.events.emit("created", tx(u.chatId));
    // The emitter does not wait; the alerts read the chat before setting the debounce timer.
    await alerts.idle();
    await w.clock.advance(9_000);
    expect(profileCalls()).toBe(before);
    await w.clock.advance(1_000);
    await settle(w.clock, alerts.idle(), { stepMs: 10 });
    expect(profileCalls()).toBe(before + 1);
    expect(alertsTo(u)).toHaveLength(1);
    expect(alertsTo(u)[0]).toContain("Saldo menipis");

    // A later purchase checks again, but the dip was already told.
    await alerts.afterCreate(tx(u.chatId));
    await w.clock.advance(10_000);
    await settle(w.clock, alerts.idle(), { stepMs: 10 });
    expect(profileCalls()).toBe(before + 2);
    expect(alertsTo(u)).toHaveLength(1);
  });

  it("skips chats without a threshold, inactive chats and purchases of unwatched chats", async () => {
    const watched = await watchedUser(2_000_000);
    const plain = await watchedUser(undefined);
    const inactive = await watchedUser(2_000_000);
    await w.store.updateChat(inactive.chatId, { inactive: true });
    const before = profileCalls();
    await alerts.afterCreate(tx(plain.chatId));
    await w.clock.advance(10_000);
    expect(await alerts.runRound()).toEqual(["alerted"]);
    expect(profileCalls()).toBe(before + 1);
    expect(alertsTo(watched)).toHaveLength(1);
    expect(w.fake.sentTo(plain.chatId)).toEqual([]);
    expect(w.fake.sentTo(inactive.chatId)).toEqual([]);
  });

  it("logs upstream failures and tries again next round", async () => {
    const u = await watchedUser(2_000_000);
    w.sandbox.fault("/get_profile", "html502");
    expect(await alerts.runRound()).toEqual(["error"]);
    expect(alertsTo(u)).toHaveLength(0);
    expect((await w.store.getChat(u.chatId))!.alertFired).toBeUndefined();
    expect(await alerts.runRound()).toEqual(["alerted"]);
    expect(alertsTo(u)).toHaveLength(1);
  });

  it("a failed alert is tried again next round; a 403 marks the chat inactive", async () => {
    const u = await watchedUser(2_000_000);
    const blocked = await watchedUser(2_000_000);
    w.fake.failNext("sendMessage", TelegramErrors.internal(), { chatId: u.chatId });
    w.fake.failNext("sendMessage", TelegramErrors.blocked(), { chatId: blocked.chatId });
    await alerts.runRound();
    expect((await w.store.getChat(u.chatId))!.alertFired).toBeFalsy();
    expect((await w.store.getChat(blocked.chatId))!.inactive).toBe(true);

    await alerts.runRound();
    expect(alertsTo(u)).toHaveLength(1);
    expect(w.fake.calls.filter((c) => c.payload.chat_id === blocked.chatId)).toHaveLength(1);
  });

  it("waits out a 429 on the clock and still alerts once", async () => {
    const u = await watchedUser(2_000_000);
    w.fake.failNext("sendMessage", TelegramErrors.tooManyRequests(5), { chatId: u.chatId });
    const round = alerts.runRound();
    await settle(w.clock, round, { stepMs: 50 });
    expect(await round).toEqual(["alerted"]);
    expect(alertsTo(u)).toHaveLength(1);
    const [limited, ok] = w.fake.calls.filter((c) => c.payload.chat_id === u.chatId);
    expect(ok!.at - limited!.at).toBeGreaterThanOrEqual(5000);
  });

  it("stops cleanly: no rounds after stop()", async () => {
    await watchedUser(2_000_000);
    alerts.start();
    await alerts.stop();
    const before = profileCalls();
    await w.clock.advance(3 * ROUND);
    expect(profileCalls()).toBe(before);
  });

  it("a purchase's check when the store cannot be read is skipped, never a rejection no one handles", async () => {
    const u = await watchedUser(1_000_000_000);
    vi.spyOn(w.store, "getChat").mockRejectedValueOnce(new Error("connection reset"));
    await expect(alerts.afterCreate(tx(u.chatId))).resolves.toBeUndefined();
    vi.restoreAllMocks();
    await alerts.afterCreate(tx(u.chatId));
    await w.clock.advance(10_000);
    await settle(w.clock, alerts.idle());
    expect(alertsTo(u)).toHaveLength(1);
  });
});
