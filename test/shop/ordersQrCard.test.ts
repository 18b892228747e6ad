/**
 * The QR photo of a shop order once it can no longer be paid (cancelled, expired) or is paid: its image
 * is replaced by a card without a code ("DIBATALKAN / Jangan dibayar", "LUNAS / Sudah dibayar"), so an
 * old photo is never scanned and paid (again). An edit Telegram refuses (deleted, too old) holds nothing.
 */
import { afterEach, describe, expect, it } from "vitest";
import { decodeQrPng } from "../support/qr.js";
import { depositIdOf, openShop, pay, plnOrder, purchasesOf, run, shown, stateOf, type Shop } from "./support.js";

let shop: Shop | undefined;
afterEach(async () => {
  await shop?.w.close();
  shop = undefined;
});

/** The QR message as the customer's chat holds it now, and whether its image still carries a code. */
function qrMessage(s: Shop, messageId: number) {
  const m = s.w.fake.message(s.customer.chatId, messageId)!;
  let scannable = true;
  try {
    decodeQrPng(m.file!.bytes);
  } catch {
    scannable = false;
  }
  return { caption: m.caption ?? "", scannable, buttons: s.customer.buttons({ messageId }) };
}

const mediaEdits = (s: Shop, messageId: number) => s.w.fake.callsOf("editMessageMedia").filter((c) => c.payload.message_id === messageId);

describe("shop orders: the QR photo is replaced when it can no longer be paid", () => {
  it("cancelled by the customer: a grey DIBATALKAN card, no code, no buttons", async () => {
    shop = await openShop();
    const order = await pay(shop, plnOrder(shop));
    const qr = shop.customer.messages().at(-1)!;
    expect(qrMessage(shop, qr.messageId).scannable).toBe(true);

    await shop.customer.pressButton("✖️ Batalkan");
    await run(shop.w, 2_000);
    expect(await stateOf(shop.w, order.id)).toBe("cancelled");
    expect(mediaEdits(shop, qr.messageId)).toHaveLength(1);
    const after = qrMessage(shop, qr.messageId);
    expect(after.scannable).toBe(false);
    expect(after.caption).toContain("DIBATALKAN");
    expect(after.caption).toContain(order.id);
    expect(after.caption).not.toContain("Pindai QR ini");
    expect(after.buttons).toEqual([]);
    // The sweep does not edit it again.
    await run(shop.w, 60_000, 5_000);
    expect(mediaEdits(shop, qr.messageId)).toHaveLength(1);
  });

  it("expired: a KEDALUWARSA card; a late payment then shows it paid", async () => {
    shop = await openShop();
    const { w } = shop;
    const order = await pay(shop, plnOrder(shop));
    const qr = shop.customer.messages().at(-1)!;
    await run(w, 60 * 60_000 + 30_000, 5_000);
    expect(await stateOf(w, order.id)).toBe("expired");
    const expired = qrMessage(shop, qr.messageId);
    expect(expired.scannable).toBe(false);
    expect(expired.caption).toContain("KEDALUWARSA");
    expect(expired.buttons).toEqual([]);

    w.sandbox.payDeposit(await depositIdOf(w, order));
    await run(w, 5 * 60_000, 2_000);
    expect(await stateOf(w, order.id)).toBe("done");
    const paid = qrMessage(shop, qr.messageId);
    expect(paid.caption).toContain("Pembayaran diterima");
    expect(paid.caption).not.toContain("KEDALUWARSA");
    expect(paid.scannable).toBe(false);
  });

  it("paid: a LUNAS card replaces the code, so nobody pays it twice", async () => {
    shop = await openShop();
    const { w } = shop;
    const order = await pay(shop, plnOrder(shop));
    const qr = shop.customer.messages().at(-1)!;
    w.sandbox.payDeposit(await depositIdOf(w, order));
    await run(w, 20_000);
    expect(await stateOf(w, order.id)).toBe("done");
    expect(mediaEdits(shop, qr.messageId)).toHaveLength(1);
    const after = qrMessage(shop, qr.messageId);
    expect(after.scannable).toBe(false);
    expect(after.caption).toContain("LUNAS");
    expect(after.caption).toContain("Pembayaran diterima");
    expect(after.buttons).toEqual([]);
  });

  it("a QR message the customer deleted: the edit is given up, the order closes and is told all the same", async () => {
    shop = await openShop();
    const { w } = shop;
    const order = await pay(shop, plnOrder(shop));
    w.fake.failNext("editMessageMedia", { error_code: 400, description: "Bad Request: message to edit not found" });
    await shop.customer.pressButton("✖️ Batalkan");
    await run(w, 2_000);
    expect(await stateOf(w, order.id)).toBe("cancelled");
    expect(shown(shop.customer).filter((t) => t.includes("dibatalkan. Tidak ada uang yang terpotong"))).toHaveLength(1);
    await run(w, 60_000, 5_000);
    expect(w.fake.callsOf("editMessageMedia")).toHaveLength(1);
    expect((await w.deps.shopOrders.get(order.id))?.value.notices["c:qr-closed"]).toBe("sent");
    expect(purchasesOf(w, "12345678901")).toBe(0);
  });
});
