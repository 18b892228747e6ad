/**
 * One payment, one purchase across a restart (docs/shop-orders.md rule 2): the process stops between
 * "paid" and "buying", or while the purchase's create is on its way; the next process (a new world on
 * the same data) goes on from the saved state and never buys twice.
 */
import { afterEach, describe, expect, it } from "vitest";
import { depositIdOf, openShop, pay, plnOrder, purchasesOf, run, shown, stateOf, type Shop } from "./support.js";

let shop: Shop | undefined;
afterEach(async () => {
  await shop?.w.close();
  shop = undefined;
});

describe("shop orders: a restart in the middle", () => {
  it("stopped between paid and buying: the next process buys it, once", async () => {
    shop = await openShop({ stopGraceMs: 100 });
    const { w, customer } = shop;
    const order = await pay(shop, plnOrder(shop));
    // The balance read that comes right after "paid" never answers: the process dies there.
    const release = w.sandbox.holdNext("/get_profile");
    w.sandbox.payDeposit(await depositIdOf(w, order));
    const tap = customer.pressButton("🔄 Cek pembayaran").catch(() => undefined);
    for (let i = 0; i < 200 && w.sandbox.calls("/get_profile").length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await stateOf(w, order.id)).toBe("paid");
    await w.restart();
    release();
    await tap;
    expect(await stateOf(w, order.id)).toBe("paid");
    expect(purchasesOf(w, "12345678901")).toBe(0);

    await w.app.start();
    await run(w, 20_000);
    expect(await stateOf(w, order.id)).toBe("done");
    expect(purchasesOf(w, "12345678901")).toBe(1);
    expect(shown(customer).filter((t) => t.includes("Pesanan Anda berhasil"))).toHaveLength(1);
  });

  it("stopped while the purchase was on its way: the next process looks it up by its reference, never buys again", async () => {
    shop = await openShop({ stopGraceMs: 100 });
    const { w, customer } = shop;
    const order = await pay(shop, plnOrder(shop));
    const release = w.sandbox.holdNext("/transaksi/create");
    w.sandbox.payDeposit(await depositIdOf(w, order));
    const tap = customer.pressButton("🔄 Cek pembayaran").catch(() => undefined);
    for (let i = 0; i < 200 && purchasesOf(w, "12345678901") === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(purchasesOf(w, "12345678901")).toBe(1);
    expect(await stateOf(w, order.id)).toBe("buying");
    await w.restart();
    release();
    await tap;

    await w.app.start();
    await run(w, 60_000, 1_000);
    expect(await stateOf(w, order.id)).toBe("done");
    expect(purchasesOf(w, "12345678901")).toBe(1);
    expect(shown(customer).filter((t) => t.includes("Pesanan Anda berhasil"))).toHaveLength(1);
  });

  it("a stop waits, within its grace, for a purchase on its way: answered, it is pending, not unknown, and the next process finishes it", async () => {
    shop = await openShop({ stopGraceMs: 5_000 });
    const { w, customer } = shop;
    const order = await pay(shop, plnOrder(shop));
    const release = w.sandbox.holdNext("/transaksi/create");
    // Paid, and found by the watcher on its own (no tap: no handler of the customer's runs at the stop).
    w.sandbox.payDeposit(await depositIdOf(w, order));
    for (let i = 0; i < 400 && purchasesOf(w, "12345678901") === 0; i++) {
      await w.clock.advance(250);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(purchasesOf(w, "12345678901")).toBe(1);
    // A graceful stop (SIGINT) while the create is on its way; the provider answers 50 ms later.
    const stopping = w.restart();
    setTimeout(release, 50);
    await stopping;
    const [purchase] = (await w.app.deps.shopOrders.get(order.id))!.value.purchaseRefs;
    expect((await w.store.getTx(purchase!))?.status).toBe("pending");
    expect(shown(customer).some((t) => t.includes("belum pasti"))).toBe(false);

    await w.app.start();
    await run(w, 20_000);
    expect(await stateOf(w, order.id)).toBe("done");
    expect(purchasesOf(w, "12345678901")).toBe(1);
    expect(shown(customer).filter((t) => t.includes("Pesanan Anda berhasil"))).toHaveLength(1);
  });
});
