/**
 * What a reseller meets around money screens (issue "Trust in daily use", points 1–7), through the
 * fake Bot API and the sandbox.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import type { FakeUser } from "../support/chat.js";

const CREATE = "/transaksi/create";
const CONFIRM = /Konfirmasi|Confirm/;
let w: World;
afterEach(() => w?.close());

function message(u: FakeUser, messageId: number) {
  return w.fake.message(u.chatId, messageId)!;
}

describe("1. confirm says it is sending, and a repeated purchase asks first", () => {
  it("a slow create: the confirm screen shows 'Mengirim ke penyedia…' with its details while the call runs", async () => {
    w = await makeWorld({ upstreamTimeoutMs: 400 });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    const screen = u.sentMessageIds.at(-1)!;
    w.sandbox.fault(CREATE, "timeout");
    const pressing = u.pressButton(CONFIRM);
    // The request reached the provider: by then the screen must already say so.
    await vi.waitFor(() => expect(w.sandbox.calls(CREATE)).toHaveLength(1), { timeout: 5000, interval: 5 });
    const during = message(u, screen);
    expect(during.text).toContain("Mengirim ke penyedia");
    expect(during.text).toContain("081234567890");
    expect(during.text).toContain("S10");
    expect(during.inlineKeyboard).toBeUndefined();
    await pressing;
    expect(u.lastReply()).toContain("Hasil belum diketahui");
    expect(message(u, screen).text).not.toContain("Mengirim ke penyedia");
  });

  it("a second /beli of the same product and target while the first is unknown warns and creates nothing until asked", async () => {
    w = await makeWorld({ upstreamTimeoutMs: 400 });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    w.sandbox.fault(CREATE, "timeout");
    await u.pressButton(CONFIRM);
    expect(w.store.listTxByChat(u.chatId).items[0]!.status).toBe("unknown");

    await u.sendCommand("beli", "S10 081234567890");
    expect(u.lastReply()).toMatch(/Sudah ada pembelian .* untuk 081234567890 pukul \d\d\.\d\d WIB/);
    expect(u.buttons()).toEqual(["🔁 Ya, beli lagi", "❌ Batal"]);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);

    await u.pressButton("❌ Batal");
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);

    await u.sendCommand("beli", "S10 081234567890");
    await u.pressButton("🔁 Ya, beli lagi");
    expect(u.buttons()).toEqual(["✅ Konfirmasi", "❌ Batal"]);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
    await u.pressButton(CONFIRM);
    expect(w.sandbox.calls(CREATE)).toHaveLength(2);
  });

  it("another target or product is not a repeat", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("topup", "S10 081234567890");
    await u.pressButton(CONFIRM);
    await u.sendCommand("topup", "S10 081298765432");
    expect(u.buttons()).toEqual(["✅ Confirm", "❌ Cancel"]);
  });
});

describe("5. the balance is on every confirm screen and too little is refused up front", () => {
  it("shows the balance next to the price", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    w.sandbox.setBalance(w.demoKey, 123_456);
    await u.sendCommand("topup", "S10 081234567890");
    expect(u.lastReply()).toContain("Your balance: Rp123.456");
  });

  it("too little balance: no confirm button, a Deposit button, nothing created", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    w.sandbox.setBalance(w.demoKey, 1_000);
    await u.sendCommand("beli", "S10 081234567890");
    expect(u.lastReply()).toContain("Saldo tidak cukup");
    expect(u.lastReply()).toContain("Rp1.000");
    expect(u.buttons()).toEqual(["🏦 Deposit", "🏠 Menu"]);
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
  });

  it("the cached balance is refreshed after a purchase", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    w.sandbox.setBalance(w.demoKey, 15_000);
    await u.sendCommand("topup", "S10 081234567890");
    await u.pressButton(CONFIRM);
    await u.sendCommand("topup", "S10 081298765432");
    expect(u.lastReply()).toContain("Balance too low");
  });
});
