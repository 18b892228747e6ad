/** Wrong tries, the forgotten PIN, "Not me", the daily limit and the other gated acts (docs/pin.md). */
import { wibClock, wibTime } from "../../src/render/format.js";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { setPin, toTransferConfirm, typePin } from "./support.js";

const PIN = "739164";
const MIN = 60_000;

describe("PIN protection", () => {
  let w: World;
  afterEach(() => w?.close());
  const creates = () => w.sandbox.calls("/transfer/create").length;
  const alert = () => String(w.fake.lastCall("answerCallbackQuery")?.payload.text ?? "");

  it("5 wrong tries lock money-out for 15 min and tell the owner; sales go on; after the lock the right PIN works; the next lock lasts 30 min", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await setPin(u, PIN);
    await toTransferConfirm(u);
    await u.pressButton("✅ Confirm");
    for (let i = 0; i < 5; i++) await typePin(u, "111222");
    expect(u.replies().join("\n")).toContain("5 wrong PINs. Money-out is locked until");
    expect(u.buttons()).toEqual(["🚫 Not me"]);
    expect(creates()).toBe(0);
    // Locked: the Confirm is refused without a keypad.
    await u.pressButton("✅ Confirm", { messageId: u.messages().find((m) => m.text?.includes("Check before you confirm"))!.messageId });
    expect(alert()).toContain("locked until");
    // Sales go on.
    await u.sendCommand("beli", "S10 081234567890");
    await u.pressButton("✅ Confirm");
    expect(w.sandbox.calls("/transaksi/create")).toHaveLength(1);
    await w.clock.advance(15 * MIN + 1000);
    await toTransferConfirm(u, "20rb", "1234567001");
    await u.pressButton("✅ Confirm");
    await typePin(u, PIN);
    expect(creates()).toBe(1);
    // A second lock: 30 minutes. The right PIN reset the doubling, so lock twice in a row.
    await toTransferConfirm(u, "20rb", "1234567002");
    await u.pressButton("✅ Confirm");
    for (let i = 0; i < 5; i++) await typePin(u, "111222");
    await w.clock.advance(15 * MIN + 1000);
    await u.pressButton("✅ Confirm", { messageId: u.messages().filter((m) => m.text?.includes("Check before you confirm")).at(-1)!.messageId });
    for (let i = 0; i < 5; i++) await typePin(u, "111222");
    await w.clock.advance(15 * MIN + 1000);
    await u.pressButton("✅ Confirm", { messageId: u.messages().filter((m) => m.text?.includes("Check before you confirm")).at(-1)!.messageId });
    expect(alert()).toContain("locked until");
    expect(creates()).toBe(1);
  });

  it("locked, a purchase above the PIN threshold is refused, and the alert does not say every sale goes on", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await setPin(u, PIN);
    await u.sendCommand("pin", "buy 5rb");
    await typePin(u, PIN);
    await toTransferConfirm(u);
    await u.pressButton("✅ Confirm");
    // Mid-minute, as a real lock starts.
    await w.clock.advance(30_000);
    for (let i = 0; i < 5; i++) await typePin(u, "111222");
    await u.sendCommand("beli", "S10 081234567890");
    await u.pressButton("✅ Confirm");
    expect(w.sandbox.calls("/transaksi/create")).toHaveLength(0);
    expect(alert()).toContain("locked until");
    expect(alert()).toContain("Sales that need no PIN go on");
    // "Locked until HH:MM" holds from that minute on: the lock ends within the minute before, not after it.
    const [h, m] = /locked until (\d\d):(\d\d)/.exec(alert())!.slice(1).map(Number) as [number, number];
    const wib = new Date(w.clock.now() + 7 * 3_600_000);
    const shown = Date.UTC(wib.getUTCFullYear(), wib.getUTCMonth(), wib.getUTCDate(), h, m) - 7 * 3_600_000;
    await w.clock.advance(shown - w.clock.now());
    await toTransferConfirm(u, "20rb", "1234567001");
    await u.pressButton("✅ Confirm");
    expect(alert()).not.toContain("locked until");
    expect(u.lastReply()).toContain("Enter your PIN");
  });

  it("a forgotten PIN is reset by sending the API key again: money-out held 24 h, said on every refusal", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await setPin(u, PIN);
    await u.sendText(w.demoKey);
    expect(u.replies().join("\n")).toContain("Your API key matches: the PIN is removed");
    expect(await w.deps.pins.isSet(u.chatId)).toBe(false);
    await toTransferConfirm(u);
    await u.pressButton("✅ Confirm");
    expect(alert()).toContain("Money-out is held until");
    // Tomorrow's time says its date; once it is today's, the time alone.
    const until = new Date(Math.ceil((w.clock.now() + 24 * 60 * MIN) / MIN) * MIN);
    expect(alert()).toContain(wibTime(until, "en"));
    await w.clock.advance(23 * 60 * MIN);
    await u.pressButton("✅ Confirm");
    expect(alert()).toContain("Money-out is held until");
    expect(alert()).toContain(`until ${wibClock(until, "en")}`);
    expect(creates()).toBe(0);
    await w.clock.advance(61 * MIN);
    await toTransferConfirm(u, "20rb", "1234567001");
    await u.pressButton("✅ Confirm");
    expect(creates()).toBe(1);
  });

  it("'Not me' freezes money-out until the PIN is entered again", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await setPin(u, PIN);
    await u.pressButton("🚫 Not me");
    expect(u.lastReply()).toContain("Money-out is frozen");
    await u.sendCommand("audit");
    expect(u.lastReply()).toContain("Money-out frozen");
    await toTransferConfirm(u);
    await u.pressButton("✅ Confirm");
    await typePin(u, PIN);
    expect(creates()).toBe(1);
    expect((await w.deps.pins.state(u.chatId)).frozen).toBeUndefined();
  });

  it("a daily limit counts lowering at once and raising 24 h later", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await setPin(u, PIN);
    await u.sendCommand("pin", "limit 60rb");
    await typePin(u, PIN);
    expect(u.replies().join("\n")).toContain("Daily money-out limit: Rp60,000, from now");
    await toTransferConfirm(u, "50rb");
    await u.pressButton("✅ Confirm");
    await typePin(u, PIN);
    expect(creates()).toBe(1);
    await toTransferConfirm(u, "20rb", "1234567001");
    await u.pressButton("✅ Confirm");
    expect(alert()).toContain("Over the daily money-out limit of Rp60,000. Left today: Rp10,000");
    // The refused screen says so itself and keeps no Confirm (its draft is cancelled).
    expect(u.buttons({ messageId: u.messages().filter((m) => m.text?.includes("Left today")).at(-1)!.messageId })).toEqual([]);
    await u.sendCommand("pin", "limit 1jt");
    await typePin(u, PIN);
    expect(u.replies().join("\n")).toContain("a raise waits 24 hours");
    await toTransferConfirm(u, "20rb", "1234567001");
    await u.pressButton("✅ Confirm", { messageId: u.messages().filter((m) => m.text?.includes("Check before you confirm")).at(-1)!.messageId });
    expect(alert()).toContain("Over the daily money-out limit of Rp60,000");
    expect(creates()).toBe(1);
  });

  it("staff and downline invitations and /kunci, /keluar ask the PIN", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await setPin(u, PIN);
    await u.sendCommand("staf");
    await u.pressButton(/Invite a cashier/);
    expect(u.lastReply()).toContain("Enter your PIN for: Invite staff");
    await typePin(u, PIN);
    expect(u.replies().join("\n")).toMatch(/start=staff_/);
    await u.sendCommand("kunci");
    expect(u.lastReply()).toContain("Enter your PIN for: Replace or remove the API key");
    await u.pressButton("❌ Cancel");
    await u.sendCommand("keluar");
    await typePin(u, "111222");
    expect(await w.store.getApiKey(u.chatId)).toBe(w.demoKey);
    await typePin(u, PIN);
    expect(await w.store.getApiKey(u.chatId)).toBeUndefined();
  });
});
