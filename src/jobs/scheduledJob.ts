/**
 * The timing every leader-only clock job shares (the daily summary, the price digest): started and
 * stopped with the lead (a start after a stop begins afresh under the new term), one run at a time,
 * the next due time from the job's own rule on the injected clock. A job extends it and says when
 * it is due and what a run does.
 */
import type { Api } from "grammy";
import type { Clock, TimerHandle } from "../tools/clock.js";
import type { Logger } from "../logging/logger.js";
import type { LeadFence } from "../cluster/index.js";
import type { Translate } from "../render/i18n.js";
import type { Store } from "../store/index.js";
import type { SendPacer } from "../telegram/pacer.js";
import { LeaderTerm } from "./leaderTerm.js";

/** What a scheduled job that writes to chats is built with. */
export interface MessagingJobOptions {
  store: Store;
  /** An Api WITHOUT auto-retry: the pacer waits out 429s on the clock. */
  api: Api;
  clock: Clock;
  logger: Logger;
  translate: Translate;
  pacer: SendPacer;
  sandbox?: boolean;
  /** The lead's term: the job writes and sends only while the term it started in is current. */
  fence?: LeadFence;
}

export abstract class ScheduledJob {
  private timer: TimerHandle | undefined;
  private running: Promise<unknown> | undefined;
  private abort = new AbortController();
  /** The lead's term the job started in: its writes and sends run under it. */
  protected readonly lead: LeaderTerm;

  /** `name` names the job in its log lines. */
  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly name: string,
    fence: LeadFence | undefined,
  ) {
    this.lead = new LeaderTerm(fence, logger, name);
  }

  /** The next due time, later than `now`. */
  protected abstract nextAt(now: number): number;
  /** A due time came: start its run (through `serially`). */
  protected abstract due(at: number): void;
  /** Just started: start what is already due (a start after the day's time catches up). */
  protected abstract atStart(now: number): void;

  /** Aborted by stop(): a run in progress stops between chats, a paced send gives up its wait. */
  protected get signal(): AbortSignal {
    return this.abort.signal;
  }

  start(): void {
    // Started again after stop(): this process leads again (another one led meanwhile).
    if (this.abort.signal.aborted) {
      this.abort = new AbortController();
      this.timer = undefined;
    }
    if (this.timer) return;
    this.lead.begin();
    this.atStart(this.clock.now());
    this.schedule();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.timer?.cancel();
    await this.running?.catch(() => undefined);
  }

  /** Resolves when no run is in progress (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  /** Runs `work` after the run in progress (if any); a failure is logged with `about`. */
  protected serially<T>(work: () => Promise<T>, about: Record<string, unknown> = {}): Promise<T> {
    const previous = this.running ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.running = next;
    void next
      .catch((err: unknown) => this.logger.error({ err, ...about }, `${this.name} run failed`))
      .finally(() => {
        if (this.running === next) this.running = undefined;
      });
    return next;
  }

  private schedule(): void {
    if (this.abort.signal.aborted) return;
    const now = this.clock.now();
    const at = this.nextAt(now);
    this.timer = this.clock.setTimeout(() => {
      this.due(at);
      this.schedule();
    }, at - now);
  }
}
