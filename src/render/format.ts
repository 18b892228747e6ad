/** Money, time and masking as the reseller reads them. One place, so every screen agrees. */
import type { Lang } from "../store/index.js";
import { WIB_OFFSET_MS } from "../tools/time.js";

// Made on first use: ICU's first number and date formats cost ~25 ms that a start-up answering
// its first update (bench/startup.ts) need not pay.
const groupings = new Map<Lang, Intl.NumberFormat>();

/** `Rp10.000` (id), `Rp10,000` (en): whole rupiah, grouped as the reader's language groups numbers. */
export function rupiah(amount: number, lang: Lang): string {
  const sign = amount < 0 ? "-" : "";
  let grouping = groupings.get(lang);
  if (!grouping) groupings.set(lang, (grouping = new Intl.NumberFormat(intlLocale(lang), { maximumFractionDigits: 0 })));
  return `${sign}Rp${grouping.format(Math.abs(Math.round(amount)))}`;
}

/**
 * A provider's product name with its thousands written as the language writes them: names come in
 * Indonesian ("Telkomsel 10.000"), which beside an English price (Rp12,589) mixes two formats.
 * Only dot-grouped thousands change ("1.5GB" is a decimal and stays).
 */
export function productName(name: string, lang: Lang): string {
  if (lang === "id") return name;
  const sep = new Intl.NumberFormat(intlLocale(lang)).format(1000).replace(/\d/g, "");
  return sep === "." ? name : name.replace(/\b\d{1,3}(?:\.\d{3})+\b/g, (n) => n.replace(/\./g, sep));
}

/**
 * The Intl locale a language writes its dates (and month names) in: its own code, so a language added
 * as a locales/*.ftl file gets its own words from ICU with no code here (an unknown code gets ICU's
 * default). English is written day before month, as readers in Indonesia expect.
 */
export function intlLocale(lang: Lang): string {
  return lang === "en" ? "en-GB" : lang;
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
const timeFormats = new Map<Lang, Intl.DateTimeFormat>();

/** The format of `lang` in `cache`, made on first use. */
function formatOf(cache: Map<Lang, Intl.DateTimeFormat>, lang: Lang, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let format = cache.get(lang);
  if (!format) cache.set(lang, (format = new Intl.DateTimeFormat(intlLocale(lang), options)));
  return format;
}

/** A stored clock time "HH:MM" as each language writes it: `08.00` (id), `08:00` (en). */
export function clockText(hhmm: string, lang: Lang): string {
  return lang === "id" ? hhmm.replace(":", ".") : hhmm;
}

/** e.g. `22 Nov 2026 14.05 WIB` (id) or `22 Nov 2026, 14:05 WIB` (en). */
export function wibTime(at: Date | number, lang: Lang): string {
  return `${formatOf(timeFormats, lang, timeOptions).format(typeof at === "number" ? new Date(at) : at)} WIB`;
}

// Made on first use: four formats at import cost ~19 ms of start-up (ICU's locale data).
const monthFormats = new Map<Lang, Intl.DateTimeFormat>();

/** A bill period as the provider sends it, "202512" -> "Des 2025" / "Dec 2025"; undefined for any other label. */
export function billMonth(period: string, lang: Lang): string | undefined {
  const m = /^(\d{4})(\d{2})$/.exec(period.trim());
  const month = m ? Number(m[2]) : 0;
  if (!m || month < 1 || month > 12) return undefined;
  const format = formatOf(monthFormats, lang, { month: "short", year: "numeric", timeZone: "UTC" });
  return format.format(new Date(Date.UTC(Number(m[1]), month - 1, 1)));
}

const clockFormats = new Map<Lang, Intl.DateTimeFormat>();

/** e.g. `14.05 WIB` (id) or `14:05 WIB` (en): a time of today, where the date goes without saying. */
export function wibClock(at: Date | number, lang: Lang): string {
  const format = formatOf(clockFormats, lang, { timeZone: WIB, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return `${format.format(typeof at === "number" ? new Date(at) : at)} WIB`;
}

/** An end or start time as "until/from HH.MM WIB" reads it: the next whole minute, so at the minute shown it holds. */
export function wibClockUntil(at: Date | number, lang: Lang): string {
  const ms = typeof at === "number" ? at : at.getTime();
  return wibClock(Math.ceil(ms / 60_000) * 60_000, lang);
}

/** As wibClockUntil, with the date when that minute is not on today's (WIB) date: "sampai 13.32" read as today. */
export function wibUntil(at: Date | number, now: number, lang: Lang): string {
  const ms = Math.ceil((typeof at === "number" ? at : at.getTime()) / 60_000) * 60_000;
  const day = (t: number) => Math.floor((t + WIB_OFFSET_MS) / 86_400_000);
  return day(ms) === day(now) ? wibClock(ms, lang) : wibTime(ms, lang);
}

// Escaping lives in tools/ (the sandbox's pages use it too, and may not import render/).
export { html } from "../tools/html.js";

/**
 * Cuts Telegram HTML so its visible text (what Telegram counts: tags removed, an entity is one
 * character) is at most `max`, ending in "…". Cuts between tags and entities, never inside one, and
 * closes the tags still open, so the result still parses. Short texts are returned unchanged.
 */
export function clipHtml(text: string, max: number): string {
  if (text.length <= max) return text; // visible length never exceeds the raw length
  const open: string[] = [];
  let visible = 0;
  let cutAt = -1;
  let openAtCut: string[] = [];
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === "<") {
      const end = text.indexOf(">", i);
      if (end < 0) break;
      const tag = text.slice(i + 1, end);
      const name = /^\/?([a-zA-Z-]+)/.exec(tag)?.[1]?.toLowerCase() ?? "";
      if (tag.startsWith("/")) {
        const at = open.lastIndexOf(name);
        if (at >= 0) open.splice(at, 1);
      } else if (name) open.push(name);
      i = end + 1;
      continue;
    }
    let width = 1;
    let units = 1;
    if (c === "&") {
      const end = text.indexOf(";", i);
      if (end > i && end - i <= 10) units = end - i + 1;
    } else if (/[\uD800-\uDBFF]/.test(c)) {
      width = units = 2;
    }
    // Remember the last position where "…" still fits.
    if (visible + width <= max - 1) {
      cutAt = i + units;
      openAtCut = [...open];
    }
    visible += width;
    i += units;
  }
  if (visible <= max) return text;
  return `${text.slice(0, Math.max(cutAt, 0))}…${openAtCut.reverse().map((t) => `</${t}>`).join("")}`;
}
