/**
 * What only the leading bot process runs (cluster/shared.ts Leadership): the deposit instructions a
 * restart left unsent, balance alerts, an unfinished broadcast, long polling, the status watcher,
 * relink notices, the daily summary and the H2H callbacks. lead() starts them, lose() stops them at once when another
 * process may lead (the store stays open; users' own /status checks still run here). Long polling
 * alone goes on while the database cannot be reached (LeadLost.keepUpdates): no process can lead
 * then, and stopping it would leave every update unanswered until the database is back.
 * wireHints() carries what a standby hears to the leader's watcher.
 */
import type { RunnerHandle } from "@grammyjs/runner";
import type { Bot, Context } from "grammy";
import type { TxEvents } from "../domain/events.js";
import type { Clock, TimerHandle } from "../tools/clock.js";
import type { Logger } from "../logging/logger.js";
import type { LeadFence, LeadLost, Shared } from "../cluster/shared.js";
import type { Store } from "../store/index.js";
import { startPolling, type PollingOptions } from "../telegram/polling.js";
import type { BalanceAlerts } from "./alerts.js";
import type { Broadcaster } from "./broadcast.js";
import type { DailySummary } from "./dailySummary.js";
import type { PriceDigest } from "./priceDigest.js";
import type { RelinkNotices } from "./relink.js";
import type { StatusWatcher } from "./watcher/watcher.js";
import type { H2hCallbackSender } from "./h2hCallbacks/sender.js";

/** The part of the status watcher /status uses (wireHints hands it to the bot: BotDeps.statusChecker). */
export type StatusChecker = Pick<StatusWatcher, "checkNow" | "chatBack">;

/** How often the leader looks for a broadcast another process saved (in case its hint was lost). */
export const BROADCAST_LOOK_MS = 10_000;

export interface LeaderParts<C extends Context> {
  clock: Clock;
  logger: Logger;
  bot: Bot<C>;
  /** Long polling options; undefined in webhook mode (every process serves the webhook). */
  polling: PollingOptions | undefined;
  recover: () => Promise<void>;
  alerts: BalanceAlerts;
  broadcaster: Broadcaster;
  watcher: StatusWatcher;
  relink: RelinkNotices;
  dailySummary: DailySummary;
  priceDigest?: PriceDigest;
  /** The H2H callbacks' sender (jobs/h2hCallbacks/sender.ts): one process sends them. */
  h2hCallbacks?: Pick<H2hCallbackSender, "start" | "stop">;
  /** The app is stopping: start nothing more. */
  stopping: () => boolean;
  /** Polling ended on its own for good (401). */
  pollingFailed: (err: Error) => void;
  /** The lead's term: each part starts only while the term this lead began in is current. */
  fence?: LeadFence;
}

export class LeaderWork<C extends Context> {
  /** The long polling runner while this process leads (polling mode). */
  runner: RunnerHandle | undefined;
  private look: TimerHandle | undefined;

  constructor(private readonly p: LeaderParts<C>) {}

  /**
   * Moves on at every lead() and lose(): a start that sees it moved stops starting (the lose() queued
   * behind it stops what it did start). Transitions run one after another, so a lose() still waiting
   * on the watcher cannot stop parts of the lead that came back meanwhile.
   */
  private generation = 0;
  private transition: Promise<void> = Promise.resolve();

  private serially(step: () => Promise<void>): Promise<void> {
    const run = this.transition.then(step);
    this.transition = run.catch(() => undefined);
    return run;
  }

  readonly lead = (): Promise<void> => {
    const gen = ++this.generation;
    return this.serially(() => this.start(gen));
  };

  private async start(gen: number): Promise<void> {
    const p = this.p;
    const term = p.fence?.term();
    const current = () => gen === this.generation && !p.stopping();
    // The lock may be gone before this process hears of it: the term in the shared database says.
    const termCurrent = async () => current() && (term === undefined || !p.fence || await p.fence.fenced(term, async () => {}));
    if (!(await termCurrent())) return;
    await p.recover();
    if (!(await termCurrent())) return;
    p.alerts.start();
    if (await p.broadcaster.resume()) p.logger.info("resumed an unfinished broadcast");
    if (!(await termCurrent())) return;
    // Polling kept through a lead lost while the database was away goes on as it is.
    if (p.polling && !this.runner?.isRunning()) {
      const runner = startPolling(p.bot, p.polling);
      this.runner = runner;
      // Polling only ends on its own when it cannot go on (401).
      void runner.task()?.catch((err: unknown) => p.pollingFailed(err instanceof Error ? err : new Error(String(err))));
      p.logger.info({ username: p.bot.botInfo.username }, "bot is polling for updates");
    }
    await p.watcher.start();
    if (!(await termCurrent())) return;
    p.relink.start();
    p.dailySummary.start();
    p.priceDigest?.start();
    p.h2hCallbacks?.start();
    this.lookForBroadcasts();
  }

  /** A broadcast started on another process is delivered here (resume() is a no-op otherwise). */
  private lookForBroadcasts(): void {
    this.look?.cancel();
    this.look = this.p.clock.setTimeout(() => {
      if (this.p.stopping()) return;
      void this.p.broadcaster.resume().catch((err: unknown) => this.p.logger.error({ err }, "could not resume a broadcast"));
      this.lookForBroadcasts();
    }, BROADCAST_LOOK_MS);
  }

  readonly lose = (how?: LeadLost): Promise<void> => {
    ++this.generation;
    return this.serially(() => this.stop(how?.keepUpdates === true));
  };

  private async stop(keepUpdates: boolean): Promise<void> {
    const p = this.p;
    this.look?.cancel();
    this.look = undefined;
    // The broadcast first: the new leader resumes it from the stored state, so every message sent
    // here after the lock is gone may reach a chat twice.
    const runner = this.runner?.isRunning() && !keepUpdates ? this.runner.stop() : undefined;
    if (keepUpdates && this.runner?.isRunning()) p.logger.warn("the database cannot be reached: polling goes on here until another process may lead");
    await Promise.all([p.broadcaster.stop(), runner, p.watcher.pause()]);
    await Promise.all([p.relink.stop(), p.dailySummary.stop(), p.priceDigest?.stop(), p.alerts.stop(), p.h2hCallbacks?.stop()]);
  }
}

/**
 * Hints between processes (only hints: the leader's watcher also rescans the store). A standby
 * tells the leader of a purchase (its watcher and the balance alert check), a provider callback and
 * a chat that came back; the leader's own events reach its watcher directly. Returns what the bot
 * and the callback route call.
 */
export function wireHints(
  shared: Shared,
  events: TxEvents,
  parts: {
    watcher: StatusWatcher;
    alerts: Pick<BalanceAlerts, "afterCreate">;
    store: Pick<Store, "getTx">;
    broadcaster: Pick<Broadcaster, "resume">;
  },
): { statusChecker: StatusChecker; hurry: (refId: string, signed?: boolean) => Promise<boolean> } {
  const { watcher, alerts, store, broadcaster } = parts;
  const leadership = shared.leadership();
  events.on("created", (tx) => {
    if (leadership.isLeader()) void alerts.afterCreate(tx); // balance alerts are the leader's work (never rejects)
    else shared.notify("track", tx.refId);
  });
  shared.on("track", (refId) => {
    void (async () => {
      await watcher.adopt(refId);
      const tx = await store.getTx(refId);
      if (tx && leadership.isLeader()) await alerts.afterCreate(tx);
    })().catch(() => undefined); // a hint only: the leader's rescan finds the transaction anyway
  });
  shared.on("hurry", (refId) => void watcher.hurry(refId));
  shared.on("broadcast", () => {
    if (leadership.isLeader()) void broadcaster.resume();
  });
  shared.on("chatBack", (chatId) => {
    if (leadership.isLeader()) watcher.chatBack(Number(chatId));
  });
  return {
    statusChecker: {
      checkNow: (refId, mode) => watcher.checkNow(refId, mode),
      chatBack: (chatId) => (leadership.isLeader() ? watcher.chatBack(chatId) : shared.notify("chatBack", String(chatId))),
    },
    // A hint to the leader is an ordinary hurry (the hint carries the id only).
    hurry: async (refId, signed) => (leadership.isLeader() ? watcher.hurry(refId, signed) : (shared.notify("hurry", refId), true)),
  };
}
