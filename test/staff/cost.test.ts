/**
 * A cashier the owner shows no cost to never reads the owner's cost: not while buying (the target
 * prompt, the products of the same value offered for an empty one), not in the price list, and the
 * price digest (the owner's daily message about costs) is the owner's alone. A shop admin sees costs.
 */
import { afterEach, expect, it } from "vitest";
import { rupiah } from "../../src/render/format.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";
import { ownerAndStaff } from "./support.js";

let w: World;
afterEach(() => w?.close());

/** Everything the bot wrote to `u` (texts and captions). */
function told(u: FakeUser): string {
  return u.messages().filter((m) => m.from === "bot").map((m) => m.text ?? m.caption ?? "").join("\n");
}

/** Telkomsel 10.000 out of order, with another route of the same value (cost 10.400). */
function emptyWithRoute(): void {
  w.sandbox.addProduct({ category: "Pulsa", type: "Umum", provider: "TELKOMSEL", note: "Pulsa", code: "S10B", name: "TSEL 10K Jalur 2", price: 10_400 });
  w.sandbox.setProductStatus("S10", "empty");
}

it("a cashier buying sees selling prices only: the target prompt and the same-value offer show no cost", async () => {
  w = await makeWorld();
  const { rina, dewi } = await ownerAndStaff(w);
  await rina.sendCommand("markup", "1000");
  emptyWithRoute();
  await dewi.sendCommand("beli", "S10");
  const offer = dewi.lastReply()!;
  expect(offer).toContain("TSEL 10K Jalur 2");
  expect(offer).toContain(rupiah(11_400, "id"));
  expect(told(dewi)).not.toMatch(/modal/i);
  expect(told(dewi)).not.toContain(rupiah(10_400, "id"));
  await dewi.pressButton(/^TSEL 10K Jalur 2/);
  expect(dewi.lastReply()).toContain("TSEL 10K Jalur 2");
  expect(dewi.lastReply()).toContain(rupiah(11_400, "id"));
  await dewi.sendText("081234567890");
  expect(dewi.lastReply()).toContain("Kode: S10B");
  expect(told(dewi)).not.toMatch(/modal/i);
});

it("a cashier's price list (/harga) shows selling prices only, no cost", async () => {
  w = await makeWorld();
  const { rina, dewi } = await ownerAndStaff(w);
  await rina.sendCommand("markup", "1000");
  await dewi.sendCommand("harga", "S10");
  expect(dewi.lastReply()).toContain(rupiah(11_500, "id"));
  await dewi.pressButton(/^Telkomsel 10\.000/);
  expect(dewi.lastReply()).toContain(`Harga jual: ${rupiah(11_500, "id")}`);
  await dewi.sendCommand("harga");
  await dewi.pressButton(/Pulsa/);
  await dewi.pressButton(/TELKOMSEL/);
  expect(dewi.lastReply()).toContain(rupiah(11_500, "id"));
  expect(told(dewi)).not.toMatch(/modal/i);
});

it("the owner's allowing it in /staf shows the cashier the cost in the price list and the offer", async () => {
  w = await makeWorld();
  const { rina, dewi } = await ownerAndStaff(w);
  await rina.sendCommand("markup", "1000");
  await rina.sendCommand("staf");
  await rina.pressButton(/Kasir melihat modal/);
  emptyWithRoute();
  await dewi.sendCommand("harga", "Jalur");
  expect(dewi.lastReply()).toMatch(/modal/);
  await dewi.sendCommand("beli", "S10 081234567890");
  expect(dewi.lastReply()).toContain(`modal ${rupiah(10_400, "id")}`);
});

it("a shop admin sees the cost in the price list", async () => {
  w = await makeWorld();
  const { rina, dewi } = await ownerAndStaff(w, "admin");
  await rina.sendCommand("markup", "1000");
  await dewi.sendCommand("harga", "S10");
  expect(dewi.lastReply()).toMatch(/modal/);
});

it.each(["cashier", "admin"] as const)("the price digest setting (/harga ringkasan) is the owner's alone: staff (%s) are refused", async (role) => {
  w = await makeWorld();
  const { rina, dewi } = await ownerAndStaff(w, role);
  for (const args of ["ringkasan", "ringkasan off", "digest 07.30"]) {
    await dewi.sendCommand("harga", args);
    expect(dewi.lastReply(), args).toContain("Hanya pemilik yang bisa");
  }
  await rina.sendCommand("harga", "ringkasan");
  expect(rina.lastReply()).toContain("aktif");
  expect(rina.lastReply()).toContain("08.00");
});

it("a fixed price below cost: the cashier is told the owner must fix it, without the cost or an admin command", async () => {
  w = await makeWorld();
  const { rina, dewi } = await ownerAndStaff(w);
  await w.deps.settings.setPricing(rina.chatId, { fixed: { S10: 10_000 } });
  w.sandbox.setPrice("S10", 10_600);
  w.deps.lists.invalidate();
  await dewi.sendCommand("beli", "S10 081234567890");
  expect(dewi.lastReply()).toContain("harga jualnya perlu diperbarui oleh pemilik atau admin toko");
  expect(told(dewi)).not.toContain(rupiah(10_600, "id"));
  expect(told(dewi)).not.toContain("/hargajual");
  expect(w.sandbox.calls("/transaksi/create")).toHaveLength(0);
});
