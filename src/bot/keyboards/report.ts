/** /laporan and /ekspor's buttons (features/report.ts). */
import { InlineKeyboard } from "grammy";
import { cb } from "../buttons.js";
import type { Translator } from "./translator.js";

/** Under the report: the daily summary on or off, and the export. */
export function reportKeyboard(tr: Translator, dailyOn: boolean): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t(dailyOn ? "report-button-daily-off" : "report-button-daily-on"), cb.reportDaily.encode({ on: dailyOn ? "off" : "on" }))
    .row()
    .text(tr.t("report-button-export"), cb.exportMenu.encode({}));
}

/** Under a downline's own report: its export only (the daily summary is the owner's). */
export function ownReportKeyboard(tr: Translator): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("report-button-export"), cb.exportMenu.encode({}));
}

/** One button per month (`label` writes it), three a row; the audit log's export when `withAudit`. */
export function exportKeyboard(tr: Translator, months: readonly string[], label: (month: string) => string, withAudit: boolean): InlineKeyboard {
  const kb = new InlineKeyboard();
  months.forEach((m, i) => {
    kb.text(label(m), cb.exportMonth.encode({ month: m }));
    if (i % 3 === 2) kb.row();
  });
  if (withAudit) kb.row().text(tr.t("audit-button-export"), cb.exportAudit.encode({}));
  return kb;
}
