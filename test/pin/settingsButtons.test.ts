/** /pin shows buttons for the purchase threshold and the daily limit, each behind the PIN (issue 39). */
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { setPin, typePin } from "./support.js";

const PIN = "739164";

describe("/pin's setting buttons", () => {
  let w: World;
  afterEach(() => w?.close());

  it("a preset threshold and limit ask the PIN then apply; 'type your own' says how", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await setPin(u, PIN);
    await u.sendCommand("pin");
    await u.pressButton(/Batas PIN pembelian/);
    await u.pressButton("Rp500.000");
    expect(u.lastReply()).toContain("Masukkan PIN untuk: Ubah batas PIN");
    expect((await w.app.deps.pins.state(u.chatId)).purchaseAbove).toBeUndefined();
    await typePin(u, PIN);
    expect(u.replies().join("\n")).toContain("Pembelian di atas Rp500.000 kini meminta PIN");
    expect((await w.app.deps.pins.state(u.chatId)).purchaseAbove).toBe(500_000);

    await u.sendCommand("pin");
    await u.pressButton(/Batas uang keluar harian/);
    await u.pressButton("Rp5.000.000");
    await typePin(u, "111222");
    expect((await w.app.deps.pins.state(u.chatId)).dailyLimit).toBeUndefined();
    await typePin(u, PIN);
    expect((await w.app.deps.pins.state(u.chatId)).dailyLimit).toBe(5_000_000);

    await u.sendCommand("pin");
    await u.pressButton(/Batas uang keluar harian/);
    await u.pressButton(/Ketik sendiri/);
    expect(u.lastReply()).toContain("/pin batas");
  });
});
