/**
 * /laporan (/report): today, yesterday, the last 7 days and this month from the chat's own records
 * (hot and archived), a chart of this month's profit per day, and the daily-summary switch
 * (`rp:d:on|off`, sent by jobs/dailySummary.ts). /ekspor (/export): a month of records as a CSV
 * document (`ex:<YYYY-MM>`). Reads the store only: no provider call. The network's block and a
 * downline's own report and file: networkReport.ts.
 */
import { Composer, InputFile } from "grammy";
import { exportKeyboard, reportKeyboard } from "../keyboards/report.js";
import { perPerson, profitPerDay, reportPeriods, reportRecords, summarize, wibDay, wibDayStart } from "../../domain/report.js";
import { auditCsv, exportCsv } from "../../render/exportCsv.js";
import { rupiah } from "../../render/format.js";
import { svgToPng } from "../../render/png.js";
import { monthLabel, perPersonLines, reportText } from "../../render/report.js";
import { orderRefOfTx } from "../../domain/shop/orders.js";
import { CHART_WIDTH, profitChartSvg } from "../../render/reportChart.js";
import { DAILY_SUMMARY_AT_MS } from "../../jobs/dailySummary.js";
import { cb, onCallback } from "../buttons.js";
import type { BotContext } from "../context.js";
import { requireKey } from "../guards.js";
import type { FeatureModule } from "../module.js";
import { moneyText } from "../replies.js";
import { isHistory } from "./history.js";
import { commands } from "../../telegram/commands.js";
import { audit, auditLog } from "../../domain/audit.js";
import { ledgerChat } from "../middlewares/roleGate.js";
import { staffOf } from "./staff.js";
import { networkBlock, sendOwnExport, showOwnReport } from "./networkReport.js";

/** Most audit entries one export holds (the newest). */
const AUDIT_EXPORT_MAX = 500;

/** Months offered by /ekspor (newest first). */
const EXPORT_MONTHS = 12;

async function showReport(ctx: BotContext): Promise<void> {
  if (!(await requireKey(ctx))) return;
  const chatId = ledgerChat(ctx);
  if (ctx.role.kind === "downline") return showOwnReport(ctx, chatId);
  const { ledger, settings, clock } = ctx.deps;
  const now = clock.now();
  const month = wibDay(now).slice(0, 7);
  const txs = await reportRecords({ txsOfMonth: (id, m) => ledger.month(id, m) }, chatId, now);
  const dailyOn = await settings.dailySummaryOn(chatId);
  const periods = reportPeriods(now).map((period) => ({ period, summary: summarize(txs, period.from, period.to) }));
  const thisMonth = periods.find((p) => p.period.name === "month")!.summary;
  if (!txs.some(isHistory)) {
    await ctx.reply(ctx.t("report-empty"), { reply_markup: reportKeyboard(ctx, dailyOn) });
    return;
  }
  if (thisMonth.sales > 0) {
    const label = monthLabel(month, ctx.lang);
    const svg = profitChartSvg(profitPerDay(txs, month), {
      title: ctx.t("report-chart-title", { month: label }),
      subtitle: ctx.t("report-chart-total", { profit: rupiah(thisMonth.profit, ctx.lang), sales: thisMonth.sales }),
      lang: ctx.lang,
    });
    const png = await svgToPng(svg, CHART_WIDTH);
    await ctx.replyWithPhoto(new InputFile(png, `${ctx.t("file-report")}-${month}.png`), { caption: ctx.t("report-chart-caption", { month: label }) });
  }
  // Shop orders count with the other sales; this month's share of them is said on its own line.
  const monthPeriod = periods.find((p) => p.period.name === "month")!.period;
  const shop = summarize(txs.filter((tx) => orderRefOfTx(tx.refId) !== undefined), monthPeriod.from, monthPeriod.to);
  const shopLine = shop.sales > 0 ? ctx.t("report-shop-line", { sales: shop.sales, profit: rupiah(shop.profit, ctx.lang) }) : undefined;
  // A shop with staff: this month's sales and profit per person (they add up to the month's figures).
  const people = perPersonLines(ctx.translate, ctx.lang, perPerson(txs, monthPeriod.from, monthPeriod.to), await staffOf(ctx).names(chatId));
  // The downlines' sales are in the figures above at their prices; their block says who sold what.
  const network = await networkBlock(ctx, chatId, txs, monthPeriod);
  const text = [reportText(ctx.translate, ctx.lang, periods), ...(shopLine ? [shopLine] : []), ...(people.length > 0 ? [people.join("\n")] : []), ...(network ? [network] : [])].join("\n\n");
  // The figures come last, so their buttons sit at the bottom of the chat.
  await ctx.reply(moneyText(ctx, text), { reply_markup: reportKeyboard(ctx, dailyOn) });
}

async function showExportMenu(ctx: BotContext): Promise<void> {
  if (!(await requireKey(ctx))) return;
  const chatId = ledgerChat(ctx);
  const current = wibDay(ctx.deps.clock.now()).slice(0, 7);
  const months = [current, ...(await ctx.deps.ledger.months(chatId)).filter((m) => m < current)].slice(0, EXPORT_MONTHS);
  // The audit log is the owner's to read, offered once it holds something.
  const withAudit = ctx.role.kind === "owner" && (await auditLog(ctx.deps.store, chatId, { limit: 1 })).length > 0;
  await ctx.reply(ctx.t("export-choose"), { reply_markup: exportKeyboard(ctx, months, (m) => monthLabel(m, ctx.lang), withAudit) });
}

const composer = new Composer<BotContext>();
composer.command(commands.laporan, showReport);
composer.command(commands.ekspor, showExportMenu);

onCallback(composer, cb.reportDaily, async (ctx, { on }) => {
  if (!ctx.chat || ctx.chat.type !== "private") {
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    return;
  }
  const enable = on === "on";
  const now = ctx.deps.clock.now();
  const today = wibDay(now);
  // Switched on after 21.00: today's round is over; the first summary comes tomorrow, also after a restart.
  const pastToday = now >= wibDayStart(today) + DAILY_SUMMARY_AT_MS;
  await ctx.deps.settings.setDailySummary(ledgerChat(ctx), enable, pastToday ? today : undefined);
  await ctx.answerCallbackQuery();
  // The button now offers the opposite; a message says what changed.
  await ctx.editMessageReplyMarkup({ reply_markup: reportKeyboard(ctx, enable) }).catch(() => undefined);
  await ctx.reply(ctx.t(enable ? "report-daily-turned-on" : "report-daily-turned-off"));
});

onCallback(composer, cb.exportMenu, async (ctx) => {
  await ctx.answerCallbackQuery();
  await showExportMenu(ctx);
});

onCallback(composer, cb.exportMonth, async (ctx, { month }) => {
  if (!(await requireKey(ctx))) {
    await ctx.answerCallbackQuery();
    return;
  }
  const owner = ledgerChat(ctx);
  if (ctx.role.kind === "downline") return sendOwnExport(ctx, owner, month);
  const txs = (await ctx.deps.ledger.month(owner, month)).filter(isHistory);
  if (txs.length === 0) {
    await ctx.answerCallbackQuery({ text: ctx.t("export-month-empty") });
    return;
  }
  await ctx.answerCallbackQuery();
  // The "by" column names staff and downlines (removed ones too).
  const names = new Map(await staffOf(ctx).names(owner));
  for (const d of await ctx.deps.network.everyMember(owner)) names.set(d.chat, d.member.name);
  const file = new InputFile(exportCsv(ctx.translate, ctx.lang, txs, names), `${ctx.t("file-export")}-${month}.csv`);
  await audit(ctx, "export", undefined, month);
  await ctx.replyWithDocument(file, { caption: ctx.t("export-caption", { month: monthLabel(month, ctx.lang), count: txs.length }) });
});

onCallback(composer, cb.exportAudit, async (ctx) => {
  if (!(await requireKey(ctx)) || ctx.role.kind !== "owner") {
    await ctx.answerCallbackQuery();
    return;
  }
  await ctx.answerCallbackQuery();
  // The export itself is an act: logged before the file is made, so the file lists it too.
  await audit(ctx, "export", undefined, "audit");
  const entries = await auditLog(ctx.deps.store, ctx.chat!.id, { limit: AUDIT_EXPORT_MAX });
  const file = new InputFile(auditCsv(ctx.translate, ctx.lang, entries, await staffOf(ctx).names(ctx.chat!.id)), `${ctx.t("file-audit")}.csv`);
  await ctx.replyWithDocument(file, { caption: ctx.t("audit-export-caption", { count: entries.length }) });
});

export const reportModule: FeatureModule = {
  name: "report",
  composer,
  commands: { laporan: "admin", ekspor: "admin" },
  buttons: {
    reportDaily: "admin",
    exportMenu: "admin",
    exportMonth: "admin",
    exportAudit: "owner",
  },
  menu: { report: showReport, export: showExportMenu },
};
