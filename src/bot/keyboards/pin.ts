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
export function pinSettingsKeyboard(tr: Translator, owner = false): InlineKeyboard {
  const k = new InlineKeyboard();
  // The limits are the owner's: staff and downlines change their PIN only.
  if (owner) k.text(tr.t("pin-button-above"), cb.pinPick.encode({ what: "beli" })).row().text(tr.t("pin-button-limit"), cb.pinPick.encode({ what: "batas" })).row();
  return k.text(tr.t("pin-button-change"), cb.pinChange.encode({}));
}

/** The presets of the purchase threshold and the daily limit, in rupiah. */
export const PIN_PRESETS = { beli: [100_000, 500_000, 1_000_000], batas: [1_000_000, 5_000_000, 20_000_000] } as const;

/** A setting's presets, "off" and "type your own"; `label` formats an amount. */
export function pinPresetKeyboard(tr: Translator, what: "beli" | "batas", label: (amount: number) => string): InlineKeyboard {
  const k = new InlineKeyboard();
  for (const amount of PIN_PRESETS[what]) k.text(label(amount), cb.pinSet.encode({ what, amount }));
  return k.row().text(tr.t("pin-button-preset-off"), cb.pinSet.encode({ what, amount: 0 })).text(tr.t("pin-button-own"), cb.pinOwn.encode({ what }));
}

/** Under every announcement of a money-out or security change. */
export function notMeKeyboard(tr: Translator): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("pin-button-not-me"), cb.pinNotMe.encode({}));
}
