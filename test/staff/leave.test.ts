/**
 * A staff member's /keluar asks first: the membership ends only on its confirm button, once; its
 * cancel keeps everything; an old confirm button (pressed again, or after leaving and joining again)
 * ends nothing.
 */
import { afterEach, expect, it } from "vitest";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";
import { inviteToken, lastCallbackAnswer, ownerAndStaff } from "./support.js";

let w: World;
afterEach(() => w?.close());

const LEAVE = /Ya, berhenti/;
const toldLeft = (rina: FakeUser) => rina.messages().filter((m) => m.text?.includes("keluar dari staf Anda")).length;

it("/keluar asks first: cancel keeps the membership, confirm ends it once", async () => {
  w = await makeWorld();
  const { rina, dewi } = await ownerAndStaff(w);
  await dewi.sendCommand("keluar");
  expect(dewi.lastReply()).toContain("Berhenti menjadi kasir");
  expect((await w.store.getChat(dewi.chatId))?.staffOf?.owner).toBe(rina.chatId);
  expect(toldLeft(rina)).toBe(0);

  await dewi.pressButton(/Tetap/);
  expect(dewi.lastReply()).toContain("tetap kasir");
  expect((await w.store.getChat(dewi.chatId))?.staffOf?.owner).toBe(rina.chatId);
  expect(dewi.buttons()).toEqual([]);

  await dewi.sendCommand("keluar");
  const again = dewi.callbackUpdate(LEAVE); // built now: the confirm loses its buttons once pressed
  await dewi.pressButton(LEAVE);
  expect(dewi.lastReply()).toContain("bukan staf lagi");
  expect((await w.store.getChat(dewi.chatId))?.staffOf).toBeUndefined();
  expect(toldLeft(rina)).toBe(1);

  // The same confirm again (a double tap, or a stale chat) ends nothing more.
  await dewi.deliver({ ...again, update_id: w.fake.nextUpdateId() });
  expect(lastCallbackAnswer(w)).toContain("tidak berlaku");
  expect(toldLeft(rina)).toBe(1);
});

it("an old confirm button does nothing after the cashier joined again", async () => {
  w = await makeWorld();
  const { rina, dewi } = await ownerAndStaff(w);
  await dewi.sendCommand("keluar");
  const old = dewi.messages().at(-1)!.messageId;
  // Removed by the owner meanwhile, then invited again: a new membership.
  await rina.sendCommand("staf");
  await rina.pressButton(/Dewi/);
  await rina.pressButton(/Keluarkan sekarang/);
  await w.clock.advance(1000);
  await dewi.sendCommand("start", `staff_${await inviteToken(rina, "cashier")}`);
  expect((await w.store.getChat(dewi.chatId))?.staffOf?.owner).toBe(rina.chatId);

  await dewi.deliver(dewi.callbackUpdate(LEAVE, { messageId: old }));
  expect(lastCallbackAnswer(w)).toContain("tidak berlaku");
  expect((await w.store.getChat(dewi.chatId))?.staffOf?.owner).toBe(rina.chatId);
  expect(toldLeft(rina)).toBe(0);
});
