/**
 * Between the deposit's paid status and the purchase's create, a paid customer waits for every store
 * flush the order's steps await (a disk write each; in a burst of orders, one flush pass each). Two
 * are the money rules' own: the order's `buying` with its purchase reference, and the purchase's
 * `sending` mark, each durable before the create. The `paid` move and the purchase's `draft` are the
 * same records, made durable by those two.
 */
import { afterEach, describe, expect, it } from "vitest";
import { depositIdOf, openShop, pay, plnOrder, purchasesOf, run, stateOf, type Shop } from "./support.js";

let shop: Shop | undefined;
afterEach(async () => {
  await shop?.w.close();
  shop = undefined;
});

describe("shop orders: store flushes on the way to the purchase", () => {
  it("the create waits for two flushes after the paid status: the order's buying, then the purchase's sending", async () => {
    shop = await openShop();
    const { w } = shop;
    const order = await pay(shop, plnOrder(shop));
    await run(w, 1_000);

    // What each awaited flush (of the whole store, a document or a transaction) found when it resolved:
    // the order's state, its purchase record's status.
    const store = w.store as unknown as Record<"flush" | "flushDoc" | "flushTx", (...a: unknown[]) => Promise<void>>;
    const seen: string[] = [];
    let counting = false;
    for (const name of ["flush", "flushDoc", "flushTx"] as const) {
      const real = store[name].bind(store);
      store[name] = async (...a: unknown[]) => {
        const watching = counting;
        await real(...a);
        if (!watching) return;
        const doc = await w.deps.shopOrders.get(order.id);
        const purchase = doc?.value.purchaseRefs[0] ? await w.store.getTx(doc.value.purchaseRefs[0]) : undefined;
        seen.push(`${name}:${doc?.state}/${purchase?.status ?? "-"}`);
      };
    }
    const status = w.upstream.depositStatus.bind(w.upstream);
    (w.upstream as { depositStatus: typeof status }).depositStatus = async (...a) => {
      const r = await status(...a);
      if (r.status === "processing") counting = true;
      return r;
    };
    const create = w.upstream.createTransaction.bind(w.upstream);
    let flushesBeforeCreate: string[] | undefined;
    (w.upstream as { createTransaction: typeof create }).createTransaction = (...a) => {
      flushesBeforeCreate ??= [...seen];
      return create(...a);
    };

    w.sandbox.payDeposit(await depositIdOf(w, order));
    await w.deps.shopOrderJob.advance(order.id);
    await run(w, 20_000);
    expect(await stateOf(w, order.id)).toBe("done");
    expect(purchasesOf(w, "12345678901")).toBe(1);
    // Each waits for its own record only: the order's document, then the purchase's journal line.
    expect(flushesBeforeCreate).toEqual(["flushDoc:buying/-", "flushTx:buying/sending"]);
  });
});
