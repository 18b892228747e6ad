/** A customer buys from a reseller's shop and pays by QRIS (docs/shop-orders.md), through the built bot. */
import { afterEach, describe, expect, it } from "vitest";
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
  });
});
