/**
 * The timing every leader-only clock job shares (the daily summary, the price digest): started and
 * stopped with the lead (a start after a stop begins afresh under the new term), one run at a time,
 * the next due time from the job's own rule on the injected clock. The job says what a run does.
 */
import type { Clock, TimerHandle } from "../tools/clock.js";
import type { Logger } from "../logging/logger.js";
import type { LeadFence } from "../cluster/index.js";
import { LeaderTerm } from "./leaderTerm.js";

export interface JobTiming {
  /** The next due time, later than `now`. */
  nextAt(now: number): number;
  /** A due time came: start its run (through `ScheduledJob.run`). */
  due(at: number): void;
  /** Just started: start what is already due (a start after the day's time catches up). */
  atStart(now: number): void;
}

export class ScheduledJob {
  private timer: TimerHandle | undefined;
  private running: Promise<unknown> | undefined;
  private abort = new AbortController();
  /** The lead's term the job started in: its writes and sends run under it. */
  readonly lead: LeaderTerm;

  /** `name` names the job in its log lines. */
  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly name: string,
    fence: LeadFence | undefined,
    private readonly timing: JobTiming,
  ) {
    this.lead = new LeaderTerm(fence, logger, name);
  }

  /** Aborted by stop(): a run in progress stops between chats, a paced send gives up its wait. */
  get signal(): AbortSignal {
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
    this.timing.atStart(this.clock.now());
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
  run<T>(work: () => Promise<T>, about: Record<string, unknown> = {}): Promise<T> {
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
    const at = this.timing.nextAt(now);
    this.timer = this.clock.setTimeout(() => {
      this.timing.due(at);
      this.schedule();
    }, at - now);
  }
}
