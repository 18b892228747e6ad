import { describe, expect, it } from "vitest";
import { alternativeWithinPaid, faceValue, isOutOfOrderAnswer, sameValueAlternatives } from "../../src/domain/alternatives.js";
import type { PrepaidProduct } from "../../src/upstream/types.js";

function p(code: string, name: string, price: number, more: Partial<PrepaidProduct> = {}): PrepaidProduct {
  return { code, name, category: "Pulsa", type: "Umum", provider: "TELKOMSEL", price, note: "", available: true, ...more };
}

describe("the face value read from a product's name", () => {
  it.each([
    ["Telkomsel 10.000", "10000"],
    ["TSEL 10K Jalur 2", "10000"],
    ["Telkomsel 10rb (promo)", "10000"],
    ["Telkomsel Data 3 GB / 30 Hari", "3gb 30d"],
    ["Mobile Legends 86 Diamonds", "86dm"],
    ["PUBG Mobile 60 UC", "60uc"],
    ["PLN 1.000.000", "1000000"],
    ["Voucher 5", "5"],
    ["Honor of Kings Weekly Card", ""],
  ])("%s -> %s", (name, face) => {
    expect(faceValue(name)).toBe(face);
  });
});

describe("same-value alternatives", () => {
  const empty = p("S10", "Telkomsel 10.000", 10_500, { available: false });
  const list: PrepaidProduct[] = [
    empty,
    p("S10C", "Telkomsel 10.000 Jalur 3", 10_900),
    p("S10B", "TSEL 10K Jalur 2", 10_400),
    p("S10X", "Telkomsel 10.000 Cadangan", 10_300, { available: false }), // out of order too
    p("S20", "Telkomsel 20.000", 20_300), // another face value
    p("I10", "Indosat 10.000", 10_200, { provider: "INDOSAT" }), // another operator
    p("TD10", "Telkomsel 10.000 Data", 10_100, { category: "Data" }), // another category
    p("S10Z", "Telkomsel 10.000 Jalur 4", 10_400, { provider: "telkomsel " }), // the operator written otherwise
  ];

  it("lists the available products of the same operator, category and face value, cheapest first", () => {
    expect(sameValueAlternatives(list, empty).map((x) => x.code)).toEqual(["S10B", "S10Z", "S10C"]);
  });

  it("never offers the product itself, and nothing for a name without a face value", () => {
    const card = p("HOKW", "Honor of Kings Weekly Card", 12_325, { provider: "Honor of Kings", category: "Games" });
    const other = p("HOKW2", "Honor of Kings Weekly Card", 12_000, { provider: "Honor of Kings", category: "Games" });
    expect(sameValueAlternatives([card, other], card)).toEqual([]);
    const available = list[1]!;
    expect(sameValueAlternatives(list, available).map((x) => x.code)).not.toContain("S10C");
  });

  it("data packages match on quota and days", () => {
    const d = (code: string, name: string, price: number) => p(code, name, price, { category: "Data" });
    const gone = d("TSEL-DATA-3GB", "Telkomsel Data 3 GB / 30 Hari", 34_200);
    const all = [gone, d("TSEL-3GB-7", "Telkomsel Data 3 GB / 7 Hari", 20_000), d("TSEL-3GB-B", "Telkomsel Data 3GB 30 Hari", 33_900)];
    expect(sameValueAlternatives(all, gone).map((x) => x.code)).toEqual(["TSEL-3GB-B"]);
  });

  it("a paid order takes the cheapest alternative only while its cost leaves a margin under what was paid", () => {
    expect(alternativeWithinPaid(list, empty, 11_000)?.code).toBe("S10B");
    expect(alternativeWithinPaid(list, empty, 10_400)).toBeUndefined(); // no margin: the refund path
    expect(alternativeWithinPaid([empty], empty, 50_000)).toBeUndefined();
  });
});

describe("the provider's answers that mean out of order", () => {
  it.each([
    ["Layanan sedang gangguan / stok kosong", true],
    ["Produk sedang gangguan, silakan coba beberapa saat lagi", true],
    ["Stok habis", true],
    ["Produk sedang kosong", true],
    ["Saldo tidak cukup", false],
    ["Saldo Anda kosong", false],
    ["Nomor tujuan tidak valid", false],
    ["Harga berubah, harga saat ini Rp 10.800", false],
    ["Transaksi Gagal", false],
  ])("%s -> %s", (message, outOfOrder) => {
    expect(isOutOfOrderAnswer(message)).toBe(outOfOrder);
  });
});
