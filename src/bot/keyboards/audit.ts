/** The audit log's page button (features/audit.ts). */
import { InlineKeyboard } from "grammy";
import { cb } from "../buttons.js";
import type { Translator } from "./translator.js";

/** Older entries, from before `seq`. */
export function auditMoreKeyboard(tr: Translator, seq: number): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("audit-button-more"), cb.auditMore.encode({ seq }));
}
