/**
 * Fluent translations from locales/id.ftl and locales/en.ftl,
 * loaded by @grammyjs/i18n. The chat's language comes from the store (never a session: sessions
 * misbehave inside conversations), falling back to Telegram's language_code.
 *
 * Translating goes straight to the language's Fluent bundle: the plugin's own translate negotiates
 * languages on every call, which cost a measurable share of each update (see bench/results.md).
 */
import { I18n } from "@grammyjs/i18n";
import { fileURLToPath } from "node:url";
import type { Lang } from "../store/types.js";

export const LOCALES_DIR = fileURLToPath(new URL("../../locales", import.meta.url));

export type TranslateVars = Record<string, string | number>;
/** Translate in a given language; usable outside an update (watcher, broadcast). */
export type Translate = (lang: Lang, key: string, vars?: TranslateVars) => string;

/** Indonesian for `id`, English for everything else. */
export function langFromTelegram(languageCode: string | undefined): Lang {
  return languageCode?.toLowerCase().startsWith("id") ? "id" : "en";
}

/** The part of a Fluent bundle we use (the plugin keeps its bundles in a private field). */
interface Bundle {
  locales: string[];
  getMessage(id: string): { value: unknown } | undefined;
  formatPattern(pattern: never, args?: TranslateVars): string;
}

export function createTranslate(): Translate {
  const i18n = new I18n({
    defaultLocale: "id",
    directory: LOCALES_DIR,
    // Unicode isolation marks around placeables show up as junk in Telegram and break copy-paste of ids.
    fluentBundleOptions: { useIsolating: false },
  });
  const bundles = (i18n.fluent as unknown as { bundles: Set<Bundle> }).bundles;
  const byLang = new Map<string, Bundle>();
  for (const b of bundles) for (const l of b.locales) byLang.set(l, b);
  return (lang, key, vars) => {
    const message = byLang.get(lang)?.getMessage(key);
    if (message?.value == null) return i18n.t(lang, key, vars); // the plugin's fallback and warnings
    return byLang.get(lang)!.formatPattern(message.value as never, vars);
  };
}
