/** /status's buttons (features/status.ts). */
import { InlineKeyboard } from "grammy";
import type { InlineKeyboardButton } from "grammy/types";
import { cb } from "../buttons.js";
import type { Translator } from "./translator.js";

/** One transaction a row, each opening its status (`label` names it). */
export function statusListKeyboard<T extends { refId: string }>(txs: readonly T[], label: (tx: T) => string): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const tx of txs) kb.text(label(tx), cb.status.encode({ refId: tx.refId })).row();
  return kb;
}

/** Under an open transaction's status: refresh, and the deposit's instant release when it is offered. */
export function openStatusKeyboard(tr: Translator, refId: string, release: boolean): InlineKeyboard {
  const markup = new InlineKeyboard().text(tr.t("button-refresh-status"), cb.status.encode({ refId }));
  if (release) markup.text(tr.t("deposit-button-release"), cb.depositRelease.encode({ refId }));
  return markup;
}

/** Under a final transaction's status: its sale's actions (render/saleActions.ts), undefined when none. */
export function finalStatusKeyboard(saleRows: readonly (readonly InlineKeyboardButton[])[]): InlineKeyboard | undefined {
  return saleRows.length > 0 ? new InlineKeyboard(saleRows.map((row) => [...row])) : undefined;
}
