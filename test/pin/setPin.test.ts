/** /pin: a PIN set on the keypad, typed twice, stored only as its hash (docs/pin.md). */
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logging/logger.js";
import { PinKind } from "../../src/domain/pin.js";
import { makeWorld, type World } from "../support/world.js";
import { expectPinNowhere, setPin, typePin } from "./support.js";

const PIN = "739164";

describe("/pin", () => {
  let w: World;
  afterEach(() => w?.close());

  it("sets a PIN typed twice on the keypad: the keypad shows only how many were typed; the digits are in no message, log line or file", async () => {
    let log = "";
    const sink = new Writable({ write: (chunk, _enc, done) => ((log += chunk), done()) });
    w = await makeWorld({ logger: createLogger("trace", sink) });
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("pin");
    expect(u.lastReply()).toContain("Type a new PIN");
    expect(u.keyboard()).toEqual([["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"], ["⌫", "0", "✅"], ["❌ Cancel"]]);
    await u.pressButton("7");
    await u.pressButton("3");
    await u.pressButton("9");
    expect(u.lastReply()).toContain("●●●○○○");
    await u.pressButton("⌫");
    expect(u.lastReply()).toContain("●●○○○○");
    await u.pressButton("9");
    for (const d of PIN.slice(3)) await u.pressButton(d);
    expect(u.lastReply()).toContain("●●●●●●");
    await u.pressButton("✅");
    expect(u.lastReply()).toContain("Type the new PIN once more");
    await typePin(u, PIN);
    expect(u.replies().join("\n")).toContain("PIN saved");
    // Told in a message of its own, with "Not me".
    expect(u.lastReply()).toContain("Transaction PIN set");
    expect(u.buttons()).toEqual(["🚫 Not me"]);

    const doc = await w.store.getDoc(PinKind, String(u.chatId));
    expect(doc?.value.hash).toMatch(/^scrypt:[0-9a-f]{32}:[0-9a-f]{64}$/);
    await expectPinNowhere(w, PIN, log);
    // Audit log.
    await u.sendCommand("audit");
    expect(u.lastReply()).toContain("Transaction PIN set");
  });

  it("refuses an easy PIN and two PINs that differ", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("pin");
    for (const easy of ["123456", "654321", "777777"]) {
      await typePin(u, easy);
      expect(u.lastReply()).toContain("easy to guess");
    }
    await typePin(u, PIN);
    await typePin(u, "739165");
    expect(u.lastReply()).toContain("The two PINs differ");
    expect(await w.deps.pins.isSet(u.chatId)).toBe(false);
  });

  it("changing the PIN asks the old one first; a wrong old one changes nothing", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await setPin(u, PIN);
    await u.sendCommand("pin");
    expect(u.lastReply()).toContain("Transaction PIN is on");
    await u.pressButton("🔁 Change PIN");
    expect(u.lastReply()).toContain("Enter your PIN for: Change PIN");
    await typePin(u, "111222");
    expect(u.lastReply()).toContain("Wrong PIN. 4 tries left");
    await typePin(u, PIN);
    expect(u.lastReply()).toContain("Type a new PIN");
    await typePin(u, "582047");
    await typePin(u, "582047");
    expect(u.replies().join("\n")).toContain("PIN changed");
    expect((await w.deps.pins.check(u.chatId, "582047")).kind).toBe("ok");
  });
  it("a keypad past its time (or a restart) says so in the message itself, not only in a passing alert", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("pin");
    await u.pressButton("7");
    await u.pressButton("3");
    await w.clock.advance(6 * 60_000);
    await u.pressButton("9");
    expect(u.lastReply()).toContain("Papan PIN ini sudah tidak berlaku");
    expect(u.lastReply()).not.toContain("●●");
    expect(u.buttons()).toEqual([]);
  });
});
