/** A downline's /h2h screen: a new key. */
import { InlineKeyboard } from "grammy";
import { cb } from "../buttons.js";
import type { Translator } from "./translator.js";

export function h2hKeyboard(tr: Translator): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("h2h-button-new-key"), cb.h2hNewKey.encode({}));
}
