/**
 * A notice's "sending" mark is saved at its slot in Telegram's pace, not when it queues (docs/shop-orders.md
 * rule 7): in a burst of done orders the marks of a thousand queued receipts took the disk and the CPU
 * from the money steps. A stop before the slot leaves the notice unmarked: the sweep finds a done order
 * whose notices were not sent and sends them (a "sending" mark a stop left waits a minute, as before).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Pacer } from "../../src/telegram/pacer.js";
import { until } from "../support/settle.js";
import { depositIdOf, openShop, pay, plnOrder, run, shown, stateOf, type Shop } from "./support.js";

let shop: Shop | undefined;
afterEach(async () => {
  await shop?.w.close();
  shop = undefined;
});

const receipts = (s: Shop) => shown(s.customer).filter((t) => t.includes("Pesanan Anda berhasil")).length;

describe("shop orders: a notice's mark at its slot", () => {
  it("a receipt waiting for its slot is not marked yet; at its slot it is marked, sent once, marked sent", async () => {
    shop = await openShop();
    const { w } = shop;
    const order = await pay(shop, plnOrder(shop));
    // Telegram's pace in a burst: nothing gets a slot for 30 s.
    (w.deps.shopOrderJob as unknown as { deps: { pacer: Pacer } }).deps.pacer.pause(30_000);
    w.sandbox.payDeposit(await depositIdOf(w, order));
    await until(async () => (await stateOf(w, order.id)) === "done", { what: "the order done", clocks: [w.clock], stepMs: 500, realMs: 5, tries: 40 });
    const waiting = (await w.deps.shopOrders.get(order.id))!.value.notices;
    expect(waiting["c:done"]).toBeUndefined();
    expect(waiting["c:qr-paid"]).toBeUndefined();

    // Not run(): it waits for the job to be idle, and the receipt waits for the paused pacer's clock.
    const s = shop;
    await until(async () => receipts(s) === 1, { what: "the receipt sent", clocks: [w.clock], stepMs: 500, realMs: 5, tries: 200 });
    await run(w, 5_000);
    expect(receipts(shop)).toBe(1);
    const told = (await w.deps.shopOrders.get(order.id))!.value.notices;
    expect([told["c:done"], told["o:done"], told["c:qr-paid"]]).toEqual(["sent", "sent", "sent"]);
  });

  it("a stop while receipts wait for their slots ends at once, and leaves them unmarked for the sweep after the restart", async () => {
    shop = await openShop();
    const { w } = shop;
    const order = await pay(shop, plnOrder(shop));
    const job = w.deps.shopOrderJob as unknown as { deps: { pacer: Pacer }; stop(): Promise<void> };
    job.deps.pacer.pause(30_000);
    w.sandbox.payDeposit(await depositIdOf(w, order));
    await until(async () => (await stateOf(w, order.id)) === "done", { what: "the order done", clocks: [w.clock], stepMs: 500, realMs: 5, tries: 40 });
    // The clock stands still: a stop that waited for the pacer would never end.
    const stopped = await Promise.race([job.stop().then(() => "stopped"), new Promise((r) => setTimeout(() => r("still waiting"), 2_000))]);
    expect(stopped).toBe("stopped");
    const notices = (await w.deps.shopOrders.get(order.id))!.value.notices;
    expect([notices["c:done"], notices["o:done"]]).toEqual([undefined, undefined]);
    expect(receipts(shop)).toBe(0);
  });

  it("a done order whose receipt was never marked (a stop before its slot) is told by the sweep", async () => {
    shop = await openShop();
    const { w } = shop;
    const order = await pay(shop, plnOrder(shop));
    w.sandbox.payDeposit(await depositIdOf(w, order));
    await run(w, 20_000);
    expect(receipts(shop)).toBe(1);
    // As a stop before the slots leaves it: done, its notices never marked.
    const doc = (await w.deps.shopOrders.get(order.id))!;
    expect(await w.deps.shopOrders.amend(doc, (v) => ({ ...v, notices: { "c:qr": "sent", "c:qr-paid": "sent" } }))).toBeDefined();
    await run(w, 15_000);
    expect(receipts(shop)).toBe(2);
    const told = (await w.deps.shopOrders.get(order.id))!.value.notices;
    expect([told["c:done"], told["o:done"]]).toEqual(["sent", "sent"]);
    await run(w, 30_000, 5_000);
    expect(receipts(shop)).toBe(2);
  });
});
