/**
 * Payment is believed only from the deposit's status endpoint; one payment makes one purchase, whatever
 * the callbacks say and however often; an unpaid QR is cancelled at the provider at expiry; a QR paid
 * late is still fulfilled (docs/shop-orders.md rules 2-3).
 */
import { afterEach, describe, expect, it } from "vitest";
import { callbackSignature } from "../../src/domain/providerCallbacks.js";
import { settle, until } from "../support/settle.js";
import { depositIdOf, openShop, pay, plnOrder, purchasesOf, run, shown, stateOf, type Shop } from "./support.js";

let shop: Shop | undefined;
afterEach(async () => {
  await shop?.w.close();
  shop = undefined;
});

/** A shop whose owner's chat takes the provider's callbacks on the app's own HTTP server. */
async function shopWithCallbacks(): Promise<{ shop: Shop; post: (body: unknown) => Promise<number> }> {
  const s = await openShop({ env: { HTTP_PORT: "0", PUBLIC_URL: "http://127.0.0.1:9" } });
  const { username } = await s.w.upstream.getProfile(s.w.demoKey);
  const token = `tok${s.owner.chatId}abcdefghijklmnopqrstu`;
  await s.w.store.updateChat(s.owner.chatId, { providerUsername: username, callbackToken: token });
  const url = s.w.app.http()!.url;
  // The sandbox calls back as the provider does (every change of the key's records), besides the test's own posts.
  s.w.sandbox.setCallbackTarget(() => [`${url}/provider/${token}`]);
  const post = async (body: unknown) =>
    (
      await fetch(`${url}/provider/${token}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-atl-signature": callbackSignature(username) },
        body: JSON.stringify(body),
      })
    ).status;
  return { shop: s, post };
}

const depositCallback = (id: string, reffId: string, status: string) => ({
  event: "deposit",
  status,
  data: { id, reff_id: reffId, nominal: "21000", fee: "147", get_balance: "20853", status, metode: "qris" },
});

describe("shop orders: payments", () => {
  it("a callback saying paid is not believed alone; double callbacks and taps after the real payment make one purchase", async () => {
    const made = await shopWithCallbacks();
    shop = made.shop;
    const { w, customer } = shop;
    const order = await pay(shop, plnOrder(shop));
    const id = await depositIdOf(w, order);

    // A forged or mistaken "success" while the provider's status says pending: nothing happens.
    expect(await made.post(depositCallback(id, order.value.depositRef, "success"))).toBe(200);
    await run(w, 3_000);
    expect(await stateOf(w, order.id)).toBe("awaiting_payment");
    expect(purchasesOf(w, "12345678901")).toBe(0);

    w.sandbox.payDeposit(id);
    const callbacks = [1, 2, 3].map(() => made.post(depositCallback(id, order.value.depositRef, "processing")));
    const taps = [customer.pressButton("🔄 Cek pembayaran"), customer.pressButton("🔄 Cek pembayaran")];
    await Promise.all([...callbacks, ...taps]);
    await run(w, 20_000);
    // The H+1 settlement's callback and status come later still: no second purchase.
    w.sandbox.settleDeposit(id);
    await made.post(depositCallback(id, order.value.depositRef, "success"));
    await run(w, 20_000);

    expect(await stateOf(w, order.id)).toBe("done");
    expect(purchasesOf(w, "12345678901")).toBe(1);
    expect(shown(customer).filter((t) => t.includes("Pesanan Anda berhasil"))).toHaveLength(1);
  });

  it("an unpaid QR is cancelled at the provider when it expires; the customer hears the order is closed", async () => {
    shop = await openShop();
    const { w, customer } = shop;
    const order = await pay(shop, plnOrder(shop));
    const id = await depositIdOf(w, order);
    await run(w, 60 * 60_000 + 30_000, 5_000);

    expect(await stateOf(w, order.id)).toBe("expired");
    expect(w.sandbox.calls("/deposit/cancel").map((c) => c.body.id)).toEqual([id]);
    expect(shown(customer).filter((t) => t.includes("sudah kedaluwarsa"))).toHaveLength(1);
    expect(purchasesOf(w, "12345678901")).toBe(0);
  });

  it("the customer cancels an unpaid QR: it is cancelled at the provider and cannot be paid any more", async () => {
    shop = await openShop();
    const { w, customer } = shop;
    const order = await pay(shop, plnOrder(shop));
    const id = await depositIdOf(w, order);
    await customer.pressButton("✖️ Batalkan");
    await run(w, 2_000);
    expect(await stateOf(w, order.id)).toBe("cancelled");
    expect(w.sandbox.calls("/deposit/cancel").map((c) => c.body.id)).toEqual([id]);
    expect(() => w.sandbox.payDeposit(id)).toThrow();
    expect(shown(customer).filter((t) => t.includes("dibatalkan. Tidak ada uang yang terpotong"))).toHaveLength(1);
  });

  it("a QR paid shortly after it expired is still fulfilled, once", async () => {
    shop = await openShop();
    const { w, customer } = shop;
    const order = await pay(shop, plnOrder(shop));
    const id = await depositIdOf(w, order);
    await run(w, 60 * 60_000 + 30_000, 5_000);
    expect(await stateOf(w, order.id)).toBe("expired");

    w.sandbox.payDeposit(id); // the sandbox takes a QRIS up to 15 minutes late, as banks do
    await run(w, 5 * 60_000, 2_000);
    expect(await stateOf(w, order.id)).toBe("done");
    expect(purchasesOf(w, "12345678901")).toBe(1);
    expect(shown(customer).filter((t) => t.includes("Pesanan Anda berhasil"))).toHaveLength(1);
  });
});

describe("shop orders: a QRIS whose create answer was lost", () => {
  it("is looked up by its reference; with no QR to show it is cancelled at the provider and the customer hears so, nothing taken", async () => {
    shop = await openShop({ upstreamTimeoutMs: 300 });
    const { w, customer } = shop;
    w.sandbox.fault("/deposit/create", "timeout", 1); // the provider makes it, its answer is lost
    const paying = pay(shop, plnOrder(shop));
    await settle(w.clock, paying, { stepMs: 500 });
    const order = await paying;
    expect(shown(customer).filter((t) => t.includes("QRIS sedang disiapkan"))).toHaveLength(1);
    await run(w, 60_000, 1_000);
    expect(await stateOf(w, order.id)).toBe("cancelled");
    expect(w.sandbox.calls("/deposit/cancel")).toHaveLength(1);
    expect(shown(customer).filter((t) => t.includes("dibatalkan. Tidak ada uang yang terpotong"))).toHaveLength(1);
    expect(customer.messages().filter((m) => m.kind === "photo")).toHaveLength(0);
  });
});

describe("shop orders: a purchase whose outcome is not known", () => {
  it("is told to both sides as such, watched, and settled once: never bought again", async () => {
    shop = await openShop({ upstreamTimeoutMs: 300 });
    const { w, customer, owner } = shop;
    const order = await pay(shop, plnOrder(shop));
    w.sandbox.fault("/transaksi/create", "timeout", 1); // the provider takes it, its answer is lost
    w.sandbox.payDeposit(await depositIdOf(w, order));
    void customer.pressButton("🔄 Cek pembayaran").catch(() => undefined);
    // The create's answer never comes: the client gives up after its timeout (real time, kept short here).
    await until(async () => (await stateOf(w, order.id)) === "unknown", { clocks: [w.clock], stepMs: 100, realMs: 10, tries: 500, what: "the order never showed its outcome unknown" });
    await run(w, 2_000);
    expect(shown(customer).filter((t) => t.includes("hasilnya belum pasti"))).toHaveLength(1);
    expect(shown(owner).filter((t) => t.includes("Pesanan toko belum pasti"))).toHaveLength(1);

    await run(w, 5 * 60_000, 2_000);
    expect(await stateOf(w, order.id)).toBe("done");
    expect(purchasesOf(w, "12345678901")).toBe(1);
    expect(shown(customer).filter((t) => t.includes("Pesanan Anda berhasil"))).toHaveLength(1);
  });
});
