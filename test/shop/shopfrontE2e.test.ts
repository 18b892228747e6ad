/**
 * A customer buys through the shop front end to end, through the built bot: the shop link, a search,
 * a PLN token, the meter number, the summary, "Bayar dengan QRIS", the payer pays the sandbox's QRIS,
 * "Cek pembayaran", and the token arrives in the customer's chat while the reseller hears of the sale
 * with its profit. One order, one purchase.
 */
import { afterEach, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { decodeQrPng } from "../support/qr.js";
import { run } from "./support.js";

let w: World;
afterEach(() => w?.close());

it("link, search, target, summary, QRIS, paid, the token: the customer and the reseller are told", async () => {
  w = await makeWorld({ watcher: true });
  await w.app.start();
  const rina = await w.linkedUser({ firstName: "Rina" });
  await w.deps.settings.setPricing(rina.chatId, { all: { flat: 1000 } });
  await rina.sendCommand("toko", "online");
  await rina.pressButton("▶️ Buka toko");
  const code = (await w.deps.shop.get(rina.chatId)).code;

  const sari = w.user({ firstName: "Sari" });
  await sari.sendCommand("start", code);
  await sari.sendText("pln 20");
  // PLN 20.000 costs Rp20.113: Rp21.200 with Rina's markup, Rp21.350 with the QRIS fee she passes on, Rp21.400 rounded up to the shop's Rp100 step.
  await sari.pressButton("PLN 20.000 · Rp21.400");
  await sari.sendText("1234 5678 901");
  expect(sari.lastReply()).toContain("Total bayar: Rp21.400");
  await sari.pressButton("💳 Bayar dengan QRIS");
  expect(decodeQrPng(sari.lastPhoto())).toMatch(/^000201/);

  const [order] = await w.deps.shopOrders.listByCustomer(rina.chatId, sari.chatId);
  expect(order).toMatchObject({ state: "awaiting_payment", value: { productCode: "PLN20", target: "12345678901", price: 21_400, cost: 20_113 } });
  w.sandbox.payDeposit((await w.store.getTx(order!.value.depositRef))!.upstreamId!);
  await sari.pressButton("🔄 Cek pembayaran");
  await run(w, 20_000);

  expect((await w.deps.shopOrders.get(order!.id))?.state).toBe("done");
  const told = sari.replies().concat(sari.messages().map((m) => m.text ?? m.caption ?? "")).join("\n");
  expect(told).toContain("Pesanan Anda berhasil");
  expect(rina.messages().map((m) => m.text ?? "").join("\n")).toContain("Pesanan toko terjual");
  const purchases = (await w.store.listTxByChat(rina.chatId)).items.filter((t) => t.kind === "prepaid");
  expect(purchases).toHaveLength(1);
  expect(purchases[0]).toMatchObject({ code: "PLN20", target: "12345678901", status: "success" });
});
