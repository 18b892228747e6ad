/**
 * A cashier the owner shows no cost to reads a sale's receipt with the selling price named as the
 * price it is ("Harga jual", as the owner's receipt names it), never as a bare "Nominal"; the
 * customer's receipt image shows the same price either way.
 */
import { describe, expect, it } from "vitest";
import { withoutCost } from "../../src/domain/staff.js";
import { rupiah } from "../../src/render/format.js";
import { createTranslate } from "../../src/render/i18n.js";
import { receiptText } from "../../src/render/receipt.js";
import { customerReceipt } from "../../src/render/receiptImage.js";
import type { TxRecord } from "../../src/store/index.js";

const t = createTranslate();
const at = Date.UTC(2026, 10, 23, 7, 5);

const sold = {
  refId: "TX261123PABCD1234", chatId: 1, kind: "prepaid", status: "success", code: "S10", title: "Telkomsel 10.000",
  target: "081234567890", amount: 10_500, sale: { price: 11_500, profit: 1_000 }, detail: {}, createdAt: at, updatedAt: at,
} as TxRecord;
const bill = {
  ...sold, kind: "postpaid", code: "PLNPASCA", title: "PLN Pascabayar", amount: 152_500, sale: { price: 155_000, profit: 4_000 },
  detail: { cost: 151_000, customerName: "BUDI" },
} as TxRecord;

describe("a cashier's receipt", () => {
  for (const [lang, price] of [["id", "Harga jual"], ["en", "Selling price"]] as const) {
    it(`names the selling price as the owner's receipt does (${lang}), no cost, no profit`, () => {
      for (const tx of [sold, bill]) {
        const owner = receiptText(t, lang, tx);
        const cashier = receiptText(t, lang, withoutCost(tx));
        expect(owner).toContain(`${price}: ${rupiah(tx.sale!.price, lang)}`);
        expect(cashier).toContain(`${price}: ${rupiah(tx.sale!.price, lang)}`);
        expect(cashier).not.toContain(t(lang, "receipt-amount"));
        expect(cashier).not.toContain(t(lang, "receipt-cost"));
        expect(cashier).not.toContain(t(lang, "receipt-profit"));
      }
    });
  }

  it("failed, it still says what the amount is", () => {
    const cashier = receiptText(t, "id", withoutCost({ ...sold, status: "failed" } as TxRecord));
    expect(cashier).toContain(`Harga jual: ${rupiah(11_500, "id")}`);
    expect(cashier).not.toMatch(/Nominal|modal|Untung/);
  });

  it("failed, a receipt that keeps the sale (the owner's, a cashier shown the cost) names its selling price too, not a 'Nominal' that is the cost", () => {
    for (const tx of [sold, bill]) {
      const failed = receiptText(t, "id", { ...tx, status: "failed" } as TxRecord);
      expect(failed).toContain(`Harga jual: ${rupiah(tx.sale!.price, "id")}`);
      expect(failed).not.toMatch(/Nominal|Untung/);
    }
  });

  it("the customer's receipt image shows the same price for the cashier as for the owner", () => {
    const owner = customerReceipt(t, "id", sold, {}, false);
    const cashier = customerReceipt(t, "id", withoutCost(sold), {}, false);
    expect(cashier.price).toEqual(owner.price);
    expect(cashier.price.value).toBe(rupiah(11_500, "id"));
  });
});
