/** The main menu's buttons, laid out in rows (features/menu.ts). */
import { InlineKeyboard } from "grammy";
import { cb, type MenuName } from "../buttons.js";
import type { Translator } from "./translator.js";

export const MENU_LAYOUT: readonly (readonly MenuName[])[] = [
  ["topup", "prices"],
  ["bill", "transfer"],
  ["deposit", "balance"],
  ["history", "status"],
  ["report", "customers"],
  ["markup", "shop"],
  ["export", "alerts"],
  ["language", "help"],
];

/** The menu with only the buttons `shown` (a staff member sees its role's); a row left empty is dropped. */
export function menuKeyboard(tr: Translator, shown: ReadonlySet<MenuName>): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const row of MENU_LAYOUT.map((r) => r.filter((action) => shown.has(action))).filter((r) => r.length > 0)) {
    for (const action of row) kb.text(tr.t(`menu-${action}`), cb.menu.encode({ name: action }));
    kb.row();
  }
  return kb;
}
