/** The gates' buttons (bot/guards.ts). */
import { InlineKeyboard } from "grammy";
import type { Translator } from "./translator.js";

/** Opens the private chat with the bot (a t.me link). */
export function openPrivateKeyboard(tr: Translator, username: string): InlineKeyboard {
  return new InlineKeyboard().url(tr.t("button-open-private"), `https://t.me/${username}`);
}
