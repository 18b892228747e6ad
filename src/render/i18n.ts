/**
 * Fluent translations from locales/id.ftl and locales/en.ftl (plus locales/<lang>/*.ftl). The
 * chat's language comes from the store (never a session: sessions misbehave inside conversations),
 * falling back to Telegram's language_code.
 *
 * Translating goes straight to the language's own FluentBundle (@fluent/bundle): the plugin's
 * translate negotiates languages on every call, which cost a measurable share of each update (see
 * bench/results.md). A message missing there goes through the plugin's public `t`, which keeps its
 * fallback to Indonesian and its warnings.
 */
import { FluentBundle, FluentResource } from "@fluent/bundle";
import { I18n } from "@grammyjs/i18n";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
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

/** The sources of each locale, grouped as the plugin does: by the first name segment under the dir. */
function readLocales(dir: string): Map<string, string> {
  const sources = new Map<string, string[]>();
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith(".ftl"));
  for (const file of files) {
    const path = join(file.parentPath, file.name);
    const locale = relative(dir, path).split(sep)[0]!.split(".")[0]!;
    sources.set(locale, [...(sources.get(locale) ?? []), readFileSync(path, "utf8")]);
  }
  return new Map([...sources].map(([locale, parts]) => [locale, parts.join("\n")]));
}

export function createTranslate(): Translate {
  // Unicode isolation marks around placeables show up as junk in Telegram and break copy-paste of ids.
  const bundleOptions = { useIsolating: false };
  const i18n = new I18n({ defaultLocale: "id", fluentBundleOptions: bundleOptions });
  const byLang = new Map<string, FluentBundle>();
  for (const [locale, source] of readLocales(LOCALES_DIR)) {
    const bundle = new FluentBundle(locale, bundleOptions);
    const errors = bundle.addResource(new FluentResource(source), { allowOverrides: true });
    if (errors.length > 0) throw new Error(`locales/${locale}: ${errors.map(String).join("; ")}`);
    byLang.set(locale, bundle);
    i18n.loadLocaleSync(locale, { source });
  }
  return (lang, key, vars) => {
    const bundle = byLang.get(lang);
    const message = bundle?.getMessage(key);
    if (!bundle || message?.value == null) return i18n.t(lang, key, vars); // the plugin's fallback and warnings
    return bundle.formatPattern(message.value, vars);
  };
}
