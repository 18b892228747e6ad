/** The confirm screen's buttons and the ones under its outcomes (bot/money/confirm.ts). */
import { InlineKeyboard } from "grammy";
import { cb } from "../buttons.js";
import type { Translator } from "./translator.js";

export function confirmKeyboard(tr: Translator, refId: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("button-confirm"), cb.confirm.encode({ refId })).text(tr.t("button-cancel"), cb.cancelDraft.encode({ refId }));
}

/** A screen that can no longer be confirmed, only cancelled (a payout over the daily limit: Cancel declines it). */
export function cancelOnlyKeyboard(tr: Translator, refId: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("button-cancel"), cb.cancelDraft.encode({ refId }));
}

export function statusKeyboard(tr: Translator, refId: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("button-check-status"), cb.status.encode({ refId }));
}

/** Under the warning that the same purchase is still open: buy again anyway, or cancel. */
export function buyAgainKeyboard(tr: Translator, refId: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("button-buy-again"), cb.confirmAgain.encode({ refId })).text(tr.t("button-cancel"), cb.cancelDraft.encode({ refId }));
}

/** Too little balance: the owner may deposit (staff cannot); the menu either way. */
export function lowBalanceKeyboard(tr: Translator, canDeposit: boolean): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  if (canDeposit) keyboard.text(tr.t("menu-deposit"), cb.menu.encode({ name: "deposit" }));
  return keyboard.text(tr.t("button-menu"), cb.menu.encode({ name: "open" }));
}

/** The provider refused: try again, or the menu. */
export function rejectedKeyboard(tr: Translator, refId: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("button-retry"), cb.retry.encode({ refId })).text(tr.t("button-menu"), cb.menu.encode({ name: "open" }));
}
