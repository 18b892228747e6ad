/** Money, time and masking as the reseller reads them. One place, so every screen agrees. */
import type { Lang } from "../store/types.js";

const groupId = new Intl.NumberFormat("id-ID", { maximumFractionDigits: 0 });

/** `Rp10.000` (id-ID grouping) whatever the chat's language: it is how rupiah is written. */
export function rupiah(amount: number): string {
  const sign = amount < 0 ? "-" : "";
  return `${sign}Rp${groupId.format(Math.abs(Math.round(amount)))}`;
}

const WIB = "Asia/Jakarta";
const timeOptions: Intl.DateTimeFormatOptions = {
  timeZone: WIB,
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
};
const timeFormats: Record<Lang, Intl.DateTimeFormat> = {
  id: new Intl.DateTimeFormat("id-ID", timeOptions),
  en: new Intl.DateTimeFormat("en-GB", timeOptions),
};

/** e.g. `22 Nov 2026 14.05 WIB` (id) or `22 Nov 2026, 14:05 WIB` (en). */
export function wibTime(at: Date | number, lang: Lang): string {
  return `${timeFormats[lang].format(typeof at === "number" ? new Date(at) : at)} WIB`;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** Escapes text for Telegram's HTML parse mode (and for HTML pages, attributes included). */
export function html(text: string | number): string {
  return String(text).replace(/[&<>"]/g, (c) => HTML_ESCAPES[c]!);
}
