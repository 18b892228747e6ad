import { describe, expect, it } from "vitest";
import { applyMarkup, noRules, quoteBill, quotePrepaid, recost } from "../../src/domain/pricing.js";
import type { PricingRules } from "../../src/store/index.js";

const S10 = { code: "S10", categoryKey: "pulsa", cost: 10_500 };
const PLN100 = { code: "PLN100", categoryKey: "pln", cost: 100_113 };

describe("selling prices", () => {
  it("rounds a markup's result up to Rp100; a zero markup leaves the cost", () => {
    expect(applyMarkup(10_500, { flat: 2000 })).toBe(12_500);
    expect(applyMarkup(10_501, { flat: 2000 })).toBe(12_600);
    expect(applyMarkup(100_113, { flat: 2500 })).toBe(102_700);
    expect(applyMarkup(10_500, { flat: 0 })).toBe(10_500);
    expect(applyMarkup(10_500, { percent: 5 })).toBe(11_100); // 11.025 up
    expect(applyMarkup(10_000, { percent: 5 })).toBe(10_500); // exactly 10.500: not a step more
    expect(applyMarkup(10_500, { percent: 2.5 })).toBe(10_800); // 10.762,5 up
    // 0.07 and 0.1 are not exact in binary; the result must still land on the exact multiple.
    expect(applyMarkup(100_000, { percent: 0.1 })).toBe(100_100);
    expect(applyMarkup(1_000_000, { percent: 0.07 })).toBe(1_000_700);
    expect(applyMarkup(10_500, { percent: 0 })).toBe(10_500);
  });

  it("the most specific rule wins: fixed price > product code > category > all; none = sold at cost", () => {
    const rules: PricingRules = {
      all: { flat: 1000 },
      categories: { pulsa: { percent: 10 } },
      products: { S10: { flat: 3000 } },
      fixed: { S10: 15_000 },
    };
    expect(quotePrepaid(rules, S10)).toEqual({ cost: 10_500, price: 15_000, profit: 4_500, source: "fixed" });
    expect(quotePrepaid({ ...rules, fixed: {} }, S10)).toEqual({ cost: 10_500, price: 13_500, profit: 3_000, source: "product" });
    expect(quotePrepaid({ ...rules, fixed: {}, products: {} }, S10)).toEqual({ cost: 10_500, price: 11_600, profit: 1_100, source: "category" });
    expect(quotePrepaid(rules, PLN100)).toEqual({ cost: 100_113, price: 101_200, profit: 1_087, source: "all" });
    expect(quotePrepaid({}, PLN100)).toEqual({ cost: 100_113, price: 100_113, profit: 0, source: "none" });
    // A fixed price below the cost is a loss, shown as such.
    expect(quotePrepaid({ fixed: { S10: 10_000 } }, S10).profit).toBe(-500);
    // Object members are not rules.
    expect(quotePrepaid({ categories: {} }, { code: "constructor", categoryKey: "toString", cost: 5000 }).source).toBe("none");
  });

  it("bills: the total plus the reseller's own fee, not rounded; the commission counts as profit", () => {
    expect(quoteBill({ billFee: 2500 }, 152_750, 151_613)).toEqual({ cost: 151_613, price: 155_250, profit: 3_637, fee: 2500, source: "all" });
    expect(quoteBill({ all: { flat: 5000 } }, 152_750, 151_613)).toMatchObject({ price: 152_750, profit: 1_137, fee: 0, source: "none" });
  });

  it("knows when a chat has no rules, and keeps the selling price when the provider charged another cost", () => {
    expect(noRules(undefined)).toBe(true);
    expect(noRules({ categories: {}, products: {}, fixed: {} })).toBe(true);
    expect(noRules({ billFee: 2500 })).toBe(false);
    expect(noRules({ all: { flat: 0 } })).toBe(false);
    expect(recost({ price: 12_500, profit: 2_000 }, 10_400)).toEqual({ price: 12_500, profit: 2_100 });
    expect(recost(undefined, 10_400)).toBeUndefined();
  });
});
