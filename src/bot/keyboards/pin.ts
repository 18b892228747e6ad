/** The PIN keypad (bot/pin/gate.ts) and the buttons of /pin and of an announcement. */
import { InlineKeyboard } from "grammy";
import { cb } from "../buttons.js";
import type { Translator } from "./translator.js";

/** 1-9 in three rows, then ⌫ 0 ✅, then Cancel: each digit button carries its one digit. */
export function pinKeypad(tr: Translator): InlineKeyboard {
  const k = new InlineKeyboard();
  for (const row of [[1, 2, 3], [4, 5, 6], [7, 8, 9]]) {
    for (const d of row) k.text(String(d), cb.pinDigit.encode({ digit: d }));
    k.row();
  }
  k.text("⌫", cb.pinBack.encode({})).text("0", cb.pinDigit.encode({ digit: 0 })).text("✅", cb.pinOk.encode({})).row();
  return k.text(tr.t("button-cancel"), cb.pinCancel.encode({}));
}

/** /pin with a PIN set: change it. */
export function pinSettingsKeyboard(tr: Translator): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("pin-button-change"), cb.pinChange.encode({}));
}

/** Under every announcement of a money-out or security change. */
export function notMeKeyboard(tr: Translator): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("pin-button-not-me"), cb.pinNotMe.encode({}));
}
