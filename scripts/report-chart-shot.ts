/**
 * Makes docs/report-chart.png with the bot's own renderer (the /laporan chart): a made-up but
 * plausible month of sales, aggregated by domain/report.ts and drawn by render/reportChart.ts.
 * Run: npm run shots
 */
import { writeFile } from "node:fs/promises";
import { profitPerDay, summarize } from "../src/domain/report.js";
import { rupiah } from "../src/render/format.js";
import { createTranslate } from "../src/render/i18n.js";
import { svgToPng } from "../src/render/png.js";
import { monthLabel } from "../src/render/report.js";
import { CHART_WIDTH, profitChartSvg } from "../src/render/reportChart.js";
import type { TxRecord } from "../src/store/index.js";

const month = "2026-11";
const products = [
  { code: "S10", title: "Telkomsel 10.000", cost: 10_150, price: 12_000 },
  { code: "X25", title: "XL 25.000", cost: 24_900, price: 27_000 },
  { code: "PLN50", title: "PLN 50.000", cost: 50_200, price: 52_500 },
  { code: "D5", title: "DANA 50.000", cost: 50_100, price: 51_500 },
];
let seed = 14;
const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const txs: TxRecord[] = [];
for (let day = 1; day <= 23; day++) {
  const sales = 4 + Math.floor(rand() * 14) + (day % 7 === 6 ? 8 : 0);
  for (let i = 0; i < sales; i++) {
    const p = products[Math.floor(rand() * products.length)]!;
    const createdAt = Date.UTC(2026, 10, day, 1 + Math.floor(rand() * 13));
    txs.push({
      refId: `PR${day}${i}`, chatId: 1, kind: "prepaid", status: "success", code: p.code, title: p.title,
      amount: p.cost, sale: { price: p.price, profit: p.price - p.cost }, createdAt, updatedAt: createdAt,
    });
  }
}
const t = createTranslate();
const total = summarize(txs, `${month}-01`, `${month}-30`);
const svg = profitChartSvg(profitPerDay(txs, month), {
  title: t("id", "report-chart-title", { month: monthLabel(month, "id") }),
  subtitle: t("id", "report-chart-total", { profit: rupiah(total.profit, "id"), sales: total.sales }),
  lang: "id",
});
await writeFile(new URL("./report-chart.png", import.meta.url), await svgToPng(svg, CHART_WIDTH));
