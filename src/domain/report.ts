/**
 * The reseller's figures (/laporan, the daily summary, the CSV export), computed from records only:
 * pure, no clock, no store. Days and months are WIB calendar days; a record counts on the day it
 * was created (the day the customer paid).
 */
import { formatWib, WIB_OFFSET_MS } from "../tools/time.js";
import { detailOf, type TxRecord } from "../store/index.js";
import { costOf, isSale, profitOf, sellingPrice } from "./sale.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** "2026-11-23": the WIB calendar day of an instant. */
export function wibDay(at: number): string {
  return formatWib(at).slice(0, 10);
}

/** The first instant of a WIB day ("2026-11-23" -> 2026-11-22T17:00Z). */
export function wibDayStart(day: string): number {
  return Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) - WIB_OFFSET_MS;
}

/** The day `n` days after `day` (negative: before). */
export function addDays(day: string, n: number): string {
  return wibDay(wibDayStart(day) + n * DAY_MS);
}

export interface ProductLine {
  code: string;
  title: string;
  sales: number;
  profit: number;
}

export interface Summary {
  /** Successful sales. */
  sales: number;
  /** Selling prices of the successful sales. */
  turnover: number;
  cost: number;
  profit: number;
  /** Sales the provider refused. */
  failed: number;
  /** Successful deposits and what they added to the balance. */
  deposits: number;
  credited: number;
  /** Successful transfers out: how many, their amounts, and the provider's fees on them. */
  transfers: number;
  transferred: number;
  transferFees: number;
  /** Most sold products, at most five (by sales, then profit). */
  top: ProductLine[];
}

/** A named span of WIB days, both ends included. */
export interface Period {
  name: "today" | "yesterday" | "week" | "month";
  from: string;
  to: string;
}

/** Today, yesterday, the last 7 days (today included) and this month up to today, for `now`. */
export function reportPeriods(now: number): Period[] {
  const today = wibDay(now);
  return [
    { name: "today", from: today, to: today },
    { name: "yesterday", from: addDays(today, -1), to: addDays(today, -1) },
    { name: "week", from: addDays(today, -6), to: today },
    { name: "month", from: `${today.slice(0, 7)}-01`, to: today },
  ];
}

/** The figures of the records created between the days `from` and `to` (included). */
export function summarize(txs: readonly TxRecord[], from: string, to: string, topN = 5): Summary {
  const start = wibDayStart(from);
  const end = wibDayStart(addDays(to, 1));
  const s: Summary = { sales: 0, turnover: 0, cost: 0, profit: 0, failed: 0, deposits: 0, credited: 0, transfers: 0, transferred: 0, transferFees: 0, top: [] };
  const products = new Map<string, ProductLine>();
  for (const tx of txs) {
    if (tx.createdAt < start || tx.createdAt >= end) continue;
    if (tx.kind === "deposit" && tx.status === "success") {
      s.deposits++;
      s.credited += detailOf(tx, "deposit").credited ?? tx.amount;
    }
    if (tx.kind === "transfer" && tx.status === "success") {
      s.transfers++;
      s.transferred += tx.amount;
      s.transferFees += tx.fee ?? 0;
    }
    if (!isSale(tx)) continue;
    if (tx.status === "failed") s.failed++;
    if (tx.status !== "success") continue;
    s.sales++;
    s.turnover += sellingPrice(tx);
    s.cost += costOf(tx);
    s.profit += profitOf(tx);
    const code = tx.code ?? tx.title ?? "?";
    const line = products.get(code) ?? { code, title: tx.title ?? code, sales: 0, profit: 0 };
    line.sales++;
    line.profit += profitOf(tx);
    products.set(code, line);
  }
  s.top = [...products.values()]
    .sort((a, b) => b.sales - a.sales || b.profit - a.profit || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
    .slice(0, topN);
  return s;
}

/** One person's part of a period's sales: the owner (`by` undefined) or one staff member's chat (downlines: networkReport.ts). */
export interface PersonLine {
  by: number | undefined;
  sales: number;
  turnover: number;
  profit: number;
}

/**
 * The successful sales of the days `from`..`to` split by who made them (the owner first, then staff by
 * turnover, highest first): each sale is counted in exactly one line, so the lines and the network's
 * figures (networkReport.ts: a downline's sale, paid from its wallet) add up to summarize()'s sales,
 * turnover and profit.
 */
export function perPerson(txs: readonly TxRecord[], from: string, to: string): PersonLine[] {
  const start = wibDayStart(from);
  const end = wibDayStart(addDays(to, 1));
  const lines = new Map<number | undefined, PersonLine>();
  for (const tx of txs) {
    if (tx.createdAt < start || tx.createdAt >= end || !isSale(tx) || tx.status !== "success" || tx.wallet) continue;
    const line = lines.get(tx.by) ?? { by: tx.by, sales: 0, turnover: 0, profit: 0 };
    line.sales++;
    line.turnover += sellingPrice(tx);
    line.profit += profitOf(tx);
    lines.set(tx.by, line);
  }
  return [...lines.values()].sort((a, b) =>
    a.by === undefined ? -1 : b.by === undefined ? 1 : b.turnover - a.turnover || a.by - b.by,
  );
}

/** Profit of the successful sales per day of `month` ("2026-11"), every day of the month listed. */
export function profitPerDay(txs: readonly TxRecord[], month: string): { day: string; profit: number }[] {
  const days: { day: string; profit: number }[] = [];
  for (let d = `${month}-01`; d.startsWith(month); d = addDays(d, 1)) days.push({ day: d, profit: 0 });
  const byDay = new Map(days.map((d) => [d.day, d]));
  for (const tx of txs) {
    if (!isSale(tx) || tx.status !== "success") continue;
    const slot = byDay.get(wibDay(tx.createdAt));
    if (slot) slot.profit += profitOf(tx);
  }
  return days;
}

/** The months ("YYYY-MM", oldest first) the days `from`..`to` touch: what to read from the store. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = from.slice(0, 7); m <= to.slice(0, 7); ) {
    out.push(m);
    const y = Number(m.slice(0, 4));
    const mo = Number(m.slice(5, 7));
    m = mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, "0")}`;
  }
  return out;
}

/** What the report reads: the chat's records of one month, hot and archived (Store.txsOfMonth). */
export interface MonthReader {
  txsOfMonth(chatId: number, month: string): Promise<readonly TxRecord[]>;
}

/** The chat's records of every month the report periods at `now` touch (last month too, for the 7 days). */
export async function reportRecords(store: MonthReader, chatId: number, now: number): Promise<TxRecord[]> {
  const periods = reportPeriods(now);
  const from = periods.reduce((m, p) => (p.from < m ? p.from : m), periods[0]!.from);
  const out: TxRecord[] = [];
  for (const m of monthsBetween(from, wibDay(now))) out.push(...(await store.txsOfMonth(chatId, m)));
  return out;
}
