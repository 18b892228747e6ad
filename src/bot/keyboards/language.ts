/** The language picker (features/language.ts). */
import { InlineKeyboard } from "grammy";
import { cb } from "../buttons.js";
import type { Translate } from "../../render/i18n.js";

/** One button per language of locales/, each named in itself (its own file's `language-self`). */
export function languageKeyboard(translate: Translate): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  for (const lang of translate.langs) keyboard.text(translate(lang, "language-self"), cb.language.encode({ lang }));
  return keyboard;
}
