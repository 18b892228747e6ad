/** The /transfer flow's own buttons (flows/transfer.ts); the confirm screen's are in confirm.ts. */
import { InlineKeyboard } from "grammy";
import { cb } from "../buttons.js";
import type { Translator } from "./translator.js";

/** Under the note question: go on without one. */
export function transferSkipNoteKeyboard(tr: Translator): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("transfer-button-skip"), cb.flowButton.encode({ button: "skip" }));
}

/** Under an account the provider could not check yet: check the same number again. */
export function transferCheckAgainKeyboard(tr: Translator): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("transfer-button-check-again"), cb.flowButton.encode({ button: "recheck" }));
}
