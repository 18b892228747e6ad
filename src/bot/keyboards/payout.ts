/** A downline's payout request (features/payout.ts): the owner's two buttons. */
import { InlineKeyboard } from "grammy";
import { cb } from "../buttons.js";
import type { Translator } from "./translator.js";

/** Open the ordinary transfer confirm screen for the request, or decline it. */
export function payoutRequestKeyboard(tr: Translator, refId: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("payout-button-open"), cb.payoutOpen.encode({ refId })).text(tr.t("payout-button-decline"), cb.payoutDecline.encode({ refId }));
}
