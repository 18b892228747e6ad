/** /riwayat's buttons (features/history.ts). */
import { InlineKeyboard } from "grammy";
import type { InlineKeyboardButton } from "grammy/types";
import { cb } from "../buttons.js";
import { addPager } from "../paging.js";
import type { BaseContext } from "../context.js";
import type { Translator } from "./translator.js";

/** A page of the list: one numbered button per transaction (five a row), then the pager. */
export function historyKeyboard(ctx: BaseContext, refIds: readonly string[], first: number, shown: { page: number; pages: number }): InlineKeyboard {
  const kb = new InlineKeyboard();
  refIds.forEach((refId, i) => {
    kb.text(String(first + i + 1), cb.historyDetail.encode({ refId }));
    if (i % 5 === 4) kb.row();
  });
  return addPager(kb, ctx, shown, (p) => cb.historyPage.encode({ page: p }));
}

/** Under one transaction's details: its sale's actions, the status check while open, back to the list. */
export function historyDetailKeyboard(tr: Translator, saleRows: readonly (readonly InlineKeyboardButton[])[], refId: string, open: boolean): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const row of saleRows) kb.add(...row).row();
  if (open) kb.text(tr.t("button-check-status"), cb.status.encode({ refId }));
  return kb.text(tr.t("history-back"), cb.historyPage.encode({ page: 0 }));
}
