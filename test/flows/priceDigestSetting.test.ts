/**
 * The price digest's setting (/harga ringkasan): each answer says how to change it from there, in
 * the chat's language, so the reseller who switched it on is not left guessing the off command.
 */
import { afterEach, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";

let w: World;
afterEach(() => w?.close());

it("switched on or moved to another time, the answer names how to turn it off and change the time", async () => {
  w = await makeWorld();
  const rina = await w.linkedUser({ languageCode: "id" });
  await rina.sendCommand("harga", "ringkasan 07.30");
  expect(rina.lastReply()).toContain("aktif, tiap hari pukul 07.30 WIB");
  expect(rina.lastReply()).toContain("/harga ringkasan off");
  await rina.sendCommand("harga", "ringkasan off");
  expect(rina.lastReply()).toContain("/harga ringkasan on");

  const ann = await w.linkedUser({ languageCode: "en" });
  await ann.sendCommand("prices", "digest on");
  expect(ann.lastReply()).toContain("/prices digest off");
  expect(ann.lastReply()).toContain("/prices digest 07:30");
});

it("/bantuan names the digest setting beside /harga", async () => {
  w = await makeWorld();
  const rina = await w.linkedUser({ languageCode: "id" });
  await rina.sendCommand("bantuan");
  expect(rina.lastReply()).toContain("/harga ringkasan");
});
