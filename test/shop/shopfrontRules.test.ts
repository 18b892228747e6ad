/**
 * The shop front's pure rules: what a customer pays for a product (the QRIS fee carried by whom the
 * shop says), when a shop sells (WIB hours, past midnight too), and that every shop button fits
 * Telegram's 64 bytes and refuses what a real button never carries.
 */
import { describe, expect, it } from "vitest";
import { shopQuote } from "../../src/domain/shop/checkout.js";
import { depositFee, grossUp } from "../../src/domain/depositFee.js";
import { DEFAULT_SHOP, shopStatus, withinHours } from "../../src/domain/shop/settings.js";
import { shopButtons } from "../../src/telegram/shopButtonData.js";
import { WIB_OFFSET_MS } from "../../src/tools/time.js";

const QRIS = { fee: 0, feePercent: 0.7, min: 10_000, max: 10_000_000 };
/** Epoch ms of hh:mm WIB on some day. */
const wib = (hh: number, mm = 0) => Date.UTC(2026, 0, 15, hh, mm) - WIB_OFFSET_MS;

describe("what a customer pays", () => {
  it("the customer carrying the fee: the smallest amount whose credit after the fee is the selling price", () => {
    for (const price of [10_000, 11_500, 50_113, 99_999, 1_000_000]) {
      const pay = grossUp(QRIS, price);
      expect(pay - depositFee(QRIS, pay)).toBeGreaterThanOrEqual(price);
      expect(pay - 1 - depositFee(QRIS, pay - 1)).toBeLessThan(price);
    }
    expect(shopQuote(11_500, 10_500, QRIS, "customer")).toEqual({ price: 11_500, cost: 10_500, pay: 11_582, fee: 82, profit: 1_000 });
    // A fixed part of the fee is carried too.
    const fixed = { ...QRIS, fee: 500 };
    expect(shopQuote(20_000, 19_000, fixed, "customer")!.profit).toBe(1_000);
  });

  it("the reseller carrying the fee: the selling price, the fee from the margin; a loss is not offered", () => {
    expect(shopQuote(11_500, 10_500, QRIS, "reseller")).toEqual({ price: 11_500, cost: 10_500, pay: 11_500, fee: 81, profit: 919 });
    expect(shopQuote(10_500, 10_500, QRIS, "reseller")).toBeUndefined();
  });

  it("what the customer pays is rounded up to the shop's step (issue 40 item 5), the margin taking the rest", () => {
    // 11.582 with the fee carried by the customer becomes 11.600; the fee is the provider's on 11.600.
    expect(shopQuote(11_500, 10_500, QRIS, "customer", 100)).toEqual({ price: 11_500, cost: 10_500, pay: 11_600, fee: 82, profit: 1_018 });
    expect(shopQuote(12_500, 10_500, QRIS, "customer", 1_000)!.pay).toBe(13_000);
    // Already on the step: unchanged; the reseller carrying the fee rounds the selling price itself.
    expect(shopQuote(11_500, 10_500, QRIS, "reseller", 500)).toEqual({ price: 11_500, cost: 10_500, pay: 11_500, fee: 81, profit: 919 });
    expect(shopQuote(11_550, 10_500, QRIS, "reseller", 100)!.pay).toBe(11_600);
  });

  it("an amount the QRIS does not take is not offered", () => {
    expect(shopQuote(6_000, 5_500, QRIS, "customer")).toBeUndefined();
    expect(shopQuote(9_990_000, 9_000_000, QRIS, "customer")).toBeUndefined(); // over the maximum once the fee is added
  });
});

describe("when a shop sells", () => {
  it("off, paused, outside its hours, open; hours past midnight; no hours: always", () => {
    expect(shopStatus(DEFAULT_SHOP, wib(12))).toBe("off");
    const on = { ...DEFAULT_SHOP, enabled: true };
    expect(shopStatus(on, wib(3))).toBe("open");
    expect(shopStatus({ ...on, paused: true }, wib(12))).toBe("paused");
    const day = { ...on, hours: { open: "08:00", close: "21:00" } };
    expect([wib(7, 59), wib(8), wib(20, 59), wib(21)].map((t) => shopStatus(day, t))).toEqual(["closed", "open", "open", "closed"]);
    const night = { open: "18:00", close: "02:00" };
    expect([wib(17, 59), wib(18), wib(23, 30), wib(1, 59), wib(2)].map((t) => withinHours(night, t))).toEqual([false, true, true, true, false]);
  });
});

describe("shop buttons", () => {
  it("fit 64 bytes at their longest, read back what they wrote, and refuse anything else", () => {
    const longest = [
      shopButtons.category.encode({ cat: "k".repeat(16), page: 9999 }),
      shopButtons.search.encode({ page: 9999, query: "€".repeat(13) }),
      shopButtons.search.encode({ page: 9999, query: "q".repeat(40) }),
      shopButtons.product.encode({ product: "C".repeat(40) }),
      shopButtons.pay.encode({ nonce: "abcd1234" }),
      shopButtons.categoryToggle.encode({ cat: "k".repeat(16) }),
      shopButtons.operatorToggle.encode({ op: "smartfren" }),
    ];
    for (const data of longest) expect(Buffer.byteLength(data), data).toBeLessThanOrEqual(64);
    expect(shopButtons.search.decode("sf:s:2:tsel: 10")).toEqual({ page: 2, query: "tsel: 10" });
    expect(shopButtons.category.decode("sf:c:pulsa:3")).toEqual({ cat: "pulsa", page: 3 });
    for (const forged of ["sf:c:pulsa:-1", "sf:c:a b:0", "sf:pay:ABCDEFGH", "sf:pay:abc", "sf:p:", "sf:p:a:b", "sf:s:0:", "sf:h:x", "sh:e:maybe", "sh:f:admin"]) {
      const decoded = Object.values(shopButtons).map((b) => (b as { decode(d: string): unknown }).decode(forged));
      expect(decoded.every((d) => d === undefined), forged).toBe(true);
    }
  });
});
