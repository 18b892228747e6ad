/** The provider speaks WIB (UTC+7) without a zone marker; all parsing and display of its times lives here. */
/** WIB is UTC+7 all year (no daylight saving). */
export const WIB_OFFSET_MS = 7 * 60 * 60 * 1000;
const WIB_PATTERN = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/;

/** Parses `YYYY-MM-DD HH:MM:SS` as WIB. Returns null for anything else (placeholders included). */
export function parseWib(text: string): Date | null {
  const m = WIB_PATTERN.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s) - WIB_OFFSET_MS;
  return Number.isNaN(ms) ? null : new Date(ms);
}

/** Formats an instant as the provider does: `YYYY-MM-DD HH:MM:SS` in WIB. */
export function formatWib(at: Date | number): string {
  const d = new Date((typeof at === "number" ? at : at.getTime()) + WIB_OFFSET_MS);
  const pad = (n: number) => String(n).padStart(2, "0");
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}
