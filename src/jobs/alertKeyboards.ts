/** The low-balance alert's buttons (alerts.ts), in the chat's language outside an update. */
import { InlineKeyboard } from "grammy";
import type { Translate } from "../render/i18n.js";
import type { Lang } from "../store/index.js";
import { cb } from "../telegram/buttonData.js";

/** Under the alert: deposit now, or change the alert. */
export function lowBalanceAlertKeyboard(t: Translate, lang: Lang): InlineKeyboard {
  return new InlineKeyboard().text(t(lang, "menu-deposit"), cb.menu.encode({ name: "deposit" })).text(t(lang, "menu-alerts"), cb.menu.encode({ name: "alerts" }));
}
