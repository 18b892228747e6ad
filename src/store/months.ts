/** WIB calendar months, as history, reports and both stores count them. */
import { formatWib } from "../tools/time.js";

/** "2026-01" for an instant, in WIB (the provider's and the resellers' calendar). */
export function wibMonth(at: number): string {
  return formatWib(at).slice(0, 7);
}

/** The first instant of a WIB month ("2026-01" -> 2025-12-31T17:00Z). */
export function wibMonthStart(month: string): number {
  return Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1) - 7 * 60 * 60 * 1000;
}

export function nextMonth(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, "0")}`;
}
