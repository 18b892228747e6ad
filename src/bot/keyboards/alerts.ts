/** The low-balance alert's flow button (features/alerts.ts). */
import { InlineKeyboard } from "grammy";
import { cb } from "../buttons.js";
import type { Translator } from "./translator.js";

/** Turns the alert off (offered while one is set). */
export function alertsOffKeyboard(tr: Translator): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("alerts-button-off"), cb.flowButton.encode({ button: "off" }));
}
