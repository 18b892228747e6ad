/**
 * The values of an audit entry as the owner reads them. The log keeps each value as short text (an
 * object as JSON); each act knows what its values are (a role, a setting, selling-price rules, money),
 * so they read in the owner's language: rupiah, role and setting names, months. Text this does not
 * recognise (an old entry, a value cut at its length limit) shows as it was kept. Pure: /audit and
 * the audit export share it.
 */
import type { AuditEntry } from "../domain/audit.js";
import type { Lang, PricingRules } from "../store/index.js";
import { clockText, html, intlLocale, rupiah } from "./format.js";
import type { Translate } from "./i18n.js";
import { ruleLines } from "./pricingRules.js";
import { monthLabel } from "./report.js";

/** What the value reads as (HTML), or undefined when the entry has none. */
export interface AuditValues {
  before?: string | undefined;
  after?: string | undefined;
}

/** `names`: the owner's staff by chat, so a staff act names the person, not its chat number. */
export function auditValues(t: Translate, lang: Lang, entry: Pick<AuditEntry, "act" | "before" | "after">, names: ReadonlyMap<number, string> = new Map()): AuditValues {
  const show = (value: string | undefined) => (value === undefined ? undefined : valueText(t, lang, entry.act, value, names));
  return { before: show(entry.before), after: show(entry.after) };
}

function valueText(t: Translate, lang: Lang, act: AuditEntry["act"], value: string, names: ReadonlyMap<number, string>): string {
  switch (act) {
    case "staff_invited":
    case "staff_joined":
    case "staff_left":
    case "staff_role_changed":
    case "staff_removed":
      return staffText(t, lang, value, names);
    case "staff_choice_changed":
    case "shop_changed":
      return settingsText(t, lang, value);
    case "prices_changed":
      return pricesText(t, lang, value);
    case "transfer":
    case "deposit_created":
    case "deposit_cancelled":
    case "deposit_released":
    case "refund":
      return moneyText(lang, value);
    case "export":
      return value === "audit" ? t(lang, "audit-export-log") : /^\d{4}-\d{2}$/.test(value) ? monthLabel(value, lang) : html(value);
    default:
      return html(value);
  }
}

/** "cashier", "<chat> cashier" or "<name> (<chat>) cashier": the person by name, the role by its word. */
function staffText(t: Translate, lang: Lang, value: string, names: ReadonlyMap<number, string>): string {
  const m = /^(?:(?:(.+) \((-?\d+)\)|(-?\d+)) )?(cashier|admin)$/.exec(value);
  if (!m) return html(value);
  const role = t(lang, `staff-role-${m[4]!}`);
  const chat = m[2] ?? m[3];
  const who = m[1] ?? (chat !== undefined ? (names.get(Number(chat)) ?? chat) : undefined);
  return who === undefined ? role : `${html(who)}: ${role}`;
}

/** "ref · 50000 · title · target": the amount in rupiah. */
function moneyText(lang: Lang, value: string): string {
  return value
    .split(" · ")
    .map((part, i) => (i === 1 && /^-?\d+$/.test(part) ? rupiah(Number(part), lang) : html(part)))
    .join(" · ");
}

function parsed(value: string): Record<string, unknown> | undefined {
  if (!value.startsWith("{")) return undefined;
  try {
    const object: unknown = JSON.parse(value);
    return object !== null && typeof object === "object" && !Array.isArray(object) ? (object as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // cut at the length limit, or not JSON at all
  }
}

/** Staff choices, the receipt's shop name and footer, the online shop's settings: "name: value; …". */
function settingsText(t: Translate, lang: Lang, value: string): string {
  const object = parsed(value);
  if (!object) return html(value);
  const fields = object.online !== null && typeof object.online === "object" ? (object.online as Record<string, unknown>) : object;
  const parts = Object.entries(fields).map(([key, v]) => `${t(lang, `audit-setting-${key}`)}: ${settingValue(t, lang, key, v)}`);
  return parts.length > 0 ? parts.join("; ") : t(lang, "audit-value-none");
}

function settingValue(t: Translate, lang: Lang, key: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return key === "hours" ? t(lang, "shop-online-hours-always") : t(lang, "audit-value-none");
  if (typeof value === "boolean") return t(lang, value ? "shop-online-yes" : "shop-online-no");
  if (key === "link" && (value === "old" || value === "new")) return t(lang, `audit-link-${value}`);
  if (key === "feePayer" && (value === "customer" || value === "reseller")) return t(lang, `shop-online-fee-${value}`);
  if (key === "hours" && typeof value === "object" && "open" in value && "close" in value) {
    return `${clockText(String(value.open), lang)}–${clockText(String(value.close), lang)}`;
  }
  if (Array.isArray(value)) return value.length > 0 ? value.map((v) => html(String(v))).join(", ") : t(lang, "shop-online-all");
  if (typeof value === "number") return new Intl.NumberFormat(intlLocale(lang)).format(value);
  return html(typeof value === "string" ? value : JSON.stringify(value));
}

/** Selling-price rules as /markup lists them, one rule after another. */
function pricesText(t: Translate, lang: Lang, value: string): string {
  const rules = parsed(value) as PricingRules | undefined;
  if (!rules) return html(value);
  const lines = ruleLines(t, lang, rules);
  return lines.length > 0 ? lines.join("; ") : t(lang, "audit-prices-none");
}
