/**
 * Orders done together: their receipt images render one at a time, each still sent once, and only
 * when the receipt's turn at Telegram's pace comes (a burst of done orders leaves the CPU to the
 * money steps of the orders behind them).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { OrderDoc } from "../../src/domain/shop/orders.js";
import type * as OrderImages from "../../src/render/orderImages.js";
import { until } from "../support/settle.js";
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

  it("a receipt renders when its message's turn comes, not when the order is done: the token is saved without waiting for it", async () => {
    Object.assign(renders, { now: 0, most: 0, total: 0 });
    shop = await openShop();
    const { w, customer } = shop;
    const orders: OrderDoc[] = [];
    for (const target of ["12345678901", "12345678902", "12345678903"]) orders.push(await pay(shop, plnOrder(shop, { target })));
    // Telegram asks every sender to wait a minute (the first QR edit answered 429): nothing goes out meanwhile.
    w.fake.failNext("editMessageMedia", { error_code: 429, retry_after: 60 });
    for (const o of orders) w.sandbox.payDeposit(await depositIdOf(w, o));
    for (const o of orders) void w.deps.shopOrderJob.advance(o.id);
    const receipts = () => customer.messages().filter((m) => /Pesanan Anda berhasil/.test(m.caption ?? "")).length;
    const allDone = async () => (await Promise.all(orders.map((o) => stateOf(w, o.id)))).every((s) => s === "done");
    // Not run(): it waits for the job to be idle, and the notices wait out the 429.
    await until(allDone, { what: "all three orders done", clocks: [w.clock], stepMs: 500, realMs: 5, tries: 80 });
    expect(w.clock.now() - orders[0]!.createdAt).toBeLessThan(60_000);
    // Done with the token saved, and no receipt rendered yet: none could go out.
    expect(receipts()).toBe(0);
    expect(renders.total).toBe(0);
    await until(() => receipts() === 3, { what: "three receipts sent", clocks: [w.clock], stepMs: 500, realMs: 5, tries: 400 });
    expect(renders.total).toBe(3);
    expect(renders.most).toBe(1);
  });
});
