import { afterEach, describe, expect, it } from "vitest";
import { rupiah } from "../../src/render/format.js";
import { sellingPriceOrRefusal } from "../../src/domain/pricing.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";

const CREATE = "/transaksi/create";
const CONFIRM = /Konfirmasi|Confirm/;

let w: World;
afterEach(() => w?.close());

/** Two more routes to Telkomsel 10.000, as a provider lists them. */
function addRoutes(): void {
  const base = { category: "Pulsa", type: "Umum", provider: "TELKOMSEL", note: "Pulsa Telkomsel Rp 10.000, masukkan nomor HP" };
  w.sandbox.addProduct({ ...base, code: "S10C", name: "Telkomsel 10.000 Jalur 3", price: 10_900 });
  w.sandbox.addProduct({ ...base, code: "S10B", name: "TSEL 10K Jalur 2", price: 10_400 });
  // Same operator, another face value: never offered.
  w.sandbox.addProduct({ ...base, code: "S20B", name: "Telkomsel 20.000 Jalur 2", price: 20_200 });
}

async function txs(u: FakeUser) {
  return (await w.store.listTxByChat(u.chatId, { limit: 100 })).items;
}

function botTexts(u: FakeUser): string[] {
  return u.messages().filter((m) => m.from === "bot").map((m) => m.text ?? "");
}

describe("an out-of-order product offers the same value under another code", () => {
  it("an empty product: the alternatives cheapest first with cost and selling price; bought only after the confirm screen", async () => {
    w = await makeWorld();
    addRoutes();
    w.sandbox.setProductStatus("S10", "empty");
    const u = await w.linkedUser({ languageCode: "id" });
    await w.deps.settings.setPricing(u.chatId, { all: { flat: 1000 } });

    await u.sendCommand("beli", "S10 0812 3456 7890");
    const offer = u.lastReply()!;
    expect(offer).toContain("Telkomsel 10.000 (S10) sedang kosong atau gangguan");
    expect(offer).toContain(`TSEL 10K Jalur 2 (S10B): modal ${rupiah(10_400, "id")}, jual ${rupiah(11_400, "id")}`);
    expect(offer).toContain(`Telkomsel 10.000 Jalur 3 (S10C): modal ${rupiah(10_900, "id")}, jual ${rupiah(11_900, "id")}`);
    expect(offer).not.toContain("S20B");
    expect(u.buttons().slice(0, 2)).toEqual([`TSEL 10K Jalur 2 · ${rupiah(11_400, "id")}`, `Telkomsel 10.000 Jalur 3 · ${rupiah(11_900, "id")}`]);
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);

    await u.pressButton(/^TSEL 10K Jalur 2/);
    const confirm = u.lastReply()!;
    expect(confirm).toContain("Periksa sebelum konfirmasi");
    expect(confirm).toContain("Kode: S10B");
    expect(confirm).toContain("Tujuan: 081234567890");
    expect(confirm).toContain(`Harga jual: ${rupiah(11_400, "id")}`);
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
    expect((await txs(u)).map((t) => [t.code, t.status])).toEqual([["S10B", "draft"]]);

    await u.pressButton(CONFIRM);
    const calls = w.sandbox.calls(CREATE);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({ code: "S10B", target: "081234567890", limit_price: "10400" });
  });

  it("picked from the price list, an empty product leads to the same offer; the target is asked after the pick", async () => {
    w = await makeWorld();
    addRoutes();
    w.sandbox.setProductStatus("S10", "empty");
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("prices", "S10");
    await u.pressButton(/^⛔ Telkomsel 10,000/);
    expect(u.lastReply()).toContain("Out of stock");
    await u.pressButton("🔁 Other products, same value");
    expect(u.lastReply()).toContain("is out of stock or out of order. Other products of the same value, cheapest first");
    await u.pressButton(/^Telkomsel 10,000 Jalur 3/);
    expect(u.lastReply()).toContain("Telkomsel 10,000 Jalur 3");
    await u.sendText("081234567890");
    expect(u.lastReply()).toContain("Code: S10C");
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
  });

  it("the sandbox's own list has a second route for a product that starts empty (the playground shows the offer)", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "AX50 083812345678");
    expect(u.lastReply()).toContain("Axis 50.000 (AX50) sedang kosong atau gangguan");
    expect(u.buttons()[0]).toMatch(/^Axis 50\.000 Jalur 2 · /);
  });

  it("with nothing of the same value, an empty product is said to be empty, that none replaces it, and no flow starts", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "I5 085712345678");
    expect(u.lastReply()).toContain("Indosat 5.000 (I5) sedang kosong, dan tidak ada produk lain dengan nominal yang sama");
    expect(u.buttons().some((b) => b.startsWith("Indosat"))).toBe(true);
    await u.sendText("085712345678"); // no flow waits for a target
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
  });

  it("a create refused as out of order offers the alternatives for the same target; the new one is confirmed again", async () => {
    w = await makeWorld();
    addRoutes();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    w.sandbox.setDisturbed("S10", true); // still listed as available
    await u.pressButton(CONFIRM);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
    const texts = botTexts(u);
    expect(texts.at(-1)).toContain("Ditolak penyedia");
    expect(texts.at(-1)).toContain("Produk lain dengan nominal yang sama ada di pesan sebelumnya");
    const offer = u.messages().filter((m) => m.from === "bot" && (m.text ?? "").includes("sedang kosong atau gangguan")).at(-1)!;
    expect(offer.text).toContain(`TSEL 10K Jalur 2 (S10B): modal ${rupiah(10_400, "id")}`);
    const [failed] = await txs(u);
    expect(failed).toMatchObject({ code: "S10", status: "failed" });

    await u.pressButton(/^TSEL 10K Jalur 2/, { messageId: offer.messageId });
    expect(u.lastReply()).toContain("Kode: S10B");
    expect(u.lastReply()).toContain("Tujuan: 081234567890");
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
    await u.pressButton(CONFIRM);
    expect(w.sandbox.calls(CREATE).map((c) => c.body.code)).toEqual(["S10", "S10B"]);
  });

  it("a refusal about something else (the target) offers nothing", async () => {
    w = await makeWorld();
    addRoutes();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    w.sandbox.setBalance(w.demoKey, 0);
    w.deps.lists.invalidate();
    await u.pressButton(CONFIRM);
    expect(botTexts(u).some((t) => t.includes("sedang kosong atau gangguan"))).toBe(false);
  });
});

describe("a fixed selling price below the cost is never sold", () => {
  it("the confirm screen is refused, the price to fix is named, nothing is saved or sent", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const [s10] = await w.upstream.prepaidPriceList(w.demoKey, "S10");
    await w.deps.settings.setPricing(u.chatId, { fixed: { S10: s10!.price + 500 } });
    await u.sendCommand("beli", "S10 081234567890");
    expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");

    w.sandbox.setPrice("S10", s10!.price + 1000); // the cost rose above the fixed price
    w.deps.lists.invalidate();
    await u.sendCommand("beli", "S10 081234567890");
    const refusal = u.lastReply()!;
    expect(refusal).toContain(`Harga jual tetap Telkomsel 10.000 (S10) ${rupiah(s10!.price + 500, "id")} sekarang di bawah harga modal ${rupiah(s10!.price + 1000, "id")}`);
    expect(refusal).toContain("/hargajual S10 HARGA");
    expect((await txs(u)).filter((t) => t.status === "draft")).toHaveLength(1); // only the first screen's
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
  });

  it("an alternative whose own fixed price is below its cost is not offered", async () => {
    w = await makeWorld();
    addRoutes();
    w.sandbox.setProductStatus("S10", "empty");
    const u = await w.linkedUser({ languageCode: "id" });
    await w.deps.settings.setPricing(u.chatId, { fixed: { S10B: 10_000 } });
    await u.sendCommand("beli", "S10 081234567890");
    expect(u.lastReply()).toContain("S10C");
    expect(u.lastReply()).not.toContain("S10B");
  });

  it("/beli of an empty product with no other of its value says none exists and offers the nearest of its operator", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "FF720 12345678");
    const reply = u.lastReply()!;
    expect(reply).toContain("Free Fire 720 Diamonds (FF720) sedang kosong");
    expect(reply).toContain("tidak ada produk lain dengan nominal yang sama");
    expect(u.buttons()).toContain(`Free Fire 355 Diamonds · ${rupiah(46_550, "id")}`);
    expect(u.buttons().some((b) => b.includes("FREE FIRE"))).toBe(true);
    await u.pressButton(/^Free Fire 355 Diamonds/);
    expect(u.lastReply()).toContain("ID akun game");
    await u.sendText("12345678");
    expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
    expect(u.lastReply()).toContain("FF355");
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
  });

  it("sellingPriceOrRefusal: a fixed price below cost is refused; at cost, above it or by markup it sells", () => {
    const item = { code: "S10", categoryKey: "pulsa", cost: 10_500 };
    expect(sellingPriceOrRefusal({ fixed: { S10: 10_000 } }, item)).toEqual({ ok: false, reason: "below-cost", fixed: 10_000, cost: 10_500 });
    expect(sellingPriceOrRefusal({ fixed: { S10: 10_500 } }, item)).toMatchObject({ ok: true, quote: { price: 10_500, profit: 0 } });
    expect(sellingPriceOrRefusal({ fixed: { S10: 11_000 } }, item)).toMatchObject({ ok: true, quote: { price: 11_000, source: "fixed" } });
    expect(sellingPriceOrRefusal({ all: { flat: 1000 } }, item)).toMatchObject({ ok: true, quote: { price: 11_500, source: "all" } });
    expect(sellingPriceOrRefusal({}, item)).toMatchObject({ ok: true, quote: { price: 10_500, source: "none" } });
  });
});
