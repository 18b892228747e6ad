/**
 * Fluent translations from locales/{id,en}.ftl. The chat's language comes from the store (never a
 * session: sessions misbehave inside conversations), falling back to Telegram's language_code.
 */
import { I18n } from "@grammyjs/i18n";
import type { Context } from "grammy";
import { fileURLToPath } from "node:url";
import type { Lang } from "../store/types.js";

export const LOCALES_DIR = fileURLToPath(new URL("../../locales", import.meta.url));
export const LANGS: readonly Lang[] = ["id", "en"];

export type TranslateVars = Record<string, string | number>;
/** Translate in a given language; usable outside an update (watcher, broadcast). */
export type Translate = (lang: Lang, key: string, vars?: TranslateVars) => string;

/** Indonesian for `id`, English for everything else. */
export function langFromTelegram(languageCode: string | undefined): Lang {
  return languageCode?.toLowerCase().startsWith("id") ? "id" : "en";
}

export function createI18n<C extends Context>(negotiate: (ctx: C) => Lang): I18n<C> {
  return new I18n<C>({
    defaultLocale: "id",
    directory: LOCALES_DIR,
    // Unicode isolation marks around placeables show up as junk in Telegram and break copy-paste of ids.
    fluentBundleOptions: { useIsolating: false },
    localeNegotiator: negotiate,
  });
}

export function translator(i18n: I18n<never> | I18n<Context>): Translate {
  return (lang, key, vars) => i18n.t(lang, key, vars);
}
