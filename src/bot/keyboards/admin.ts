/** The bot admins' buttons (features/admin.ts). */
import { InlineKeyboard } from "grammy";
import { cb } from "../buttons.js";
import type { Translator } from "./translator.js";

/** Under a broadcast's preview: send it to every chat, or drop it. */
export function broadcastKeyboard(tr: Translator, draft: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("broadcast-button-send"), cb.broadcastSend.encode({ draft })).text(tr.t("button-cancel"), cb.broadcastCancel.encode({ draft }));
}
