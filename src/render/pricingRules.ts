/** A chat's selling-price rules as the reseller reads them: /markup lists them, /audit shows a change of them. */
import type { Lang, Markup, PricingRules } from "../store/index.js";
import { html, intlLocale, rupiah } from "./format.js";
import type { Translate } from "./i18n.js";

/** "+Rp2.000", "+5%", "+2,5%": the percent's decimal mark is the language's own (2.5 in English). */
export function markupLabel(m: Markup, lang: Lang): string {
  if ("flat" in m) return `+${rupiah(m.flat, lang)}`;
  return `+${new Intl.NumberFormat(intlLocale(lang), { maximumFractionDigits: 2 }).format(m.percent)}%`;
}

/** One line per rule, most general first (HTML). */
export function ruleLines(t: Translate, lang: Lang, rules: PricingRules): string[] {
  const lines: string[] = [];
  if (rules.all) lines.push(t(lang, "markup-line-all", { markup: markupLabel(rules.all, lang) }));
  for (const [key, m] of Object.entries(rules.categories ?? {})) lines.push(t(lang, "markup-line-category", { name: html(key), markup: markupLabel(m, lang) }));
  for (const [code, m] of Object.entries(rules.products ?? {})) lines.push(t(lang, "markup-line-product", { code: html(code), markup: markupLabel(m, lang) }));
  for (const [code, price] of Object.entries(rules.fixed ?? {})) lines.push(t(lang, "markup-line-fixed", { code: html(code), price: rupiah(price, lang) }));
  if (rules.billFee) lines.push(t(lang, "markup-line-bills", { fee: rupiah(rules.billFee, lang) }));
  return lines;
}
