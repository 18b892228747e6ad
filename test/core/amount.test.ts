import { expect, it } from "vitest";
import { parseRupiah } from "../../src/bot/amount.js";

it("reads rupiah the ways resellers type it", () => {
  const cases: [string, number][] = [
    ["50000", 50_000],
    ["50.000", 50_000],
    ["50,000", 50_000],
    ["Rp 1.250.000", 1_250_000],
    ["rp.75.000", 75_000],
    ["50rb", 50_000],
    ["50 RB", 50_000],
    ["50 ribu", 50_000],
    ["50k", 50_000],
    ["2,5rb", 2_500],
    ["1jt", 1_000_000],
    ["1,5jt", 1_500_000],
    ["1.25juta", 1_250_000],
    // Copied from a bank app or a receipt: zero sen after the other separator.
    ["Rp 100.000,00", 100_000],
    ["Rp100.000,-", 100_000],
    ["100,000.00", 100_000],
    ["100000,00", 100_000],
  ];
  for (const [text, value] of cases) expect(parseRupiah(text), text).toBe(value);
});

it("refuses what is not a whole, positive number of rupiah", () => {
  for (const bad of ["", "abc", "0", "50.00", "50.5", "12.34.5", "1,2345rb", "12.3456", "100.000,50", "100.000.00", "100,000,00", "-5000", "5e4", "1000000000000000"]) {
    expect(parseRupiah(bad), bad).toBeUndefined();
  }
});
