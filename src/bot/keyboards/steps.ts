/** The flows' step buttons (bot/flows/steps.ts): Cancel, a text step's suggestions, a choice's page. */
import { InlineKeyboard } from "grammy";
import { cb } from "../buttons.js";
import { addPager, dropEmptyRows } from "../paging.js";
import type { Translator } from "./translator.js";

/** Cancel on a row of its own under `kb`. */
export function cancelRow(tr: Translator, kb = new InlineKeyboard()): InlineKeyboard {
  return dropEmptyRows(kb.row().text(tr.t("button-cancel"), cb.cancel.encode({})));
}

/** A text step's prompt: the suggestions' labels two to a row (at most `max`), the step's own buttons, Cancel. */
export function textStepKeyboard(tr: Translator, suggestions: readonly string[], max: number, own?: InlineKeyboard): InlineKeyboard {
  const kb = new InlineKeyboard();
  suggestions.slice(0, max).forEach((label, index) => {
    kb.text(label, cb.flowSuggestion.encode({ index }));
    if (index % 2 === 1) kb.row();
  });
  if (own) kb.row().append(own.clone());
  return cancelRow(tr, dropEmptyRows(kb));
}

/** One page of a choice: the choices shown (by their index among all), `columns` a row, the pager, Cancel. */
export function choiceKeyboard(
  tr: Translator,
  shown: { items: readonly { index: number; label: string }[]; page: number; pages: number },
  columns: number,
): InlineKeyboard {
  const kb = new InlineKeyboard();
  shown.items.forEach(({ index, label }, n) => {
    kb.text(label, cb.flowChoice.encode({ index }));
    if ((n + 1) % columns === 0) kb.row();
  });
  return cancelRow(tr, addPager(kb, tr, shown, (p) => cb.flowPage.encode({ page: p })));
}
