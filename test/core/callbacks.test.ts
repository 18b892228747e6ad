import { describe, expect, it } from "vitest";
import { productRef } from "../../src/bot/catalog.js";
import { groupKey } from "../../src/domain/groupKey.js";
import { newRefId } from "../../src/bot/money/refs.js";
import {
  cb,
  GROUP_KEY_MAX_LENGTH,
  MAX_CALLBACK_BYTES,
  PRODUCT_CODE_MAX_LENGTH,
  REF_ID_MAX_LENGTH,
  type CallbackShape,
} from "../../src/telegram/buttonData.js";

const shapes = Object.entries(cb) as [string, CallbackShape<Record<string, unknown>>][];

describe("callback data shapes", () => {
  it.each(shapes)("%s stays within 64 bytes at its longest values and reads back what it wrote", (_name, shape) => {
    const longest = shape.longest();
    expect(longest.length).toBeGreaterThan(0);
    for (const fields of longest) {
      const data = shape.encode(fields);
      expect(Buffer.byteLength(data, "utf8"), data).toBeLessThanOrEqual(MAX_CALLBACK_BYTES);
      expect(shape.decode(data)).toEqual(fields);
    }
  });

  it("no two shapes read the same data", () => {
    for (const [name, shape] of shapes) {
      for (const fields of shape.longest()) {
        const data = shape.encode(fields);
        const readers = shapes.filter(([, s]) => s.decode(data) !== undefined).map(([n]) => n);
        expect(readers, data).toEqual([name]);
      }
    }
  });

  it("the declared limits cover what the bot makes", () => {
    for (const kind of ["prepaid", "postpaid", "transfer", "deposit"] as const) {
      const ref = newRefId(kind, Date.UTC(2099, 11, 31, 23, 59));
      expect(ref.length).toBeLessThanOrEqual(REF_ID_MAX_LENGTH);
      expect(cb.status.decode(cb.status.encode({ refId: ref }))).toEqual({ refId: ref });
    }
    const names = ["Pulsa", "E-Money & Dompet Digital Nasional Indonesia", "Ω", "", "constructor", "ＦＦ"];
    for (const n of names) {
      const key = groupKey(n);
      expect(key.length).toBeLessThanOrEqual(GROUP_KEY_MAX_LENGTH);
      expect(cb.pricesProviders.decode(cb.pricesProviders.encode({ mode: "h", cat: key, page: 0 }))?.cat).toBe(key);
    }
    const codes = ["TSEL10", "x".repeat(PRODUCT_CODE_MAX_LENGTH), "x".repeat(PRODUCT_CODE_MAX_LENGTH + 1), "#HASHLIKE", "PLN 20", "A:B", "ÜBER"];
    for (const code of codes) {
      const ref = productRef(code);
      expect(cb.pricesProduct.decode(cb.pricesProduct.encode({ mode: "b", product: ref }))?.product).toBe(ref);
    }
  });

  it("reads nothing from forged or malformed data", () => {
    for (const data of ["menu:__proto__", "menu:valueOf", "menu:constructor", "lang:toString", "lang:", "hp:-1", "hp:1e3", "hp:9999999", "ok:", "ok:a:b", "ok:a b", "pr:x:c", "pr:h:s:0:", "f:c:", "cancel:x"]) {
      expect(shapes.filter(([, s]) => s.decode(data) !== undefined).map(([n]) => n), data).toEqual([]);
    }
  });

  it("refuses to build data no button may carry", () => {
    expect(() => cb.historyPage.encode({ page: -1 })).toThrow();
    expect(() => cb.confirm.encode({ refId: "a:b" })).toThrow();
    expect(() => cb.pricesSearch.encode({ mode: "h", page: 0, query: "q".repeat(100) })).toThrow();
  });
});
