/**
 * The words of the reseller's figures (report.ts in domain/ computes them): the /laporan message
 * and the daily summary share these lines, so both read the same. Pure (translate in, HTML out):
 * the watcher side (daily summary) uses it without the bot.
 */
import type { Period, PersonLine, Summary } from "../domain/report.js";
import type { Lang } from "../store/index.js";
import { html, intlLocale, rupiah } from "./format.js";
import type { Translate } from "./i18n.js";

/** "23 Nov" for a WIB day "2026-11-23" (the day is already a calendar day: format it in UTC). */
export function dayLabel(day: string, lang: Lang): string {
  const at = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
  return new Intl.DateTimeFormat(intlLocale(lang), { timeZone: "UTC", day: "numeric", month: "short" }).format(at);
}

/** "November 2026" for "2026-11". */
export function monthLabel(month: string, lang: Lang): string {
  const at = Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 15);
  return new Intl.DateTimeFormat(intlLocale(lang), { timeZone: "UTC", month: "long", year: "numeric" }).format(at);
}

/** The figures of one period: sales, money, deposits in, transfers out (HTML lines). */
export function summaryLines(t: Translate, lang: Lang, s: Summary): string[] {
  const lines = [
    t(lang, "report-sales", { sales: s.sales, failed: s.failed }),
    t(lang, "report-money", { turnover: rupiah(s.turnover, lang), cost: rupiah(s.cost, lang), profit: rupiah(s.profit, lang) }),
  ];
  if (s.deposits > 0) lines.push(t(lang, "report-deposits", { credited: rupiah(s.credited, lang), count: s.deposits }));
  if (s.transfers > 0) {
    lines.push(t(lang, "report-transfers", { amount: rupiah(s.transferred, lang), count: s.transfers, fees: rupiah(s.transferFees, lang) }));
  }
  return lines;
}

/** The best sellers, one line each (HTML); empty when nothing was sold. */
export function topLines(t: Translate, lang: Lang, s: Summary, titleKey = "report-top-title"): string[] {
  if (s.top.length === 0) return [];
  return [
    t(lang, titleKey),
    ...s.top.map((p, i) => t(lang, "report-top-line", { rank: i + 1, title: html(p.title), sales: p.sales, profit: rupiah(p.profit, lang) })),
  ];
}

/** A period's best sellers on one line: "Terlaris: Telkomsel 10.000 (2x), XL 10.000 (1x)". */
function topShortLine(t: Translate, lang: Lang, s: Summary): string[] {
  if (s.top.length === 0) return [];
  return [t(lang, "report-top-short", { list: s.top.map((p) => `${html(p.title)} (${p.sales}x)`).join(", ") })];
}

/** The /laporan message: each period's figures and best sellers, then this month's best sellers in full. */
export function reportText(t: Translate, lang: Lang, periods: readonly { period: Period; summary: Summary }[]): string {
  const blocks = periods.map(({ period, summary }) => {
    const dates = period.from === period.to ? dayLabel(period.from, lang) : `${dayLabel(period.from, lang)}–${dayLabel(period.to, lang)}`;
    const head = t(lang, "report-period", { name: t(lang, `report-period-${period.name}`), dates });
    const top = period.name === "month" ? [] : topShortLine(t, lang, summary);
    return [head, ...summaryLines(t, lang, summary), ...top].join("\n");
  });
  const month = periods.find((p) => p.period.name === "month")?.summary;
  const top = month ? topLines(t, lang, month) : [];
  return [t(lang, "report-title"), ...blocks, ...(top.length > 0 ? [top.join("\n")] : [])].join("\n\n");
}

/** The 21.00 summary of one day. */
export function dailySummaryText(t: Translate, lang: Lang, day: string, s: Summary): string {
  const top = topLines(t, lang, { ...s, top: s.top.slice(0, 3) }, "daily-summary-top");
  const body = [t(lang, "daily-summary-title", { date: dayLabel(day, lang) }), summaryLines(t, lang, s).join("\n")];
  if (top.length > 0) body.push(top.join("\n"));
  body.push(t(lang, "daily-summary-footer"));
  return body.join("\n\n");
}

/**
 * Sales and profit per person (the owner, each staff member), for a shop with staff: `names` gives each
 * staff chat's name (a chat no longer listed shows its id). Empty when only the owner sold.
 */
export function perPersonLines(t: Translate, lang: Lang, lines: readonly PersonLine[], names: ReadonlyMap<number, string>): string[] {
  if (lines.every((l) => l.by === undefined)) return [];
  return [
    t(lang, "report-per-person-title"),
    ...lines.map((l) =>
      t(lang, "report-per-person-line", {
        name: l.by === undefined ? t(lang, "report-per-person-owner") : html(names.get(l.by) ?? String(l.by)),
        sales: l.sales,
        turnover: rupiah(l.turnover, lang),
        profit: rupiah(l.profit, lang),
      }),
    ),
  ];
}
