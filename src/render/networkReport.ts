/**
 * The words of the network's figures (domain/networkReport.ts computes them): the owner's block in
 * /laporan, and a downline's own /laporan, which shows what it paid and never the owner's cost or margin.
 */
import type { NetworkLine, NetworkSummary, OwnSummary } from "../domain/networkReport.js";
import type { Period } from "../domain/report.js";
import type { Lang } from "../store/index.js";
import { html, rupiah } from "./format.js";
import type { Translate } from "./i18n.js";
import { dayLabel } from "./report.js";

/** Downlines named one by one in the owner's block; the rest are counted. */
export const NETWORK_TOP = 5;

function figures(lang: Lang, l: NetworkLine) {
  return { sales: l.sales, turnover: rupiah(l.turnover, lang), margin: rupiah(l.margin, lang) };
}

/**
 * The owner's network block for this month: the total, per level, the top downlines by turnover, and the
 * commissions paid to uplines. `names`: each downline's name and level now; `levels`: the owner's level names.
 */
export function networkLines(t: Translate, lang: Lang, s: NetworkSummary, names: ReadonlyMap<number, { name: string; level: number }>, levels: readonly string[]): string[] {
  const levelName = (i: number | undefined) => html((i === undefined ? undefined : levels[i]) ?? "?");
  if (s.sales === 0) return [t(lang, "report-network-title"), t(lang, "report-network-none")];
  const lines = [t(lang, "report-network-title"), t(lang, "report-network-total", figures(lang, s))];
  if (s.h2h.sales > 0) lines.push(t(lang, "report-network-h2h", figures(lang, s.h2h)));
  if (s.commissions > 0) lines.push(t(lang, "report-network-commissions", { amount: rupiah(s.commissions, lang) }));
  lines.push(...s.levels.map((l) => t(lang, "report-network-level-line", { level: levelName(l.level), ...figures(lang, l) })));
  const top = s.downlines.slice(0, NETWORK_TOP);
  lines.push(
    ...top.map((d) => t(lang, "report-network-downline-line", { name: html(names.get(d.chat)?.name ?? String(d.chat)), level: levelName(names.get(d.chat)?.level), ...figures(lang, d) })),
  );
  const more = s.downlines.length - top.length;
  if (more > 0) lines.push(t(lang, "report-network-more", { count: more }));
  return lines;
}

/** A downline's /laporan: each period's sales and what it paid from its wallet, and its commissions when it earned any. */
export function ownReportText(t: Translate, lang: Lang, periods: readonly { period: Period; own: OwnSummary; commissions: number }[]): string {
  const blocks = periods.map(({ period, own, commissions }) => {
    const dates = period.from === period.to ? dayLabel(period.from, lang) : `${dayLabel(period.from, lang)}–${dayLabel(period.to, lang)}`;
    return [
      t(lang, "report-period", { name: t(lang, `report-period-${period.name}`), dates }),
      t(lang, "report-sales", { sales: own.sales, failed: own.failed }),
      t(lang, "report-own-spend", { spend: rupiah(own.spend, lang) }),
      ...(commissions !== 0 ? [t(lang, "report-own-commission", { amount: rupiah(commissions, lang) })] : []),
    ].join("\n");
  });
  return [t(lang, "report-own-title"), ...blocks].join("\n\n");
}
