/**
 * The opt-in daily summary (/laporan button): every day at 21.00 WIB each opted-in, linked, active
 * chat gets the day's figures. At most once per chat and day, across restarts: the day is written
 * on the chat (`summaryDay`) and flushed BEFORE the message goes out, so a crash in between loses
 * that day's summary rather than sending it twice. A start after 21.00 sends the day's summaries
 * still unmarked. Messages go through the shared pacer; a chat that blocked the bot is marked
 * inactive and skipped from then on. Each batch (its marks and sends) runs under the lead's term.
 */
import { addDays, summarize, wibDay, wibDayStart } from "../domain/report.js";
import { withSandboxBanner } from "../render/sandboxBanner.js";
import { dailySummaryText } from "../render/report.js";
import { counted, deliver } from "../telegram/delivery.js";
import { ScheduledJob, type MessagingJobOptions } from "./scheduledJob.js";

/** 21.00 WIB: after the evening rush, before the reseller closes the shop. */
export const DAILY_SUMMARY_AT_MS = 21 * 60 * 60 * 1000;
/** Chats marked (and flushed) together before their sends: one disk write per batch, not per chat. */
const BATCH = 25;

export type DailySummaryOptions = MessagingJobOptions;

export interface DailyRun {
  day: string;
  sent: number;
  blocked: number;
  failed: number;
}

export class DailySummary extends ScheduledJob {
  constructor(private readonly opts: DailySummaryOptions) {
    super(opts.clock, opts.logger, "daily summary", opts.fence);
  }

  /** Sends `day`'s summary to every opted-in chat not yet marked for it. One run at a time. */
  run(day: string): Promise<DailyRun> {
    return this.serially(() => this.send(day), { day });
  }

  /** The next 21.00 WIB. */
  protected nextAt(now: number): number {
    const at = wibDayStart(wibDay(now)) + DAILY_SUMMARY_AT_MS;
    return at > now ? at : wibDayStart(addDays(wibDay(now), 1)) + DAILY_SUMMARY_AT_MS;
  }

  protected due(at: number): void {
    void this.run(wibDay(at));
  }

  /** A start after 21.00 sends the day's summaries still unsent. */
  protected atStart(now: number): void {
    const today = wibDay(now);
    if (now >= wibDayStart(today) + DAILY_SUMMARY_AT_MS) void this.run(today);
  }

  private async send(day: string): Promise<DailyRun> {
    const { store, api, logger, translate: t, pacer } = this.opts;
    const result: DailyRun = { day, sent: 0, blocked: 0, failed: 0 };
    const due = (await store.linkedChats())
      .filter((c) => c.dailySummary && c.summaryDay !== day)
      .map((c) => c.chatId);
    for (let i = 0; i < due.length && !this.signal.aborted && !this.lead.lost; i += BATCH) {
      const batch: number[] = [];
      const before = new Map<number, string | undefined>();
      for (const id of due.slice(i, i + BATCH)) {
        const c = await store.getChat(id);
        if (!c?.dailySummary || c.inactive || c.summaryDay === day) continue;
        batch.push(id);
        before.set(id, c.summaryDay);
      }
      await this.lead.run(async () => {
        for (const id of batch) await store.updateChat(id, { summaryDay: day });
        // The marks are on disk before any of these messages can be.
        await store.flush();
        await Promise.all(batch.map(async (chatId) => {
          const lang = (await store.getChat(chatId))?.lang ?? "id";
          const summary = summarize(await store.txsOfMonth(chatId, day.slice(0, 7)), day, day);
          const text = withSandboxBanner(t, lang, this.opts.sandbox ?? false, dailySummaryText(t, lang, day, summary));
          const r = await deliver(() => api.sendMessage(chatId, text), { pacer, signal: this.signal });
          const outcome = counted(r);
          if (outcome === "sent") result.sent++;
          else if (outcome === "blocked") {
            result.blocked++;
            await store.updateChat(chatId, { inactive: true });
          } else if (outcome === "stopped") {
            // Nothing went out (stopping): the next start sends it, if still the same day.
            await store.updateChat(chatId, { summaryDay: before.get(chatId) });
          } else {
            result.failed++;
            logger.warn({ chatId, err: "error" in r ? r.error : undefined }, "daily summary not delivered");
          }
        }));
      });
    }
    if (due.length > 0) logger.info(result, "daily summaries sent");
    return result;
  }
}
