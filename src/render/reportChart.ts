/**
 * The /laporan chart: profit per day of one month as an SVG bar chart (pure; png.ts renders it).
 * Sized for a phone: 800×450, labels large enough to read once Telegram scales the photo down.
 */
import { html, rupiah } from "./format.js";
import { IMAGE_FONT } from "./png.js";
import type { Lang } from "../store/index.js";

export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 450;

export interface ChartLabels {
  /** e.g. "Untung per hari · November 2026". */
  title: string;
  /** e.g. "Total: Rp54.000". */
  subtitle: string;
  /** The reader's language: the axis amounts are grouped its way. */
  lang: Lang;
}

/** Rounds up to 1, 2 or 5 times a power of ten, so the top gridline reads as a round amount. */
function niceCeil(v: number): number {
  if (v <= 0) return 0;
  const p = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 5, 10].find((m) => m * p >= v) ?? 10) * p;
}

/** `days`: every day of the month in order with its profit (report.ts profitPerDay). */
export function profitChartSvg(days: readonly { day: string; profit: number }[], labels: ChartLabels): string {
  const left = 110;
  const right = 20;
  const top = 80;
  const bottom = 50;
  const plotW = CHART_WIDTH - left - right;
  const plotH = CHART_HEIGHT - top - bottom;
  const max = niceCeil(Math.max(0, ...days.map((d) => d.profit)));
  const min = -niceCeil(Math.max(0, ...days.map((d) => -d.profit)));
  const span = max - min || 1;
  const y = (v: number) => top + ((max - v) / span) * plotH;
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(2, slot * 0.7);

  const parts: string[] = [];
  parts.push(`<rect width="${CHART_WIDTH}" height="${CHART_HEIGHT}" fill="#ffffff"/>`);
  parts.push(`<text x="${left}" y="34" font-size="24" font-weight="bold" fill="#1f2937">${html(labels.title)}</text>`);
  parts.push(`<text x="${left}" y="62" font-size="18" fill="#4b5563">${html(labels.subtitle)}</text>`);
  // Gridlines at the top, the middle and zero (and the bottom when there were losses).
  const ticks = [...new Set([max, max / 2, 0, min / 2, min])].filter((v) => v <= max && v >= min);
  for (const v of ticks) {
    const ty = y(v).toFixed(1);
    parts.push(`<line x1="${left}" y1="${ty}" x2="${CHART_WIDTH - right}" y2="${ty}" stroke="${v === 0 ? "#6b7280" : "#e5e7eb"}" stroke-width="1"/>`);
    parts.push(`<text x="${left - 8}" y="${(y(v) + 5).toFixed(1)}" font-size="14" text-anchor="end" fill="#4b5563">${html(rupiah(v, labels.lang))}</text>`);
  }
  days.forEach((d, i) => {
    const x = left + i * slot + (slot - barW) / 2;
    if (d.profit !== 0) {
      const y0 = y(Math.max(0, d.profit));
      const h = Math.abs(y(d.profit) - y(0));
      const color = d.profit > 0 ? "#16a34a" : "#dc2626";
      parts.push(`<rect x="${x.toFixed(1)}" y="${y0.toFixed(1)}" width="${barW.toFixed(1)}" height="${Math.max(1, h).toFixed(1)}" fill="${color}"/>`);
    }
    const dayOfMonth = Number(d.day.slice(8, 10));
    if (dayOfMonth === 1 || dayOfMonth % 5 === 0) {
      const cx = (left + i * slot + slot / 2).toFixed(1);
      parts.push(`<text x="${cx}" y="${CHART_HEIGHT - bottom + 24}" font-size="14" text-anchor="middle" fill="#4b5563">${dayOfMonth}</text>`);
    }
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${CHART_HEIGHT}" ` +
    `viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" font-family="${IMAGE_FONT}">${parts.join("")}</svg>`
  );
}
