/**
 * Fluent translations from locales/<lang>.ftl (plus locales/<lang>/*.ftl): the languages the bot
 * speaks are the files found there at start, so a new language is one more file. The chat's language
 * comes from the store (never a session: sessions misbehave inside conversations), falling back to
 * Telegram's language_code.
 *
 * Translating goes straight to the language's own FluentBundle (@fluent/bundle): the i18n plugin's
 * translate negotiates languages on every call, which cost a measurable share of each update (see
 * bench/results.md). A message missing there falls back as the plugin did (Indonesian, then `{key}`,
 * with its warnings) without loading the plugin: it and its Deno shim were ~140 modules at start-up.
 */
import { FluentBundle, FluentResource } from "@fluent/bundle";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { Lang } from "../store/index.js";
import { projectFile } from "../config/projectFiles.js";

/** locales/ beside package.json. */
export const LOCALES_DIR = dirname(projectFile("locales/id.ftl"));

export type TranslateVars = Record<string, string | number>;
/** Translate in a given language; usable outside an update (watcher, broadcast). */
export interface Translate {
  (lang: Lang, key: string, vars?: TranslateVars): string;
  /** The languages of locales/: the default first, then by name. */
  readonly langs: readonly Lang[];
}

/** The default language: the fallback of a message missing in the chat's language. */
export const DEFAULT_LANG = "id";
/** The language of users whose own language the bot does not speak. */
export const FOREIGN_LANG = "en";

/** The language of `langs` that Telegram's language_code names (`id-ID` is `id`), else FOREIGN_LANG. */
export function langFromTelegram(langs: readonly Lang[], languageCode: string | undefined): Lang {
  const code = languageCode?.toLowerCase();
  return (code !== undefined && langs.find((lang) => code.startsWith(lang.toLowerCase()))) || FOREIGN_LANG;
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

/** `dir`: a locales folder other than the shipped one (tests). */
export function createTranslate(dir = LOCALES_DIR): Translate {
  // Unicode isolation marks around placeables show up as junk in Telegram and break copy-paste of ids.
  const bundleOptions = { useIsolating: false };
  const byLang = new Map<string, FluentBundle>();
  for (const [locale, source] of readLocales(dir)) {
    const bundle = new FluentBundle(locale, bundleOptions);
    const errors = bundle.addResource(new FluentResource(source), { allowOverrides: true });
    if (errors.length > 0) throw new Error(`locales/${locale}: ${errors.map(String).join("; ")}`);
    byLang.set(locale, bundle);
  }
  /** The plugin's fallback: `key` or `key.attribute` in the language, then in Indonesian, else `{key}`. */
  const fallback = (lang: Lang, path: string, vars?: TranslateVars): string => {
    const [id, attribute] = path.split(".", 2) as [string, string | undefined];
    const defaultBundle = byLang.get(DEFAULT_LANG);
    for (const bundle of new Set([byLang.get(lang), defaultBundle].filter((b) => b !== undefined))) {
      const message = bundle.getMessage(id);
      const pattern = attribute ? message?.attributes[attribute] : message && (message.value ?? "");
      if (pattern !== undefined) return bundle.formatPattern(pattern, vars);
      warn(`Translation message "${id}"${attribute ? ` attribute "${attribute}"` : ""} is missing in the locale ${bundle.locales.join(", ")}.`);
    }
    warn(`The translation "${path}" is missing in the locales: ${lang}`);
    return `{${path}}`;
  };
  const translate = (lang: Lang, key: string, vars?: TranslateVars) => {
    const bundle = byLang.get(lang);
    const message = bundle?.getMessage(key);
    if (!bundle || message?.value == null) return fallback(lang, key, vars);
    return bundle.formatPattern(message.value, vars);
  };
  const langs = [...byLang.keys()].sort((a, b) => Number(b === DEFAULT_LANG) - Number(a === DEFAULT_LANG) || a.localeCompare(b));
  return Object.assign(translate, { langs: Object.freeze(langs) });
}

/** A missing translation is a developer's mistake, reported where the plugin reported it (no logger here). */
function warn(text: string): void {
  // eslint-disable-next-line no-console
  console.warn(text);
}
