/**
 * The opt-in daily summary (/laporan button): every day at 21.00 WIB each opted-in, linked, active
 * chat gets the day's figures. At most once per chat and day, across restarts: the day is written
 * on the chat (`summaryDay`) and flushed BEFORE the message goes out, so a crash in between loses
 * that day's summary rather than sending it twice. A start after 21.00 sends the day's summaries
 * still unmarked. Messages go through the shared pacer; a chat that blocked the bot is marked
 * inactive and skipped from then on. Each batch (its marks and sends) runs under the lead's term.
 */
import type { Api } from "grammy";
import type { Clock } from "../tools/clock.js";
import type { Logger } from "../logging/logger.js";
import { addDays, summarize, wibDay, wibDayStart } from "../domain/report.js";
import type { Translate } from "../render/i18n.js";
import { withSandboxBanner } from "../render/money.js";
import { dailySummaryText } from "../render/report.js";
import type { Store } from "../store/index.js";
import { counted, deliver } from "../telegram/delivery.js";
import type { SendPacer } from "../telegram/pacer.js";
import type { LeadFence } from "../cluster/index.js";
import { ScheduledJob } from "./scheduledJob.js";

/** 21.00 WIB: after the evening rush, before the reseller closes the shop. */
export const DAILY_SUMMARY_AT_MS = 21 * 60 * 60 * 1000;
/** Chats marked (and flushed) together before their sends: one disk write per batch, not per chat. */
const BATCH = 25;

export interface DailySummaryOptions {
  store: Store;
  /** An Api WITHOUT auto-retry: the pacer waits out 429s on the clock. */
  api: Api;
  clock: Clock;
  logger: Logger;
  translate: Translate;
  pacer: SendPacer;
  sandbox?: boolean;
  /** The lead's term: a batch is marked and sent only while the term this job started in is current. */
  fence?: LeadFence;
}

export interface DailyRun {
  day: string;
  sent: number;
  blocked: number;
  failed: number;
}

export class DailySummary {
  private readonly job: ScheduledJob;

  constructor(private readonly opts: DailySummaryOptions) {
    this.job = new ScheduledJob(opts.clock, opts.logger, "daily summary", opts.fence, {
      nextAt: (now) => {
        const at = wibDayStart(wibDay(now)) + DAILY_SUMMARY_AT_MS;
        return at > now ? at : wibDayStart(addDays(wibDay(now), 1)) + DAILY_SUMMARY_AT_MS;
      },
      due: (at) => void this.run(wibDay(at)),
      atStart: (now) => {
        const today = wibDay(now);
        if (now >= wibDayStart(today) + DAILY_SUMMARY_AT_MS) void this.run(today);
      },
    });
  }

  /** Sends today's summaries if 21.00 has passed, and schedules the next 21.00. */
  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Resolves when the run in progress (if any) ended (tests). */
  idle(): Promise<void> {
    return this.job.idle();
  }

  /** Sends `day`'s summary to every opted-in chat not yet marked for it. One run at a time. */
  run(day: string): Promise<DailyRun> {
    return this.job.run(() => this.send(day), { day });
  }

  private async send(day: string): Promise<DailyRun> {
    const { store, api, logger, translate: t, pacer } = this.opts;
    const result: DailyRun = { day, sent: 0, blocked: 0, failed: 0 };
    const due = (await store.linkedChats())
      .filter((c) => c.dailySummary && c.summaryDay !== day)
      .map((c) => c.chatId);
    for (let i = 0; i < due.length && !this.job.signal.aborted && !this.job.lead.lost; i += BATCH) {
      const batch: number[] = [];
      const before = new Map<number, string | undefined>();
      for (const id of due.slice(i, i + BATCH)) {
        const c = await store.getChat(id);
        if (!c?.dailySummary || c.inactive || c.summaryDay === day) continue;
        batch.push(id);
        before.set(id, c.summaryDay);
      }
      await this.job.lead.run(async () => {
        for (const id of batch) await store.updateChat(id, { summaryDay: day });
        // The marks are on disk before any of these messages can be.
        await store.flush();
        await Promise.all(batch.map(async (chatId) => {
          const lang = (await store.getChat(chatId))?.lang ?? "id";
          const summary = summarize(await store.txsOfMonth(chatId, day.slice(0, 7)), day, day);
          const text = withSandboxBanner(t, lang, this.opts.sandbox ?? false, dailySummaryText(t, lang, day, summary));
          const r = await deliver(() => api.sendMessage(chatId, text), { pacer, signal: this.job.signal });
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
