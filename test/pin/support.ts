/** Typing on the PIN keypad (docs/pin.md) and where its digits must never show. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { FakeUser } from "../support/chat.js";
import type { World } from "../support/world.js";

/** Taps the digits then ✅ on the newest keypad. */
export async function typePin(u: FakeUser, pin: string): Promise<void> {
  for (const d of pin) await u.pressButton(d);
  await u.pressButton("✅");
}

/** /pin, the PIN typed twice. */
export async function setPin(u: FakeUser, pin: string): Promise<void> {
  await u.sendCommand("pin");
  await typePin(u, pin);
  await typePin(u, pin);
}

/** Every file under `dir`, as text. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [readFileSync(path, "latin1")];
  });
}

/** The PIN's digits appear in no text the bot sent, no button's data, no log line, no stored file. */
export async function expectPinNowhere(w: World, pin: string, log = ""): Promise<void> {
  await w.store.flush();
  for (const call of w.fake.calls) expect(JSON.stringify(call.payload ?? {}), `call ${call.method}`).not.toContain(pin);
  expect(log).not.toContain(pin);
  for (const text of filesUnder(w.dir)) expect(text).not.toContain(pin);
}

/** /transfer to BCA 1234567890 up to the confirm screen. */
export async function toTransferConfirm(u: FakeUser, amount = "50rb", account = "1234567890"): Promise<void> {
  await u.sendCommand("transfer");
  await u.sendText("bca");
  await u.pressButton(/BCA/);
  await u.sendText(account);
  await u.sendText(amount);
  await u.pressButton(/⏭ (Skip|Lewati)/);
  expect(u.lastReply()).toMatch(/Check before you confirm|Periksa sebelum konfirmasi/);
}
