import { describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { monthsBetween, profitPerDay, reportPeriods, summarize, wibDay } from "../../src/domain/report.js";
import { profitOf, sellingPrice } from "../../src/domain/sale.js";
import { exportCsv } from "../../src/render/exportCsv.js";
import { createTranslate } from "../../src/render/i18n.js";
import { pngSize, svgToPng } from "../../src/render/png.js";
import { CHART_HEIGHT, CHART_WIDTH, profitChartSvg } from "../../src/render/reportChart.js";
import type { TxRecord } from "../../src/store/index.js";

/** An instant given as WIB wall-clock time. */
const wib = (y: number, mo: number, d: number, h = 12, mi = 0) => Date.UTC(y, mo - 1, d, h - 7, mi);

let n = 0;
function tx(fields: Partial<TxRecord> & Pick<TxRecord, "kind" | "status" | "amount" | "createdAt">): TxRecord {
  return { refId: `R${++n}`, chatId: 1, updatedAt: fields.createdAt, ...fields } as TxRecord;
}

describe("report figures (domain/report.ts)", () => {
  it("counts WIB calendar days: 23.59 WIB is still that day, 00.00 WIB the next", () => {
    expect(wibDay(wib(2026, 1, 14, 23, 59))).toBe("2026-01-14");
    expect(wibDay(wib(2026, 1, 15, 0, 0))).toBe("2026-01-15");
    // 02.00 WIB on the 1st is still the previous evening in UTC: the periods follow WIB.
    expect(reportPeriods(wib(2026, 2, 1, 2))).toEqual([
      { name: "today", from: "2026-02-01", to: "2026-02-01" },
      { name: "yesterday", from: "2026-01-31", to: "2026-01-31" },
      { name: "week", from: "2026-01-26", to: "2026-02-01" },
      { name: "month", from: "2026-02-01", to: "2026-02-01" },
    ]);
    expect(monthsBetween("2025-12-28", "2026-02-03")).toEqual(["2025-12", "2026-01", "2026-02"]);
  });

  it("turnover at selling prices (the cost when none was set), cost, profit, failed, deposits, transfers out and the top five", () => {
    const day = "2026-01-15";
    const txs = [
      tx({ kind: "prepaid", status: "success", code: "S10", title: "Telkomsel 10.000", amount: 10_200, sale: { price: 12_000, profit: 1_800 }, createdAt: wib(2026, 1, 15, 8) }),
      tx({ kind: "prepaid", status: "success", code: "S10", title: "Telkomsel 10.000", amount: 10_200, createdAt: wib(2026, 1, 15, 9) }),
      // The provider charged more than confirmed: the profit is what is left of the selling price.
      tx({ kind: "prepaid", status: "success", code: "X5", title: "XL 5.000", amount: 5_600, sale: { price: 6_500, profit: 1_000 }, createdAt: wib(2026, 1, 15, 10) }),
      tx({ kind: "prepaid", status: "failed", code: "S5", amount: 5_200, sale: { price: 6_000, profit: 800 }, createdAt: wib(2026, 1, 15, 11) }),
      tx({ kind: "postpaid", status: "success", code: "PLN", title: "PLN", amount: 102_200, sale: { price: 104_700, profit: 2_500 }, createdAt: wib(2026, 1, 15, 23, 59) }),
      tx({ kind: "prepaid", status: "pending", code: "S10", amount: 10_200, createdAt: wib(2026, 1, 15, 12) }),
      tx({ kind: "transfer", status: "success", code: "bca", amount: 50_000, createdAt: wib(2026, 1, 15, 12) }),
      tx({ kind: "transfer", status: "success", code: "bca", amount: 20_000, fee: 2_500, total: 22_500, createdAt: wib(2026, 1, 15, 13) }),
      tx({ kind: "transfer", status: "failed", code: "bca", amount: 90_000, createdAt: wib(2026, 1, 15, 13) }),
      tx({ kind: "deposit", status: "success", amount: 100_000, detail: { credited: 99_300 }, createdAt: wib(2026, 1, 15, 7) }),
      tx({ kind: "deposit", status: "pending", amount: 50_000, createdAt: wib(2026, 1, 15, 7) }),
      // The next day and the day before do not count.
      tx({ kind: "prepaid", status: "success", code: "S10", amount: 10_200, createdAt: wib(2026, 1, 16, 0, 0) }),
      tx({ kind: "prepaid", status: "success", code: "S10", amount: 10_200, createdAt: wib(2026, 1, 14, 23, 59) }),
    ];
    expect(sellingPrice(txs[1]!)).toBe(10_200);
    expect(profitOf(txs[2]!)).toBe(900);
    expect(summarize(txs, day, day)).toEqual({
      sales: 4,
      turnover: 12_000 + 10_200 + 6_500 + 104_700,
      cost: 10_200 + 10_200 + 5_600 + 102_200,
      profit: 1_800 + 0 + 900 + 2_500,
      failed: 1,
      deposits: 1,
      credited: 99_300,
      transfers: 2,
      transferred: 70_000,
      transferFees: 2_500,
      top: [
        { code: "S10", title: "Telkomsel 10.000", sales: 2, profit: 1_800 },
        { code: "PLN", title: "PLN", sales: 1, profit: 2_500 },
        { code: "X5", title: "XL 5.000", sales: 1, profit: 900 },
      ],
    });
    const top = summarize(
      ["A", "B", "C", "D", "E", "F"].map((code, i) => tx({ kind: "prepaid", status: "success", code, amount: 1_000, sale: { price: 1_000 + i, profit: i }, createdAt: wib(2026, 1, 15) })),
      day,
      day,
    ).top;
    expect(top.map((p) => p.code)).toEqual(["F", "E", "D", "C", "B"]);
  });

  it("profit per day lists every day of the month, losses included", () => {
    const days = profitPerDay(
      [
        tx({ kind: "prepaid", status: "success", amount: 10_000, sale: { price: 11_000, profit: 1_000 }, createdAt: wib(2026, 2, 3) }),
        tx({ kind: "prepaid", status: "success", amount: 10_000, sale: { price: 11_500, profit: 1_500 }, createdAt: wib(2026, 2, 3, 23, 59) }),
        tx({ kind: "prepaid", status: "success", amount: 10_000, sale: { price: 9_000, profit: -1_000 }, createdAt: wib(2026, 2, 28) }),
        tx({ kind: "prepaid", status: "failed", amount: 10_000, sale: { price: 19_000, profit: 9_000 }, createdAt: wib(2026, 2, 4) }),
        tx({ kind: "prepaid", status: "success", amount: 10_000, sale: { price: 19_000, profit: 9_000 }, createdAt: wib(2026, 3, 1, 0, 0) }),
      ],
      "2026-02",
    );
    expect(days).toHaveLength(28);
    expect(days[2]).toEqual({ day: "2026-02-03", profit: 2_500 });
    expect(days[3]!.profit).toBe(0);
    expect(days[27]).toEqual({ day: "2026-02-28", profit: -1_000 });
  });
});

describe("profit chart (render/reportChart.ts)", () => {
  it("renders the month as a PNG of the chart's size, with a bar per day that had profit", async () => {
    const days = Array.from({ length: 30 }, (_, i) => ({ day: `2026-11-${String(i + 1).padStart(2, "0")}`, profit: i % 4 === 0 ? 0 : (i * 1_300) % 17_000 }));
    const svg = profitChartSvg(days, { title: "Untung per hari · November 2026", subtitle: "Total: Rp1 <b>&", lang: "id" });
    expect(svg).toContain("&lt;b&gt;&amp;"); // outside text is escaped
    expect(svg.match(/<rect /g)).toHaveLength(1 + days.filter((d) => d.profit !== 0).length);
    const png = await svgToPng(svg, CHART_WIDTH);
    expect(pngSize(png)).toEqual({ width: CHART_WIDTH, height: CHART_HEIGHT });
  });
});

describe("CSV export (render/exportCsv.ts)", () => {
  const t = createTranslate();
  it("is UTF-8 with a BOM, a header in the chat's language, whole rupiah, and quotes what needs quoting", () => {
    const rows = [
      tx({ kind: "prepaid", status: "success", refId: "PR1", upstreamId: "T1", code: "S10", title: 'Telkomsel "10K", promo', target: "081234567890", amount: 10_200, sale: { price: 12_000, profit: 1_800 }, sn: "SN 1", createdAt: wib(2026, 1, 15, 8, 5) }),
      tx({ kind: "prepaid", status: "failed", refId: "PR2", code: "S5", title: "=HYPERLINK(1)", target: "0812", amount: 5_200, sale: { price: 6_000, profit: 800 }, createdAt: wib(2026, 1, 15, 9) }),
      tx({ kind: "transfer", status: "success", refId: "TF1", code: "bca", title: "BCA", target: "123", amount: 50_000, fee: 2_500, total: 52_500, createdAt: wib(2026, 1, 15, 10) }),
    ];
    const buf = exportCsv(t, "id", rows);
    expect([...buf.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const parsed = parse(buf, { bom: true }) as string[][];
    expect(parsed[0]).toEqual(["Waktu (WIB)", "ID referensi", "ID penyedia", "Jenis", "Kode", "Produk", "Tujuan", "Harga modal", "Harga jual", "Untung", "Deposit masuk", "Transfer keluar", "Status", "SN"]);
    expect(parsed.slice(1)).toEqual([
      ["2026-01-15 08:05:00", "PR1", "T1", "Pembelian", "S10", 'Telkomsel "10K", promo', "081234567890", "10200", "12000", "1800", "", "", "Berhasil", "SN 1"],
      ["2026-01-15 09:00:00", "PR2", "", "Pembelian", "S5", "'=HYPERLINK(1)", "0812", "5200", "6000", "", "", "", "Gagal", ""],
      ["2026-01-15 10:00:00", "TF1", "", "Transfer", "bca", "BCA", "123", "", "", "", "", "52500", "Berhasil", ""],
    ]);
    // Formulas behind a sign, and the provider's id, are neutralised too; plain numbers stay numbers.
    const tricky = exportCsv(t, "id", [
      tx({ kind: "prepaid", status: "success", refId: "PR3", upstreamId: "=cmd|' /C calc'!A0", code: "S10", title: "-1+HYPERLINK(1)", target: "+1+cmd|x", amount: 1, sn: "+6281234567890", createdAt: wib(2026, 1, 15, 11) }),
      tx({ kind: "prepaid", status: "success", refId: "PR4", upstreamId: "T4", code: "S10", title: "Telkomsel", target: "-12.5", amount: 1, sn: "0812 3456", createdAt: wib(2026, 1, 15, 12) }),
    ]);
    const cells = (parse(tricky, { bom: true }) as string[][]).slice(1);
    expect([cells[0]![2], cells[0]![5], cells[0]![6], cells[0]![13]]).toEqual(["'=cmd|' /C calc'!A0", "'-1+HYPERLINK(1)", "'+1+cmd|x", "+6281234567890"]);
    expect([cells[1]![2], cells[1]![6], cells[1]![13]]).toEqual(["T4", "-12.5", "0812 3456"]);
    expect(parse(exportCsv(t, "en", []), { bom: true })).toEqual([
      ["Time (WIB)", "Reference id", "Provider id", "Kind", "Code", "Product", "Target", "Cost price", "Selling price", "Profit", "Deposit in", "Transfer out", "Status", "Serial number"],
    ]);
  });
});
