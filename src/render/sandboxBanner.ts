/** The sandbox banner every money message carries when the bot talks to the built-in sandbox. */
import type { Lang } from "../store/index.js";
import type { Translate } from "./i18n.js";

export function withSandboxBanner(t: Translate, lang: Lang, sandbox: boolean, text: string): string {
  return sandbox ? `${t(lang, "sandbox-banner")}\n\n${text}` : text;
}
