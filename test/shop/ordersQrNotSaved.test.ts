/**
 * The shop's QRIS goes through the money engine: when the deposit's "sending" mark cannot be saved, no
 * QRIS is made at the provider, the order ends cancelled and the customer is told the shop cannot take
 * payments now (nothing was charged); a later order works once the store saves again.
 */
import { afterEach, expect, it, vi } from "vitest";
import { openShop, pay, plnOrder, stateOf, type Shop } from "./support.js";

let shop: Shop | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await shop?.w.close();
  shop = undefined;
});

it("a QRIS whose sending mark is refused is never made: the order is cancelled and the customer told, and the next order pays", async () => {
  shop = await openShop();
  const { w, customer } = shop;
  vi.spyOn(w.store, "flushTx").mockRejectedValueOnce(Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" }));
  const order = await pay(shop, plnOrder(shop));
  expect(w.sandbox.calls("/deposit/create")).toHaveLength(0);
  expect(await stateOf(w, order.id)).toBe("cancelled");
  expect((await w.store.getTx(order.value.depositRef))?.status).toBe("cancel");
  expect(customer.lastReply()).toContain("sedang tidak bisa menerima pembayaran");

  const next = await pay(shop, plnOrder(shop));
  expect(w.sandbox.calls("/deposit/create")).toHaveLength(1);
  expect(await stateOf(w, next.id)).toBe("awaiting_payment");
});
