/**
 * A paid order's purchase the provider never recorded (docs/shop-orders.md rules 8 and 9): a create known
 * never to have left fails the order at once; one the status endpoint keeps answering "not found by our
 * reference" for (3+ answers, 30+ minutes) fails the order as not at the provider, while its ledger record
 * stays unknown, with only the refund offered; found after all, the order is done, or the owner hears
 * that both happened when a refund had started.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "grammy/types";
import { purchaseRefOf, type OrderDoc } from "../../src/domain/shop/orders.js";
import { depositIdOf, openShop, pay, plnOrder, purchasesOf, run, shown, stateOf, type Shop } from "./support.js";

let shop: Shop | undefined;
afterEach(async () => {
  await shop?.w.close();
  shop = undefined;
});

/** A paid order whose purchase create answered an HTML page: the provider recorded nothing. */
async function unrecordedPurchase(s: Shop): Promise<{ order: OrderDoc; ref: string }> {
  const { w } = s;
  const order = await pay(s, plnOrder(s));
  w.sandbox.fault("/transaksi/create", "html502", 1);
  w.sandbox.payDeposit(await depositIdOf(w, order));
  await run(w, 10_000);
  expect(await stateOf(w, order.id)).toBe("unknown");
  const ref = purchaseRefOf(order.id, 1);
  expect(w.sandbox.transaction(ref)).toBeUndefined();
  return { order, ref };
}

/** The provider takes the purchase under the order's reference after all (a late record). */
async function recordedLate(s: Shop, ref: string): Promise<void> {
  await s.w.upstream.createTransaction(s.w.demoKey, { code: "PLN20", reffId: ref, target: "12345678901", limitPrice: 20_113 });
}

async function askRefund(s: Shop): Promise<void> {
  await s.customer.pressButton("💸 Minta uang kembali");
  const prompt = s.customer.messages().at(-1)!;
  await s.customer.sendMessage({ text: "DANA 081234567890", reply_to_message: { message_id: prompt.messageId } as Message["reply_to_message"] });
  await run(s.w, 2_000);
}

describe("shop orders: a purchase the provider does not hold", () => {
  it("answered 'not found' at every look for 30 minutes: the order fails as not at the provider, its record stays unknown, and only a refund is offered", async () => {
    shop = await openShop();
    const { w, customer, owner } = shop;
    const { order, ref } = await unrecordedPurchase(shop);
    expect(shown(customer).filter((t) => t.includes("hasilnya belum pasti"))).toHaveLength(1);

    // Inside the provider window it stays unknown, however many answers said "not found".
    await run(w, 25 * 60_000, 5_000);
    expect(await stateOf(w, order.id)).toBe("unknown");

    await run(w, 20 * 60_000, 5_000);
    expect(await stateOf(w, order.id)).toBe("failed");
    expect((await w.deps.shopOrders.get(order.id))?.value.reason).toBe("not_at_provider");
    // The bot never claims a failure the provider did not state.
    expect((await w.store.getTx(ref))?.status).toBe("unknown");
    expect(w.sandbox.calls("/transaksi/status").filter((c) => c.body.id === ref).length).toBeGreaterThanOrEqual(3);
    expect(purchasesOf(w, "12345678901")).toBe(1);

    const told = shown(customer).filter((t) => t.includes("tidak sampai ke penyedia"));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("Uang Anda aman");
    expect(customer.buttons()).toEqual(["💸 Minta uang kembali"]);
    const failed = shown(owner).filter((t) => t.includes("Pesanan toko gagal"));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toContain(`Penyedia tidak punya catatan pembelian ${ref}`);
    expect(failed[0]).toContain("panel penyedia");

    // The refund is the owner's, with the same warning next to its one button.
    await askRefund(shop);
    expect(await stateOf(w, order.id)).toBe("refund_requested");
    expect(owner.lastReply()).toContain("Pelanggan minta uang kembali");
    expect(owner.lastReply()).toContain(`Penyedia tidak punya catatan pembelian ${ref}`);
    expect(owner.buttons()).toEqual(["💸 Kembalikan uang"]);

    // Watched on: nothing is bought again, however long.
    await run(w, 60 * 60_000, 10_000);
    expect(purchasesOf(w, "12345678901")).toBe(1);
    expect(shown(customer).filter((t) => t.includes("tidak sampai ke penyedia"))).toHaveLength(1);
  });

  it("a key the provider refuses says nothing about the purchase: the order stays unknown until the key answers again", async () => {
    shop = await openShop();
    const { w } = shop;
    const { order } = await unrecordedPurchase(shop);
    // The status answers "not found" all along, but the key itself is refused meanwhile (revoked,
    // IP whitelist): a refusal of the key is no evidence that the purchase is absent.
    w.sandbox.fault("/get_profile", "reject", 1_000);
    await run(w, 60 * 60_000, 5_000);
    expect(await stateOf(w, order.id)).toBe("unknown");
    expect(w.sandbox.calls("/get_profile").length).toBeGreaterThan(0);

    w.sandbox.clearFaults("/get_profile");
    await run(w, 20 * 60_000, 5_000);
    expect(await stateOf(w, order.id)).toBe("failed");
    expect((await w.deps.shopOrders.get(order.id))?.value.reason).toBe("not_at_provider");
  });

  it("found after all with success (no refund started): the order is done and the customer gets the token, once", async () => {
    shop = await openShop();
    const { w, customer, owner } = shop;
    const { order, ref } = await unrecordedPurchase(shop);
    await run(w, 45 * 60_000, 5_000);
    expect(await stateOf(w, order.id)).toBe("failed");
    await askRefund(shop); // asked, but the owner has not started it

    await recordedLate(shop, ref);
    await run(w, 15 * 60_000, 5_000);
    expect(await stateOf(w, order.id)).toBe("done");
    expect(shown(customer).filter((t) => t.includes("Pesanan Anda berhasil"))).toHaveLength(1);
    expect(shown(owner).filter((t) => t.includes("Pesanan toko terjual"))).toHaveLength(1);
    // The refund button of the request is stale now: nothing can be transferred.
    await owner.pressButton("💸 Kembalikan uang");
    expect(await stateOf(w, order.id)).toBe("done");
    expect(w.sandbox.calls("/transfer/create")).toHaveLength(0);
  });

  it("found after all once the owner started the refund: the order keeps its refund and the owner is told plainly both happened", async () => {
    shop = await openShop();
    const { w, customer, owner } = shop;
    const { order, ref } = await unrecordedPurchase(shop);
    await run(w, 45 * 60_000, 5_000);
    await askRefund(shop);
    await owner.pressButton("💸 Kembalikan uang");
    await owner.pressButton("✅ Konfirmasi");
    await run(w, 20_000);
    expect(await stateOf(w, order.id)).toBe("refunded");

    await recordedLate(shop, ref);
    await run(w, 15 * 60_000, 5_000);
    expect(await stateOf(w, order.id)).toBe("refunded");
    const both = shown(owner).filter((t) => t.includes("Pembelian dan pengembalian dana sama-sama terjadi"));
    expect(both).toHaveLength(1);
    expect(both[0]).toContain(ref);
    expect(shown(customer).filter((t) => t.includes("Pesanan Anda berhasil"))).toHaveLength(0);
  });
});

describe("shop orders: a purchase known never to have left", () => {
  it("a record left as saved before the call (a stop in between): the order fails at once, nothing is sent, another product is offered", async () => {
    shop = await openShop();
    const { w, customer } = shop;
    const order = await pay(shop, plnOrder(shop));
    w.sandbox.setBalance(w.demoKey, 5_000); // it waits as paid, so the test can leave the attempt half made
    w.sandbox.payDeposit(await depositIdOf(w, order));
    await run(w, 10_000);
    expect(await stateOf(w, order.id)).toBe("paid");
    const ref = purchaseRefOf(order.id, 1);
    await w.deps.shopOrders.move(order.id, "buying", (v) => ({ ...v, purchaseRefs: [ref] }), ["paid"]);
    await w.deps.ledger.saveDraft({ refId: ref, chatId: order.owner, kind: "prepaid", status: "draft", code: "PLN20", title: "PLN 20.000", target: "12345678901", amount: 20_113 });
    w.sandbox.setBalance(w.demoKey, 500_000);

    await run(w, 20_000);
    expect(await stateOf(w, order.id)).toBe("failed");
    expect((await w.deps.shopOrders.get(order.id))?.value.reason).toBe("not_sent");
    expect((await w.store.getTx(ref))?.status).toBe("cancel");
    expect(purchasesOf(w, "12345678901")).toBe(0);
    expect(shown(customer).filter((t) => t.includes("gagal diproses"))).toHaveLength(1);
    expect(customer.buttons()).toContain("💸 Minta uang kembali");
  });

  it("the disk refuses the mark made before the call: the create is not called and the order fails once the disk is back", async () => {
    shop = await openShop();
    const { w } = shop;
    const order = await pay(shop, plnOrder(shop));
    const ledger = w.deps.ledger;
    const transition = ledger.transition.bind(ledger);
    let broke = false;
    ledger.transition = async (refId, from, patch, when) => {
      if (!broke && refId.startsWith("SP") && patch.status === "sending") {
        broke = true;
        await w.breakStore();
      }
      return transition(refId, from, patch, when);
    };
    w.sandbox.payDeposit(await depositIdOf(w, order));
    await run(w, 10_000);
    expect(broke).toBe(true);
    await w.repairStore();
    await run(w, 30_000);
    expect(await stateOf(w, order.id)).toBe("failed");
    expect((await w.deps.shopOrders.get(order.id))?.value.reason).toBe("not_sent");
    expect(purchasesOf(w, "12345678901")).toBe(0);
  });
});
