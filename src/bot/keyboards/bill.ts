/** The bill flow's own buttons (flows/bill.ts); the confirm screen's are in confirm.ts. */
import { InlineKeyboard } from "grammy";
import { cb } from "../buttons.js";
import type { Translator } from "./translator.js";

/** After an outage: inquire the same customer number again. */
export function billRetryKeyboard(tr: Translator): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("button-retry"), cb.flowButton.encode({ button: "retry" }));
}
