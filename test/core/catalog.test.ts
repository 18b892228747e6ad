import { describe, expect, it } from "vitest";
import {
  categories,
  findByCode,
  findByRef,
  productRef,
  productsIn,
  providers,
  queryTokens,
  searchProducts,
} from "../../src/bot/catalog.js";
import { groupKey } from "../../src/domain/groupKey.js";
import { paginate } from "../../src/bot/paging.js";
import { prepaidCatalog } from "../../src/sandbox/catalog.js";
import type { PrepaidProduct } from "../../src/upstream/types.js";

/** The sandbox's catalogue in the client's shape. */
const list: PrepaidProduct[] = [...prepaidCatalog().values()].map((p) => ({
  code: p.code,
  name: p.name,
  category: p.category,
  type: p.type,
  provider: p.provider,
  price: p.price,
  note: p.note,
  available: p.status === "available",
}));
const codes = (ps: PrepaidProduct[]) => ps.map((p) => p.code);

describe("grouping", () => {
  it("lists categories in selling order with counts", () => {
    const cats = categories(list);
    expect(cats.map((c) => c.key)).toEqual(["pulsa", "data", "pln", "e-money", "games"]);
    const pulsa = cats[0]!;
    expect(pulsa.count).toBe(list.filter((p) => p.category === "Pulsa").length);
    expect(pulsa.available).toBe(pulsa.count - 2); // I5 and AX50 start empty
  });

  it("lists providers of a category and products cheapest first", () => {
    expect(providers(list, "pulsa").map((p) => p.key)).toEqual(["axis", "indosat", "smartfren", "telkomsel", "tri", "xl"]);
    const tsel = productsIn(list, "pulsa", "telkomsel");
    expect(codes(tsel)).toEqual(["S5", "S10", "S20", "S25", "S50", "S100"]);
    expect(productsIn(list, "games", "mobile-legends")[0]!.code).toBe("ML5");
    expect(productsIn(list, "nope", "telkomsel")).toEqual([]);
  });

  it("makes short ASCII keys", () => {
    expect(groupKey("E-Money")).toBe("e-money");
    expect(groupKey("MOBILE LEGENDS")).toBe("mobile-legends");
    expect(groupKey("PLN Pascabayar Nasional Indonesia").length).toBeLessThanOrEqual(16);
    expect(groupKey("日本語")).toMatch(/^x[A-Za-z0-9]{6}$/);
    expect(groupKey("日本語")).toBe(groupKey("日本語"));
  });

  it("pages and clamps", () => {
    expect(paginate([1, 2, 3, 4, 5], 1, 2)).toEqual({ items: [3, 4], page: 1, pages: 3 });
    expect(paginate([1, 2, 3], 9, 2)).toEqual({ items: [3], page: 1, pages: 2 });
    expect(paginate([], 0, 2)).toEqual({ items: [], page: 0, pages: 1 });
  });
});

describe("product refs", () => {
  it("uses the code when it is short and plain, a hash otherwise", () => {
    expect(productRef("SHOPEEPAY100")).toBe("SHOPEEPAY100");
    const long = "VERY-LONG-PRODUCT-CODE-THAT-GOES-ON-AND-ON-FOREVER-123";
    const odd = "KODE:ÄÖ";
    expect(productRef(long)).toMatch(/^#[A-Za-z0-9]{10}$/);
    expect(productRef(odd)).toMatch(/^#/);
    const extended = [...list, { ...list[0]!, code: long }, { ...list[0]!, code: odd }];
    expect(findByRef(extended, productRef(long))?.code).toBe(long);
    expect(findByRef(extended, productRef(odd))?.code).toBe(odd);
    expect(findByRef(list, "S10")?.name).toBe("Telkomsel 10.000");
  });

  it("finds codes ignoring case", () => {
    expect(findByCode(list, "pln50")?.code).toBe("PLN50");
    expect(findByCode(list, "nope")).toBeUndefined();
  });
});

describe("search", () => {
  it("splits words and numbers", () => {
    expect(queryTokens("Tsel10")).toEqual(["tsel", "10"]);
    expect(queryTokens("pln 50rb")).toEqual(["pln", "50rb"]);
    expect(queryTokens("ml86", new Set(["ml86"]))).toEqual(["ml86"]);
  });

  it("tsel 10: Telkomsel products of 10 (thousand, GB)", () => {
    const found = codes(searchProducts(list, "tsel 10"));
    expect(found).toContain("S10");
    expect(found).toContain("TSEL-DATA-10GB");
    expect(found).not.toContain("S100");
    expect(found).not.toContain("I10");
    expect(found[0]).toBe("S10"); // pulsa first
  });

  it("understands synonyms and face values", () => {
    expect(codes(searchProducts(list, "pln"))).toEqual(["PLN20", "PLN50", "PLN100", "PLN200", "PLN500", "PLN1000"]);
    expect(codes(searchProducts(list, "token 50rb"))).toEqual(["PLN50"]);
    expect(codes(searchProducts(list, "isat 5"))).toContain("I5");
    expect(codes(searchProducts(list, "ff 70"))).toEqual(["FF70"]);
    expect(codes(searchProducts(list, "ml 85"))).toEqual(["ML85"]);
    expect(codes(searchProducts(list, "mobile legends")).length).toBeGreaterThan(10);
    expect(codes(searchProducts(list, "gopay 25.000"))).toEqual(["GOPAY25"]);
    expect(codes(searchProducts(list, "telkomsel data 5gb"))).toEqual(["TSEL-DATA-5GB"]);
  });

  it("puts an exact code first and finds nothing for nonsense", () => {
    expect(codes(searchProducts(list, "s10"))[0]).toBe("S10");
    expect(searchProducts(list, "zzzz")).toEqual([]);
    expect(searchProducts(list, "   ")).toEqual([]);
  });

  it("operator names with digits or dots are one word: im3, 3, xl, axis, by.u", () => {
    const providers = (q: string) => new Set(searchProducts(list, q).map((p) => p.provider));
    expect(queryTokens("im3 10")).toEqual(["im3", "10"]);
    expect(providers("im3")).toEqual(new Set(["INDOSAT"]));
    expect(codes(searchProducts(list, "im3 10"))).toContain("I10");
    expect(codes(searchProducts(list, "IM3 10"))).not.toContain("S10");
    expect(providers("xl")).toEqual(new Set(["XL"]));
    expect(providers("axis")).toEqual(new Set(["AXIS"]));
    // "3" is Tri's name too: alone it finds Tri, next to an operator it is a face value.
    expect(providers("3")).toContain("TRI");
    expect(codes(searchProducts(list, "3 10"))).toContain("T10");
    expect(codes(searchProducts(list, "tsel 3"))).not.toContain("T5");
    const byu: PrepaidProduct = { code: "BYU10", name: "by.U 10.000", category: "Pulsa", type: "prepaid", provider: "BY.U", price: 10_500, note: "", available: true };
    expect(codes(searchProducts([...list, byu], "by.u"))).toEqual(["BYU10"]);
    expect(codes(searchProducts([...list, byu], "byu 10"))).toEqual(["BYU10"]);
  });
});
