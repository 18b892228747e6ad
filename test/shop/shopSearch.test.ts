/**
 * The shop's search through the built bot: a customer finds a product by the words people type
 * ("xl 5", "pulsa xl 5"), and a search that finds nothing says why (sold out, not sold in this shop,
 * no match) and offers the nearest the shop sells.
 */
import { afterEach, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import type { FakeUser } from "../support/chat.js";

let w: World;
afterEach(async () => {
  await w?.close();
});

/** Rina's shop, open, sold with a Rp1.000 markup; Sari, a customer who opened its link. */
async function shopAndCustomer(): Promise<{ rina: FakeUser; sari: FakeUser }> {
  const rina = await w.linkedUser({ firstName: "Rina" });
  await w.deps.settings.setPricing(rina.chatId, { all: { flat: 1000 } });
  await rina.sendCommand("toko", "Cell Rina | Jl. Melati 5");
  await rina.sendCommand("toko");
  await rina.pressButton("🛒 Toko online");
  await rina.pressButton("▶️ Buka toko");
  const sari = w.user({ firstName: "Sari" });
  await sari.sendCommand("start", (await w.deps.shop.get(rina.chatId)).code);
  return { rina, sari };
}

it("'xl 5' and 'pulsa xl 5' name XL 5.000, say it is below the smallest QRIS payment, and offer the nearest XL", async () => {
  w = await makeWorld();
  const { sari } = await shopAndCustomer();
  for (const typed of ["xl 5", "pulsa xl 5"]) {
    await sari.sendText(typed);
    expect(sari.lastReply(), typed).toContain("XL 5.000 di bawah pembayaran QRIS terkecil (Rp10.000)");
    expect(sari.buttons()[0], typed).toMatch(/^XL 10\.000 · Rp/);
  }
  await sari.pressButton(/^XL 10\.000/);
  expect(sari.lastReply()).toContain("Kirim nomor HP tujuan");
});

it("an empty search says a product is sold out or not sold here, or that nothing is called so, with the nearest when there is one", async () => {
  w = await makeWorld();
  const { rina, sari } = await shopAndCustomer();
  w.sandbox.setProductStatus("X25", "empty");
  w.deps.lists.invalidate();
  await sari.sendText("xl 25");
  expect(sari.lastReply()).toContain("XL 25.000 sedang habis");
  expect(sari.buttons().some((b) => b.startsWith("XL 50.000 · "))).toBe(true);

  await rina.sendCommand("toko");
  await rina.pressButton("🛒 Toko online");
  await rina.pressButton("🗂 Kategori");
  await rina.pressButton("✅ Data");
  await sari.sendText("xl 3 gb");
  expect(sari.lastReply()).toContain("XL Data 3 GB / 30 Hari tidak dijual di toko ini");
  expect(sari.buttons()).toEqual(["🏠 Toko"]);

  await sari.sendText("xl 7");
  expect(sari.lastReply()).toContain("Tidak ada produk untuk “xl 7”");
  expect(sari.buttons().some((b) => b.startsWith("XL "))).toBe(true);
  await sari.sendText("qwerty");
  expect(sari.lastReply()).toContain("Tidak ada produk untuk “qwerty”");
  expect(sari.buttons()).toEqual(["🏠 Toko"]);
});
