/** A customer buys from a reseller's shop and pays by QRIS (docs/shop-orders.md), through the built bot. */
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "grammy/types";
import { depositIdOf, openShop, pay, plnOrder, purchasesOf, run, shown, stateOf, type Shop } from "./support.js";

let shop: Shop | undefined;
afterEach(async () => {
  await shop?.w.close();
  shop = undefined;
});

describe("shop orders: buy, pay, get the product", () => {
  it("the customer gets a QR, pays, and gets the PLN token with a receipt; the owner hears product, paid, cost and profit", async () => {
    shop = await openShop();
    const { w, customer, owner } = shop;
    const order = await pay(shop, plnOrder(shop));
    expect(order.state).toBe("awaiting_payment");
    const qr = customer.messages().at(-1)!;
    expect(qr.kind).toBe("photo");
    expect(qr.caption).toContain("Rp21.000");
    expect(qr.caption).toContain(order.id);
    expect(customer.buttons()).toEqual(["🔄 Cek pembayaran", "✖️ Batalkan"]);

    w.sandbox.payDeposit(await depositIdOf(w, order));
    await customer.pressButton("🔄 Cek pembayaran");
    expect(["paid", "buying"]).toContain(await stateOf(w, order.id));
    await run(w, 20_000);

    expect(await stateOf(w, order.id)).toBe("done");
    expect(purchasesOf(w, "12345678901")).toBe(1);
    const purchase = w.sandbox.calls("/transaksi/create")[0]!;
    expect(purchase.body.limit_price).toBe("20113");
    const receipt = customer.messages().at(-1)!;
    expect(receipt.kind).toBe("photo");
    expect(receipt.caption).toMatch(/Pesanan Anda berhasil/);
    expect(receipt.caption).toMatch(/Token listrik: \d{4} \d{4}/);
    expect(receipt.caption).toContain(`No. referensi: ${order.id}`);
    const sold = shown(owner).filter((t) => t.includes("Pesanan toko terjual"));
    expect(sold).toHaveLength(1);
    expect(sold[0]).toContain("Sari");
    expect(sold[0]).toContain("Rp21.000");
    expect(sold[0]).toContain("Modal: Rp20.113");
    expect(sold[0]).toContain("Untung: Rp740");
    // The owner is not told the order's deposit and purchase a second time, as if they were his own.
    expect(shown(owner)).toHaveLength(1);
    // The customer never sees the owner's cost.
    expect(shown(customer).join("\n")).not.toContain("20.113");

    // The owner's /pesanan lists it; /laporan counts it with the other sales and says how much came from the shop.
    await owner.sendCommand("pesanan");
    expect(owner.lastReply()).toContain(`PLN 20.000 · 12345678901 · Rp21.000 · berhasil · ${order.id}`);
    await owner.sendCommand("laporan");
    expect(owner.lastReply()).toContain("Dari toko online bulan ini: 1 penjualan, untung Rp740");
  });

  /** Telkomsel 20.000 (cost 20.650) that the provider refuses: out of stock. */
  async function failedOrder(shop: Shop) {
    const { w } = shop;
    w.sandbox.setProductStatus("S20", "empty");
    const order = await pay(shop, plnOrder(shop, { productCode: "S20", productName: "Telkomsel 20.000", target: "081234567890", cost: 20_650 }));
    w.sandbox.payDeposit(await depositIdOf(w, order));
    await run(w, 10_000);
    expect(await stateOf(w, order.id)).toBe("failed");
    return order;
  }

  it("a failed purchase after payment: the money is safe, another product for the same amount is bought on one tap", async () => {
    shop = await openShop();
    const { w, customer, owner } = shop;
    const order = await failedOrder(shop);
    expect(shown(customer).filter((t) => t.includes("Uang Anda aman (Rp21.000)"))).toHaveLength(1);
    expect(customer.buttons()).toEqual(["🔁 Telkomsel Data 1 GB / 30 Hari", "💸 Minta uang kembali"]);
    expect(shown(owner).filter((t) => t.includes("Pesanan toko gagal"))).toHaveLength(1);
    expect(shown(owner).at(-1)).toContain("ditawari produk pengganti (Telkomsel Data 1 GB / 30 Hari) atau pengembalian dana");

    await customer.pressButton("🔁 Telkomsel Data 1 GB / 30 Hari");
    await run(w, 10_000);
    expect(await stateOf(w, order.id)).toBe("done");
    const creates = w.sandbox.calls("/transaksi/create");
    expect(creates.map((c) => [c.body.code, c.body.limit_price])).toEqual([["S20", "20650"], ["TSEL-DATA-1GB", "19850"]]);
    expect(customer.messages().at(-1)!.caption).toContain("Telkomsel Data 1 GB");
    // A second tap on the old button buys nothing more.
    await customer.pressButton("🔁 Telkomsel Data 1 GB / 30 Hari").catch(() => undefined);
    await run(w, 10_000);
    expect(w.sandbox.calls("/transaksi/create")).toHaveLength(2);
  });

  it("a failed purchase with no other product for the amount: the words offer only the refund, with the provider's reason", async () => {
    shop = await openShop();
    const { w, customer, owner } = shop;
    // A PLN 20.000 token has no other PLN product within its price; the sandbox fails a target ending in 0000.
    const order = await pay(shop, plnOrder(shop, { target: "12345670000" }));
    w.sandbox.payDeposit(await depositIdOf(w, order));
    await run(w, 20_000);
    expect(await stateOf(w, order.id)).toBe("failed");
    expect(customer.buttons()).toEqual(["💸 Minta uang kembali"]);
    const told = shown(customer).at(-1)!;
    expect(told).toContain("Uang Anda aman (Rp21.000)");
    expect(told).toContain("Tekan 💸 Minta uang kembali");
    expect(told).not.toContain("Pilih produk lain");
    // The provider's note, without its remark about the owner's balance.
    expect(told).toContain("Alasan dari penyedia: Transaksi gagal, nomor tujuan tidak aktif");
    expect(told).not.toContain("Saldo dikembalikan");
    const ownerTold = shown(owner).at(-1)!;
    expect(ownerTold).toContain("Pesanan toko gagal");
    expect(ownerTold).toContain("ditawari pengembalian dana (tidak ada produk pengganti");
    expect(ownerTold).not.toContain("produk lain atau");
  });

  it("the refund account is taken from a plain message too (the playground sends no replies), separators and all, while one order waits for it", async () => {
    shop = await openShop();
    const { w, customer } = shop;
    const order = await pay(shop, plnOrder(shop, { target: "12345670000" }));
    w.sandbox.payDeposit(await depositIdOf(w, order));
    await run(w, 20_000);
    expect(await stateOf(w, order.id)).toBe("failed");
    // Before the customer asked for the refund, a plain message is not an answer to anything.
    await customer.sendText("DANA 0812-3456-7890");
    expect(customer.lastReply()).not.toContain("sudah diteruskan");
    await customer.pressButton("💸 Minta uang kembali");
    // A plain message that names no bank is still a product search.
    await customer.sendText("pulsa 10000");
    expect(customer.lastReply()).not.toContain("tidak dikenali");
    expect(await stateOf(w, order.id)).toBe("failed");
    await customer.sendText("DANA 0812-3456-7890");
    expect(customer.lastReply()).toContain("sudah diteruskan ke pemilik toko");
    const doc = await w.deps.shopOrders.get(order.id);
    expect(doc?.state).toBe("refund_requested");
    expect(doc?.value.refundAccount).toEqual({ bank: "dana", number: "081234567890" });
  });

  it("a refund moves money only after the owner confirms the ordinary transfer, and the order is refunded on its success", async () => {
    shop = await openShop();
    const { w, customer, owner } = shop;
    const order = await failedOrder(shop);
    await customer.pressButton("💸 Minta uang kembali");
    const prompt = customer.messages().at(-1)!;
    expect(prompt.text).toContain("Kirim kode bank atau e-wallet dan nomornya");
    await customer.sendMessage({ text: "DANA 081234567890", reply_to_message: { message_id: prompt.messageId } as Message["reply_to_message"] });
    expect(customer.lastReply()).toContain("sudah diteruskan ke pemilik toko");
    await run(w, 2_000);
    expect(await stateOf(w, order.id)).toBe("refund_requested");
    expect(owner.lastReply()).toContain("Pelanggan minta uang kembali");

    await owner.pressButton("💸 Kembalikan uang");
    expect(await stateOf(w, order.id)).toBe("refunding");
    expect(owner.lastReply()).toContain("081234567890");
    expect(owner.buttons()).toContain("✅ Konfirmasi");
    // Nothing moved yet: the transfer waits for the owner's confirmation, however long.
    await run(w, 60_000);
    expect(w.sandbox.calls("/transfer/create")).toHaveLength(0);

    await owner.pressButton("✅ Konfirmasi");
    expect(w.sandbox.calls("/transfer/create")).toHaveLength(1);
    expect(w.sandbox.calls("/transfer/create")[0]!.body.nominal).toBe("21000");
    expect(await stateOf(w, order.id)).toBe("refunding");
    await run(w, 20_000);
    expect(await stateOf(w, order.id)).toBe("refunded");
    expect(customer.lastReply()).toContain("sudah dikembalikan");
  });

  it("a balance too low for the purchase: the order waits as paid, the owner is told to top up, and it goes through after the top-up", async () => {
    shop = await openShop();
    const { w, customer, owner } = shop;
    const order = await pay(shop, plnOrder(shop));
    w.sandbox.setBalance(w.demoKey, 5_000);
    w.sandbox.payDeposit(await depositIdOf(w, order));
    await run(w, 30_000);
    expect(await stateOf(w, order.id)).toBe("paid");
    expect(purchasesOf(w, "12345678901")).toBe(0);
    expect(shown(owner).filter((t) => t.includes("Saldo kurang untuk pesanan toko"))).toHaveLength(1);
    // How much is missing (cost 20.113 against 5.000), and the way to top up.
    expect(shown(owner).at(-1)).toContain("Saldo Anda Rp5.000, kurang Rp15.113");
    expect(owner.buttons()).toEqual(["🏦 Deposit"]);
    // The customer hears it waits for the shop, not that it is being processed now.
    expect(shown(customer).filter((t) => t.includes("menunggu diproses oleh toko"))).toHaveLength(1);
    expect(shown(customer).join("\n")).not.toContain("produk dikirim segera");

    w.sandbox.setBalance(w.demoKey, 500_000);
    await run(w, 30_000);
    expect(await stateOf(w, order.id)).toBe("done");
    expect(purchasesOf(w, "12345678901")).toBe(1);
    expect(shown(owner).filter((t) => t.includes("Saldo kurang untuk pesanan toko"))).toHaveLength(1);
  });

  it("a balance too low, and the shop allows the instant release: the customer's deposit is released once and the order goes through", async () => {
    shop = await openShop();
    const { w, owner } = shop;
    (w.deps as { shop?: unknown }).shop = { get: () => Promise.resolve({ instantRelease: true }) };
    const order = await pay(shop, plnOrder(shop));
    w.sandbox.setBalance(w.demoKey, 5_000);
    w.sandbox.payDeposit(await depositIdOf(w, order));
    await run(w, 30_000);
    expect(await stateOf(w, order.id)).toBe("done");
    expect(w.sandbox.calls("/deposit/instant").map((c) => c.body.action)).toEqual(["true"]);
    expect(purchasesOf(w, "12345678901")).toBe(1);
    expect(shown(owner).filter((t) => t.includes("Saldo kurang"))).toHaveLength(0);
  });

  it("orders paid together read the owner's balance once, and buy only what it covers", async () => {
    shop = await openShop();
    const { w } = shop;
    const targets = ["12345678901", "12345678902", "12345678903"];
    const orders = [];
    for (const target of targets) orders.push(await pay(shop, plnOrder(shop, { target })));
    // Two purchases' worth (cost 20.113 each): the third must wait, not overspend.
    w.sandbox.setBalance(w.demoKey, 45_000);
    const before = w.sandbox.calls().length;
    for (const o of orders) w.sandbox.payDeposit(await depositIdOf(w, o));
    await Promise.all(orders.map((o) => w.deps.shopOrderJob.advance(o.id)));
    await run(w, 20_000);
    // Up to the second purchase (later sweeps read it again for the order left waiting).
    const paths = w.sandbox.calls().slice(before).map((c) => c.path);
    const upToSecondCreate = paths.slice(0, paths.indexOf("/transaksi/create", paths.indexOf("/transaksi/create") + 1));
    expect(upToSecondCreate.filter((p) => p === "/get_profile")).toHaveLength(1);
    expect(targets.map((t) => purchasesOf(w, t)).sort()).toEqual([0, 1, 1]);
    expect((await Promise.all(orders.map((o) => stateOf(w, o.id)))).sort()).toEqual(["done", "done", "paid"]);
  });
});
