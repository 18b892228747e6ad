/** Orders done together: their receipt images render one at a time (the PNG encode holds the event loop), each still sent once. */
import { afterEach, describe, expect, it, vi } from "vitest";
import type * as OrderImages from "../../src/render/orderImages.js";
import { depositIdOf, openShop, pay, plnOrder, run, stateOf, type Shop } from "./support.js";

const renders = vi.hoisted(() => ({ now: 0, most: 0, total: 0 }));
vi.mock("../../src/render/orderImages.js", async (importOriginal) => {
  const real = await importOriginal<typeof OrderImages>();
  return {
    ...real,
    svgToPngOffThread: async (svg: string, width: number) => {
      renders.now++;
      renders.total++;
      renders.most = Math.max(renders.most, renders.now);
      try {
        return await real.svgToPngOffThread(svg, width);
      } finally {
        renders.now--;
      }
    },
  };
});

let shop: Shop | undefined;
afterEach(async () => {
  await shop?.w.close();
  shop = undefined;
});

describe("shop order receipts", () => {
  it("three orders paid at once: three receipts, rendered one at a time", async () => {
    shop = await openShop();
    const { w, customer } = shop;
    const orders = [];
    for (const target of ["12345678901", "12345678902", "12345678903"]) orders.push(await pay(shop, plnOrder(shop, { target })));
    for (const o of orders) w.sandbox.payDeposit(await depositIdOf(w, o));
    await Promise.all(orders.map((o) => w.deps.shopOrderJob.advance(o.id)));
    await run(w, 20_000);
    for (const o of orders) expect(await stateOf(w, o.id)).toBe("done");
    expect(customer.messages().filter((m) => /Pesanan Anda berhasil/.test(m.caption ?? ""))).toHaveLength(3);
    expect(renders.total).toBe(3);
    expect(renders.most).toBe(1);
  });
});
