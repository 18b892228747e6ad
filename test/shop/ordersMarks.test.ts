/** /ekspor marks a shop order's transactions, so a sheet tells them from the counter's sales. */
import { describe, expect, it } from "vitest";
import { csvRow } from "../../src/render/exportCsv.js";
import { createTranslate } from "../../src/render/i18n.js";
import type { TxRecord } from "../../src/store/index.js";

const sale = (refId: string): TxRecord => ({
  refId,
  chatId: 1,
  kind: "prepaid",
  status: "success",
  code: "PLN20",
  title: "PLN 20.000",
  target: "12345678901",
  amount: 20_113,
  sale: { price: 20_853, profit: 740 },
  createdAt: Date.UTC(2026, 0, 15, 3),
  updatedAt: Date.UTC(2026, 0, 15, 3),
});

describe("shop marks in the CSV export", () => {
  it("a shop order's purchase says so in its kind; the reseller's own sale does not", () => {
    const t = createTranslate();
    expect(csvRow(t, "id", sale("SP260115ABCDEFGH1"))[3]).toBe("Pembelian (toko online)");
    expect(csvRow(t, "id", sale("TP260115ABCDEFGH"))[3]).toBe("Pembelian");
    expect(csvRow(t, "id", sale("SP260115ABCDEFGH1"))[9]).toBe("740");
  });
});
