/** The PIN gate on the owner's transfer, and on purchases above the owner's threshold (docs/pin.md). */
import { rupiah } from "../../src/render/format.js";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { setPin, toTransferConfirm, typePin } from "./support.js";

const PIN = "739164";

describe("the PIN gate", () => {
  let w: World;
  afterEach(() => w?.close());
  const creates = () => w.sandbox.calls("/transfer/create").length;

  it("a transfer's Confirm asks the PIN: a wrong one creates nothing, the right one creates it once and tells the owner apart", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await setPin(u, PIN);
    await toTransferConfirm(u);
    await u.pressButton("✅ Confirm");
    expect(u.lastReply()).toContain("Enter your PIN for: Transfer");
    expect(creates()).toBe(0);
    await typePin(u, "111222");
    expect(u.lastReply()).toContain("Wrong PIN");
    expect(creates()).toBe(0);
    await typePin(u, PIN);
    expect(creates()).toBe(1);
    const said = u.messages().map((m) => m.text ?? "").join("\n");
    expect(said).toContain("Transfer of Rp50,000 to Bank Central Asia (BCA) 1234567890 confirmed");
    const [tx] = (await w.store.listTxByChat(u.chatId)).items;
    expect(tx?.status).not.toBe("draft");
  });

  it("a transfer over the daily limit is refused on its confirm screen: what is left today and what to do, no Konfirmasi", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await setPin(u, PIN);
    await u.sendCommand("pin", "batas 30rb");
    await typePin(u, PIN);
    expect(u.replies().join("\n")).toContain("Batas uang keluar harian: Rp30.000");
    await toTransferConfirm(u);
    const screen = u.messages().filter((m) => m.text?.includes("Periksa sebelum konfirmasi")).at(-1)!.messageId;
    await u.pressButton(/Konfirmasi/, { messageId: screen });
    const text = w.fake.message(u.chatId, screen)!.text!;
    expect(text).toContain("Melebihi batas uang keluar harian Rp30.000. Sisa hari ini: Rp30.000");
    expect(text).toContain("Kirim paling banyak Rp30.000 hari ini dengan /transfer, atau sisanya besok. Batas diubah di /pin batas");
    expect(text).toContain("Rp50.000"); // the details stay
    expect(text).not.toContain("Periksa sebelum konfirmasi");
    expect(u.buttons({ messageId: screen })).toEqual([]);
    expect(creates()).toBe(0);
    const [tx] = (await w.store.listTxByChat(u.chatId)).items;
    expect(tx?.status).toBe("cancel");
  });

  it("without a PIN a transfer asks none, and the confirm screen says once a day that no PIN is set", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await toTransferConfirm(u);
    expect(u.replies().join("\n")).toContain("No transaction PIN yet");
    await u.pressButton("✅ Confirm");
    expect(creates()).toBe(1);
    await toTransferConfirm(u, "20rb", "1234567001");
    expect(u.replies().join("\n")).not.toContain("No transaction PIN yet");
    // The next WIB day, /saldo says it once.
    await w.clock.advance(24 * 60 * 60_000);
    await u.sendCommand("saldo");
    expect(u.lastReply()).toContain("No transaction PIN yet");
    await u.sendCommand("saldo");
    expect(u.lastReply()).not.toContain("No transaction PIN yet");
    await setPin(u, PIN);
    await w.clock.advance(24 * 60 * 60_000);
    await u.sendCommand("saldo");
    expect(u.lastReply()).not.toContain("No transaction PIN yet");
  });

  it("a purchase under the owner's threshold takes the same taps as without a PIN; above it asks the PIN", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await setPin(u, PIN);
    await u.sendCommand("pin", "buy 100rb");
    await typePin(u, PIN);
    expect(u.replies().join("\n")).toContain("Purchases above Rp100,000 now ask the PIN");
    await u.sendCommand("beli", "S10 081234567890");
    await u.pressButton("✅ Confirm");
    // One tap: the create went out.
    expect(w.sandbox.calls("/transaksi/create").length).toBeGreaterThan(0);
    await u.sendCommand("pin", "buy 5rb");
    await typePin(u, PIN);
    const before = w.sandbox.calls("/transaksi/create").length;
    await u.sendCommand("beli", "S10 081234567891");
    await u.pressButton("✅ Confirm");
    // The keypad names the amount it is for.
    const price = (await w.store.listTxByChat(u.chatId)).items.find((t) => t.target === "081234567891")!.amount;
    expect(u.lastReply()).toContain(`Enter your PIN for: Purchase of ${rupiah(price, "en")} (above the PIN threshold)`);
    expect(w.sandbox.calls("/transaksi/create").length).toBe(before);
    await typePin(u, PIN);
    expect(w.sandbox.calls("/transaksi/create").length).toBe(before + 1);
  });
});
