/**
 * After the owner's /keluar its staff cannot sell: they are told the owner's account is no longer
 * linked and to ask the owner (they cannot link a key themselves). The owner's /keluar says that
 * its staff and its online shop link stop working until a key is linked again.
 */
import { afterEach, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { ownerAndStaff } from "./support.js";

let w: World;
afterEach(() => w?.close());

const OWNER_GONE = "Akun pemilik toko tidak lagi terhubung ke bot";

it("a cashier's /beli after the owner's /keluar: the owner's account is not linked, ask the owner; no /start, no pasting a key", async () => {
  w = await makeWorld();
  const { rina, dewi } = await ownerAndStaff(w);
  await rina.sendCommand("keluar");
  await dewi.sendCommand("beli", "S10 081234567890");
  expect(dewi.lastReply()).toContain(OWNER_GONE);
  expect(dewi.lastReply()).toContain("pemilik");
  expect(dewi.lastReply()).not.toMatch(/\/start|tempelkan/);
});

it("a confirm screen shown before the owner's /keluar: Confirm says the owner's account is not linked", async () => {
  w = await makeWorld();
  const { rina, dewi } = await ownerAndStaff(w);
  await dewi.sendCommand("beli", "S10 081234567890");
  await rina.sendCommand("keluar");
  await dewi.pressButton(/Konfirmasi/);
  const alerts = w.fake.callsOf("answerCallbackQuery");
  expect(String(alerts.at(-1)?.payload.text)).toContain(OWNER_GONE);
});

it("a cashier's bill inquiry and price list after the owner's /keluar say the same", async () => {
  w = await makeWorld();
  const { rina, dewi } = await ownerAndStaff(w);
  await rina.sendCommand("keluar");
  await dewi.sendCommand("harga");
  expect(dewi.lastReply()).toContain(OWNER_GONE);
  await dewi.sendCommand("tagihan");
  expect(dewi.lastReply()).toContain(OWNER_GONE);
});

it("the owner's own commands still ask the owner to link a key", async () => {
  w = await makeWorld();
  const { rina } = await ownerAndStaff(w);
  await rina.sendCommand("keluar");
  await rina.sendCommand("beli", "S10 081234567890");
  expect(rina.lastReply()).toContain("Akun Anda belum terhubung");
});

it("the owner's /keluar with staff says they stop working until a key is linked again", async () => {
  w = await makeWorld();
  const { rina } = await ownerAndStaff(w);
  await rina.sendCommand("keluar");
  expect(rina.lastReply()).toContain("API key sudah dihapus");
  expect(rina.lastReply()).toContain("Staf Anda tidak bisa berjualan sampai API key dihubungkan lagi");
});

it("the owner's /keluar with an open online shop says its link stops selling too; without either, no warning", async () => {
  w = await makeWorld();
  const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
  await w.deps.shop.update(rina.chatId, { enabled: true });
  await rina.sendCommand("keluar");
  expect(rina.lastReply()).toContain("Tautan toko online tidak bisa dipakai berbelanja sampai API key dihubungkan lagi");
  expect(rina.lastReply()).not.toContain("Staf Anda");
  const budi = await w.linkedUser({ firstName: "Budi", languageCode: "en" });
  await budi.sendCommand("logout");
  expect(budi.lastReply()).toBe("👋 The API key was removed from the bot. Send /start to link again.");
});
