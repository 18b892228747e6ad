/**
 * The QR photo's message once the order is paid (docs/shop-orders.md rule 10): its image becomes a paid card, its caption says the
 * payment was received and its buttons go, once; an edit Telegram refuses never holds the order back.
 */
import { afterEach, describe, expect, it } from "vitest";
import { until } from "../support/settle.js";
import { depositIdOf, openShop, pay, plnOrder, purchasesOf, run, shown, stateOf, type Shop } from "./support.js";

let shop: Shop | undefined;
afterEach(async () => {
  await shop?.w.close();
  shop = undefined;
});

describe("shop orders: the QR message after payment", () => {
  it("is edited once: 'Pembayaran diterima' under the caption, no 'Cek pembayaran' or cancel any more", async () => {
    shop = await openShop();
    const { w, customer } = shop;
    const order = await pay(shop, plnOrder(shop));
    const qr = customer.messages().at(-1)!;
    expect(customer.buttons({ messageId: qr.messageId })).toEqual(["🔄 Cek pembayaran", "✖️ Batalkan"]);

    w.sandbox.payDeposit(await depositIdOf(w, order));
    await run(w, 20_000);
    expect(await stateOf(w, order.id)).toBe("done");

    const edits = w.fake.callsOf("editMessageMedia").filter((c) => c.payload.message_id === qr.messageId);
    expect(edits).toHaveLength(1);
    const after = customer.messages().find((m) => m.messageId === qr.messageId)!;
    expect(after.caption).toMatch(/Pembayaran diterima \d{1,2} \w+ \d{4}, \d{2}\.\d{2} WIB/);
    expect(after.caption).toContain(order.id);
    expect(customer.buttons({ messageId: qr.messageId })).toEqual([]);
    // Later looks at the order (the sweep) do not edit it again.
    await run(w, 60_000, 5_000);
    expect(w.fake.callsOf("editMessageMedia").filter((c) => c.payload.message_id === qr.messageId)).toHaveLength(1);
  });

  it("an edit Telegram is slow to answer never holds the order: the purchase and the token go on meanwhile", async () => {
    shop = await openShop();
    const { w, customer } = shop;
    const order = await pay(shop, plnOrder(shop));
    const qr = customer.messages().at(-1)!;
    // Telegram's pace in a burst: the edit waits behind a thousand others.
    const release = w.fake.holdNext("editMessageMedia");
    w.sandbox.payDeposit(await depositIdOf(w, order));
    // Not run(): it waits for the job to be idle, and the held edit is still under way.
    const done = until(async () => (await stateOf(w, order.id)) === "done", { what: "the order done", clocks: [w.clock], stepMs: 500, realMs: 5, tries: 400 });
    await done.finally(release);
    expect(purchasesOf(w, "12345678901")).toBe(1);
    // The edit lands when Telegram answers, once; the token's message is there too.
    await run(w, 5_000);
    expect(shown(customer).filter((t) => t.includes("Pesanan Anda berhasil"))).toHaveLength(1);
    expect(customer.messages().find((m) => m.messageId === qr.messageId)!.caption).toContain("Pembayaran diterima");
    expect(w.fake.callsOf("editMessageMedia").filter((c) => c.payload.message_id === qr.messageId)).toHaveLength(1);
  });

  it("in English for an English customer", async () => {
    shop = await openShop();
    const { w, customer } = shop;
    const order = await pay(shop, plnOrder(shop, { lang: "en" }));
    const qr = customer.messages().at(-1)!;
    w.sandbox.payDeposit(await depositIdOf(w, order));
    await run(w, 20_000);
    expect(customer.messages().find((m) => m.messageId === qr.messageId)!.caption).toMatch(/Payment received \d{1,2} \w+ \d{4}, \d{2}:\d{2} WIB/);
  });

  it("a QR the job sent again (its first send was refused) is the one shown paid", async () => {
    shop = await openShop();
    const { w, customer } = shop;
    w.fake.failNext("sendPhoto", { error_code: 400, description: "Bad Request: wrong file identifier" });
    await pay(shop, plnOrder(shop)).catch(() => undefined);
    const [order] = await w.deps.shopOrders.listByCustomer(shop.owner.chatId, customer.chatId);
    await run(w, 90_000, 5_000);
    const qrs = customer.messages().filter((m) => m.kind === "photo");
    expect(qrs).toHaveLength(1);
    w.sandbox.payDeposit(await depositIdOf(w, order!));
    await run(w, 20_000);
    expect(await stateOf(w, order!.id)).toBe("done");
    expect(customer.messages().find((m) => m.messageId === qrs[0]!.messageId)!.caption).toContain("Pembayaran diterima");
    expect(customer.buttons({ messageId: qrs[0]!.messageId })).toEqual([]);
  });

  it("an edit Telegram refuses (message too old or deleted): given up, the order is fulfilled all the same", async () => {
    shop = await openShop();
    const { w, customer } = shop;
    const order = await pay(shop, plnOrder(shop));
    w.fake.failNext("editMessageMedia", { error_code: 400, description: "Bad Request: message to edit not found" });
    w.sandbox.payDeposit(await depositIdOf(w, order));
    await run(w, 20_000);
    expect(await stateOf(w, order.id)).toBe("done");
    expect(purchasesOf(w, "12345678901")).toBe(1);
    expect(shown(customer).filter((t) => t.includes("Pesanan Anda berhasil"))).toHaveLength(1);
    await run(w, 120_000, 5_000);
    expect(w.fake.callsOf("editMessageMedia")).toHaveLength(1);
    expect((await w.deps.shopOrders.get(order.id))?.value.notices["c:qr-paid"]).toBe("sent");
  });
});
