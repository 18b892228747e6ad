/**
 * The status watcher: polls every open transaction (pending, processing, unknown, sending) at the
 * provider until it ends, and tells its chat once about each change that matters. What a check
 * decides (the change, the notice, the next due time, giving up) is decide.ts; this class is the
 * watcher's public face over its parts, which share one state (watchState.ts).
 *
 * Scheduling. Each open transaction has one due time (dueTimes.ts). `watch.nextCheckAt`/`attempts`
 * are saved with the transaction, so a restart resumes where it was (overdue checks run at once):
 * the scan at start and the periodic rescan are rescan.ts; due ids go to their lanes in dueQueue.ts.
 *
 * Calls. Due transactions go to a queue per api key (lanes.ts), taking turns, with at most
 * `concurrency` calls overall, `perKeyConcurrency` per key and `perKeyPerSecond` started per key
 * (limiter.ts); the lookups in flight are lookups.ts, and applying what one decided applyDecision.ts.
 * A key whose calls fail pauses on its own with growing waits; other keys go on. `hurry()` (a provider
 * callback) puts an id first in its lane; `checkNow()` (/status) runs at once and its caller shows the
 * answer. Exactly-once notices: announce.ts; notices a blocked chat missed: owed.ts (sent by
 * `chatBack()`); notices that met Telegram failing: one probes, the rest go when one gets through
 * (telegramGate.ts); all three through noticeDelivery.ts.
 *
 * Chats without a readable api key are not polled: their transactions are parked and looked at again
 * every `maxIntervalMs`. Only the leading process's watcher runs; the other is paused (its users' own
 * checks still run) and hints the leader (`adopt`); the open transactions are rescanned every
 * `rescanMs`, so an id whose hint was lost is picked up anyway.
 */
import { OPEN_STATUSES, type TxRecord } from "../../store/index.js";
import { trackedDue, usesCallbacks } from "./decide.js";
import { watchOf, type AnnounceMode } from "./announce.js";
import type { WatcherOptions } from "./watcherOptions.js";
import { WatcherCore, type CheckOutcome, type WatcherDeps } from "./watchState.js";
import { DueQueue } from "./dueQueue.js";
import { Lookups } from "./lookups.js";
import { NoticeDelivery } from "./noticeDelivery.js";
import { Rescan } from "./rescan.js";

export { DEFAULT_WATCHER_OPTIONS, type WatcherOptions } from "./watcherOptions.js";
export type { CheckOutcome, WatcherDeps } from "./watchState.js";

export class StatusWatcher {
  readonly options: WatcherOptions;
  private readonly core: WatcherCore;
  private readonly queue: DueQueue;
  private readonly lookups: Lookups;
  private readonly notices: NoticeDelivery;
  private readonly rescan: Rescan;

  constructor(deps: WatcherDeps) {
    this.core = new WatcherCore(deps, {
      tick: (now) => this.queue.tick(now),
      launch: (lane, refId, signalled) => this.lookups.launch(lane, refId, signalled),
    });
    this.options = this.core.options;
    this.notices = new NoticeDelivery(this.core);
    this.queue = new DueQueue(this.core);
    // Through this.hurry: a hurry() wrapped from outside (bench/watcher.ts) sees these too.
    this.lookups = new Lookups(this.core, this.notices, (refId, signed) => this.hurry(refId, signed));
    this.rescan = new Rescan(this.core);
  }

  /**
   * Schedules every open transaction from the store (resuming saved due times) and starts; also
   * after pause() (this process leads again).
   */
  start(): Promise<void> {
    return this.rescan.start();
  }

  /**
   * Another process leads now: background checks stop (the ids are rescheduled from the store by
   * the next start()); checkNow() and track() still work for the users this process serves.
   */
  async pause(): Promise<void> {
    const core = this.core;
    if (core.stopped) return;
    core.paused = true;
    if (!core.started) return; // a process that starts as the standby
    core.started = false;
    core.due.stop();
    core.due.clear();
    core.laneKeys.clear();
    core.lastRead.clear();
    this.rescan.cancel();
    const dropped: Promise<void>[] = [];
    core.lanes.clear((id) => {
      core.queued.delete(id);
      core.hurried.delete(id);
      dropped.push(core.settleWaiters(id));
    });
    await Promise.all(dropped);
    await core.whenIdle();
  }

  /** Stops scheduling and waits for the checks in flight (their store writes included). */
  async stop(): Promise<void> {
    const core = this.core;
    core.stopped = true;
    core.due.stop();
    this.rescan.cancel();
    core.lanes.cancelWakes();
    await core.whenIdle();
    await Promise.all([...core.waiters.keys()].map((ref) => core.settleWaiters(ref)));
  }

  /**
   * Watches an open transaction this watcher does not have yet (a hint from another process, or
   * the rescan): at its saved due time, or when it would be after a restart. Idempotent.
   */
  adopt(refId: string): Promise<void> {
    return this.rescan.adopt(refId);
  }

  /** A create answered (the `created` transaction event). Open ones get their first check soon. */
  track(tx: TxRecord): void {
    this.core.inBackground(this.trackNow(tx));
  }

  private async trackNow(tx: TxRecord): Promise<void> {
    const core = this.core;
    try {
      if (core.stopped || !OPEN_STATUSES.has(tx.status)) return;
      const current = await core.deps.store.getTx(tx.refId);
      if (!current || !OPEN_STATUSES.has(current.status)) return;
      const now = core.deps.clock.now();
      const chat = usesCallbacks(current) ? await core.deps.store.getChat(current.chatId) : undefined;
      const at = trackedDue(current, now, core.options, core.callbacksLastAt(current, chat));
      // The engine has just shown this status (receipt or "outcome unknown"): it counts as told.
      // Written only if the watch state is still as read: a watcher elsewhere (the leader) may be
      // sending a notice right now, and its "announcing" mark must survive (announce.ts).
      const claim = watchOf(current).claim;
      await core.deps.store.transitionTx(
        tx.refId,
        [current.status],
        { watch: { nextCheckAt: at, attempts: 0, notified: current.status, ...(claim !== undefined ? { claim } : {}) } },
        (c) => !watchOf(c).announcing && watchOf(c).claim === claim,
      );
      // Standing by: the leader's watcher schedules it (app.ts sends it the hint). A check already
      // queued, or due sooner (a callback's check that failed came first), keeps its time.
      const due = core.due.at(tx.refId);
      if (!core.paused && !core.queued.has(tx.refId) && (due === undefined || due > at)) core.schedule(tx.refId, at);
    } catch (err) {
      // A hook must not break the confirm handler; the next start() picks the record up anyway.
      core.deps.logger.error({ err, refId: tx.refId }, "watcher could not track a transaction");
    }
  }

  /**
   * A user's own check (/status, the "check status" button): runs at once, ahead of the queue and
   * of the key's pause (it still counts toward the per-key rate), also for a given-up id. Resolves
   * with what it learned; undefined for an unknown id.
   */
  async checkNow(refId: string, mode: AnnounceMode = {}): Promise<CheckOutcome | undefined> {
    const core = this.core;
    // Read first; what follows runs in one turn, so nothing else changes the queues meanwhile.
    const tx = await core.deps.store.getTx(refId);
    if (!tx) return undefined;
    const apiKey = OPEN_STATUSES.has(tx.status) ? await core.pollableKey(tx.chatId) : undefined;
    return new Promise((resolve) => {
      const list = core.waiters.get(refId) ?? [];
      list.push(resolve);
      core.waiters.set(refId, list);
      if (core.stopped) return void core.settleWaiters(refId);
      if (core.checking.has(refId)) return; // the check in flight answers
      core.forced.set(refId, mode);
      if (core.queued.has(refId)) {
        core.lanes.remove(refId);
        core.queued.delete(refId);
      }
      core.due.delete(refId); // its heap entry goes stale; the check reschedules it
      if (apiKey === undefined) {
        core.forced.delete(refId);
        if (OPEN_STATUSES.has(tx.status)) core.park(tx);
        return void core.settleWaiters(refId);
      }
      const lane = core.lanes.laneOf(apiKey);
      core.lanes.takeRate(lane, core.deps.clock.now());
      core.queued.add(refId);
      core.laneKeys.set(refId, apiKey);
      this.lookups.launch(lane, refId);
    });
  }

  /**
   * A provider callback says `refId` changed: its next check runs first in its key's lane, under
   * the same per-key rate and concurrency as every poll (a flood of callbacks cannot exceed them),
   * also for a given-up id. `signed`: the callback's signature verified (the provider's own traffic):
   * checked at once, at most `callbackChecksPerKey` at a time per key instead of under the rate (one
   * check per open id however many callbacks name it). False when there is nothing to check.
   */
  hurry(refId: string, signed = false): Promise<boolean> {
    return this.queue.hurry(refId, signed);
  }

  /** Resolves once no check is running (tests step the clock with this). */
  whenIdle(): Promise<void> {
    return this.core.whenIdle();
  }

  /** The earliest time something is scheduled (a due check or a lane waking), if any. */
  nextWakeAt(): number | undefined {
    const core = this.core;
    if (core.paused) return undefined; // due times collect, but nothing runs them
    const first = core.due.nextAt();
    const times = first === undefined ? [] : [first];
    times.push(...core.lanes.wakeTimes());
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /** Numbers for logs and tests. */
  stats(): { scheduled: number; queued: number; inflight: number; lanes: number } {
    const core = this.core;
    return { scheduled: core.due.size, queued: core.queued.size, inflight: core.lanes.inflight, lanes: core.lanes.size };
  }

  /**
   * The chat is back (it wrote, or unblocked the bot): sends the notices it missed, newest
   * transactions first, one each. Runs in the background; whenIdle() waits for it.
   */
  chatBack(chatId: number): void {
    this.notices.chatBack(chatId);
  }
}
