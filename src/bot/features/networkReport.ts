/**
 * The network in /laporan and /ekspor (docs/wallets.md): the owner's block (its downlines' sales per
 * level and per downline, commissions paid to uplines), a downline's own report (its sales, what it paid
 * from its wallet, its commissions) and its own CSV. A downline reads its owner's ledger filtered to
 * what it made, and never the owner's cost, margin or other downlines.
 */
import { InputFile } from "grammy";
import { commissionsEarned, networkSummary, ownSummary } from "../../domain/networkReport.js";
import { reportPeriods, reportRecords, wibDayStart, type Period } from "../../domain/report.js";
import { ownExportCsv } from "../../render/exportCsv.js";
import { networkLines, ownReportText } from "../../render/networkReport.js";
import { monthLabel } from "../../render/report.js";
import type { TxRecord, WalletEntry } from "../../store/index.js";
import type { BaseContext, BotContext } from "../context.js";
import { ownReportKeyboard } from "../keyboards/report.js";
import { moneyText } from "../replies.js";
import { isHistory } from "./history.js";

/** The owner's network block for `period`, or undefined when the owner has no downline and none sold. */
export async function networkBlock(ctx: BaseContext, owner: number, txs: readonly TxRecord[], period: Period): Promise<string | undefined> {
  const { network } = ctx.deps;
  // Removed downlines keep their name for the sales they made.
  const [members, levels] = await Promise.all([network.everyMember(owner), network.levels(owner)]);
  const byChat = new Map(members.map((m) => [m.chat, m.member]));
  const summary = networkSummary(txs, period.from, period.to, (chat) => byChat.get(chat)?.level);
  if (summary.sales === 0 && !members.some((m) => m.active)) return undefined;
  return networkLines(ctx.translate, ctx.lang, summary, byChat, levels.map((l) => l.name)).join("\n");
}

/** The wallet's entries made at or after `since`, newest first (paged back until older). */
async function entriesSince(ctx: BaseContext, chat: number, since: number): Promise<WalletEntry[]> {
  const out: WalletEntry[] = [];
  for (let beforeSeq: number | undefined; ; ) {
    const page = await ctx.deps.wallets.entries(chat, { limit: 500, ...(beforeSeq !== undefined ? { beforeSeq } : {}) });
    out.push(...page.filter((e) => e.at >= since));
    const last = page.at(-1);
    if (!last || last.at < since || last.seq <= 1) return out;
    beforeSeq = last.seq;
  }
}

/** A downline's /laporan: its own sales per period, what it paid from its wallet, its commissions. */
export async function showOwnReport(ctx: BotContext, owner: number): Promise<void> {
  const me = ctx.chat!.id;
  const now = ctx.deps.clock.now();
  const mine = (await reportRecords({ txsOfMonth: (id, m) => ctx.deps.ledger.month(id, m) }, owner, now)).filter((tx) => tx.wallet?.chat === me);
  const periods = reportPeriods(now);
  const from = periods.reduce((d, p) => (p.from < d ? p.from : d), periods[0]!.from);
  const entries = await entriesSince(ctx, me, wibDayStart(from));
  const rows = periods.map((period) => ({ period, own: ownSummary(mine, me, period.from, period.to), commissions: commissionsEarned(entries, period.from, period.to) }));
  const month = rows.find((r) => r.period.name === "month")!;
  if (month.own.sales + month.own.failed === 0 && month.commissions === 0) {
    await ctx.reply(ctx.t("report-own-empty"), { reply_markup: ownReportKeyboard(ctx) });
    return;
  }
  await ctx.reply(moneyText(ctx, ownReportText(ctx.translate, ctx.lang, rows)), { reply_markup: ownReportKeyboard(ctx) });
}

/** A downline's month as CSV: only the records it made, at its price. */
export async function sendOwnExport(ctx: BotContext, owner: number, month: string): Promise<void> {
  const me = ctx.chat!.id;
  const txs = (await ctx.deps.ledger.month(owner, month)).filter((tx) => tx.by === me && isHistory(tx));
  if (txs.length === 0) return void (await ctx.answerCallbackQuery({ text: ctx.t("export-month-empty") }));
  await ctx.answerCallbackQuery();
  const file = new InputFile(ownExportCsv(ctx.translate, ctx.lang, txs), `${ctx.t("file-export")}-${month}.csv`);
  await ctx.replyWithDocument(file, { caption: ctx.t("export-caption", { month: monthLabel(month, ctx.lang), count: txs.length }) });
}
