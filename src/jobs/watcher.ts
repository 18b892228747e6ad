/**
 * The status watcher: polls every open transaction (pending, processing, unknown, sending) at the
 * provider until it ends, and tells its chat once about each change that matters. What a check
 * decides (the change, the notice, the next due time, giving up) is decide.ts; this class keeps the
 * queues and applies the decisions.
 *
 * Over 350 lines because scheduling (due times -> lanes -> calls) and the check that reschedules share
 * one state (queued, in flight, forced, hurried, waiters) whose invariant (an id scheduled, queued or in
 * flight, never two at once) must hold across all of them; split further, each half would reach into the other.
 *
 * Scheduling. Each open transaction has one due time (dueTimes.ts). `watch.nextCheckAt`/`attempts`
 * are saved with the transaction, so a restart resumes where it was (overdue checks run at once).
 *
 * Calls. Due transactions go to a queue per api key (lanes.ts), taking turns, with at most
 * `concurrency` calls overall, `perKeyConcurrency` per key and `perKeyPerSecond` started per key
 * (limiter.ts). A key whose calls fail pauses on its own with growing waits; other keys go on. The
 * provider's errors never escape a check. `hurry()` (a provider callback) puts an id first in its
 * lane; `checkNow()` (/status) runs at once and its caller shows the answer. Exactly-once notices:
 * announce.ts; notices a blocked chat missed: owed.ts (sent by `chatBack()`); notices that met Telegram
 * failing: one probes, the rest go when one gets through (telegramGate.ts).
 *
 * Chats without a readable api key are not polled: their transactions are parked and looked at again
 * every `maxIntervalMs`. Only the leading process's watcher runs; the other is paused (its users' own
 * checks still run) and hints the leader (`adopt`); the open transactions are rescanned every
 * `rescanMs`, so an id whose hint was lost is picked up anyway.
 */
import type { InlineKeyboardMarkup } from "grammy/types";
import type { Translate } from "../render/i18n.js";
import type { Clock, TimerHandle } from "../tools/clock.js";
import type { Logger } from "../logging/logger.js";
import type { Store } from "../store/index.js";
import type { LeadFence } from "../cluster/index.js";
import { OPEN_STATUSES, type ChatRecord, type Lang, type TxRecord } from "../store/index.js";
import { adoptDue, deadline, decideChange, decideNext, parkDecision, retryNotice, shouldCheck, trackedDue, usesCallbacks } from "./decide.js";
import { Notifier, type MessageApi, type NoticeKind } from "./notify.js";
import type { Pacer } from "../telegram/pacer.js";
import { lookupTx, type Lookup, type StatusApi } from "../domain/refresh.js";
import { DueTimes } from "./dueTimes.js";
import { NoticeProtocol, watchOf, type AnnounceMode } from "./announce.js";
import { sendOwed } from "./owed.js";
import { Lanes, type Lane } from "./lanes.js";
import { DEFAULT_WATCHER_OPTIONS, HOUR, MINUTE, type WatcherOptions } from "./watcherOptions.js";
import { noticeChatOf } from "./recipients.js";
import { TelegramGate } from "./telegramGate.js";

export { DEFAULT_WATCHER_OPTIONS, type WatcherOptions } from "./watcherOptions.js";

/** What a check on demand learned: the record as it is now, and the provider's answer. */
export interface CheckOutcome {
  tx: Readonly<TxRecord>;
  lookup?: Lookup;
}

export interface WatcherDeps {
  store: Store;
  upstream: StatusApi;
  api: MessageApi;
  clock: Clock;
  logger: Logger;
  translate: Translate;
  options?: Partial<WatcherOptions>;
  /** Buttons under a paid deposit waiting for settlement (default: a "check status" button). */
  processingMarkup?: (lang: Lang, tx: TxRecord) => InlineKeyboardMarkup | undefined;
  /** Shared pacing of background messages (429s pause every sender). */
  pacer?: Pacer;
  /** A notice went out: its kind and the seconds from the check that saw the change (metrics). */
  onNotice?: (kind: NoticeKind, seconds: number) => void;
  /** The lead's term: background checks and owed notices write only while the term they started in is current. */
  fence?: LeadFence;
  /** Transactions another job tells its chats about (shop orders): their changes are saved, not announced. */
  toldElsewhere?: (tx: TxRecord) => boolean;
  /** A check saved a change (the shop orders' listener: the order takes its next step). */
  onChanged?: (tx: Readonly<TxRecord>) => void;
}

export class StatusWatcher {
  readonly options: WatcherOptions;
  private readonly notifier: Notifier;
  private readonly due: DueTimes;
  private readonly lanes: Lanes;
  /** Waiting in a lane or being checked. */
  private readonly queued = new Set<string>();
  /** Being checked right now. */
  private readonly checking = new Set<string>();
  /** checkNow: check even if given up, shown how its caller asked. */
  private readonly forced = new Map<string, AnnounceMode>();
  /** hurry(): checked even if given up. */
  private readonly hurried = new Set<string>();
  /** hurry() while its check ran (it may have asked before the change): check once more after it (true: a signed callback's). */
  private readonly again = new Map<string, boolean>();
  /** What the last check of an id with waiters learned (handed to them). */
  private readonly outcomes = new Map<string, Lookup>();
  private readonly waiters = new Map<string, ((outcome: CheckOutcome | undefined) => void)[]>();
  private readonly protocol: NoticeProtocol;
  private readonly running = new Set<Promise<void>>();
  /**
   * The key each watched id was last queued with: its next due time queues it in that lane without
   * reading the store (the check reads the record and the chat anyway, and sends an id whose key
   * changed back to be queued afresh).
   */
  private readonly laneKeys = new Map<string, string>();
  /**
   * The record as the last check of each watched id read it (with the watch state it saved): the next
   * background check starts its status call from it. Only the leader writes watch state, and apply()
   * reads the record again before it writes anything, so a change made elsewhere meanwhile costs at
   * most one status call; a user's or a callback's check reads the store afresh.
   */
  private readonly lastRead = new Map<string, TxRecord>();
  /** Due ids taken from the schedule whose record is being read before they are queued (tick). */
  private readonly placing = new Set<string>();
  private started = false;
  /**
   * When this watcher was made, before any update could be handled (clock time): a "sending" record older
   * than that lost its create call with the process before (sendingLostAtStart). Not start(): in webhook
   * mode updates are handled before the watcher starts.
   */
  private readonly madeAt: number;
  private stopped = false;
  private lastPrune = 0;
  /** Another process leads: no background checks here (pause()). */
  private paused = false;
  private rescanTimer: TimerHandle | undefined;
  /** The lead's term at start(): background writes are fenced with it. */
  private term: number | undefined;
  /** Open ids parked past their deadline: not polled again (the rescan must not revive them). */
  private readonly dropped = new Set<string>();
  /** Notices waiting for Telegram to answer again: one probes, the rest go when one gets through. */
  private readonly telegram: TelegramGate;
  /** Chats whose owed notices met a Telegram failure: sent again when a notice gets through (or later). */
  private readonly owedWaiting = new Set<number>();

  constructor(private readonly deps: WatcherDeps) {
    this.options = { ...DEFAULT_WATCHER_OPTIONS, ...deps.options };
    this.lanes = new Lanes(deps.clock, this.options, (lane, refId, signalled) => this.launch(lane, refId, signalled), () => this.stopped);
    this.notifier = new Notifier(deps.api, deps.translate, {
      sandbox: this.options.sandbox,
      maxAgeHours: (tx) => Math.round((deadline(tx, this.options) - tx.createdAt) / HOUR),
      ...(deps.processingMarkup ? { processingMarkup: deps.processingMarkup } : {}),
      ...(deps.pacer ? { pacer: deps.pacer } : {}),
    });
    this.telegram = new TelegramGate(this.options.telegramProbe);
    this.protocol = new NoticeProtocol(deps.store, this.notifier, deps.logger, deps.clock, deps.onNotice, () => this.telegramAnswered());
    // The store is read before a due id is queued: whenIdle() waits for that too.
    this.due = new DueTimes(deps.clock, (now) => this.inBackground(this.tick(now)));
    this.madeAt = deps.clock.now();
  }

  /**
   * Schedules every open transaction from the store (resuming saved due times) and starts; also
   * after pause() (this process leads again).
   */
  async start(): Promise<void> {
    if (this.started || this.stopped) return;
    this.started = true;
    this.paused = false;
    this.term = this.deps.fence?.term();
    const now = this.deps.clock.now();
    const callbacksOn = new Map<number, boolean>();
    for (const tx of await this.deps.store.openTxs()) {
      // Callbacks the provider sent while no process here listened are lost: an id paced by them
      // is checked now, not at its slow pace (minutes later).
      const lostCallbacks = usesCallbacks(tx) && (await this.callbacksWork(tx.chatId, now, callbacksOn));
      this.adoptTx(tx, false, lostCallbacks ? now : undefined);
    }
    this.due.start();
    this.scheduleRescan();
  }

  /**
   * Another process leads now: background checks stop (the ids are rescheduled from the store by
   * the next start()); checkNow() and track() still work for the users this process serves.
   */
  async pause(): Promise<void> {
    if (this.stopped) return;
    this.paused = true;
    if (!this.started) return; // a process that starts as the standby
    this.started = false;
    this.due.stop();
    this.due.clear();
    this.laneKeys.clear();
    this.lastRead.clear();
    this.rescanTimer?.cancel();
    const dropped: Promise<void>[] = [];
    this.lanes.clear((id) => {
      this.queued.delete(id);
      this.hurried.delete(id);
      dropped.push(this.settleWaiters(id));
    });
    await Promise.all(dropped);
    await this.whenIdle();
  }

  /** Stops scheduling and waits for the checks in flight (their store writes included). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.due.stop();
    this.rescanTimer?.cancel();
    this.lanes.cancelWakes();
    await this.whenIdle();
    await Promise.all([...this.waiters.keys()].map((ref) => this.settleWaiters(ref)));
  }

  /**
   * Watches an open transaction this watcher does not have yet (a hint from another process, or
   * the rescan): at its saved due time, or when it would be after a restart. Idempotent.
   */
  async adopt(refId: string): Promise<void> {
    if (!this.started || this.stopped) return;
    const tx = await this.deps.store.getTx(refId);
    if (!this.started || this.stopped) return;
    if (tx && OPEN_STATUSES.has(tx.status)) {
      this.adoptTx(tx, true);
      this.due.armNext();
    }
  }

  /**
   * Schedules `tx` if it is not. A scheduled id keeps its time: a young id's saved due time lags
   * behind the real one (see apply). Only a hint (`sooner`), sent right after the other process
   * saved the first due time, may bring it forward (the rescan may have seen it still "sending").
   * `notAfter`: due no later than this (a start, for an id its chat's callbacks pace).
   */
  private adoptTx(tx: TxRecord, sooner = false, notAfter?: number): void {
    const saved = adoptDue(tx, this.deps.clock.now(), this.options, this.madeAt);
    const at = saved === undefined || notAfter === undefined ? saved : Math.min(saved, notAfter);
    if (at === undefined || this.queued.has(tx.refId) || this.placing.has(tx.refId) || this.dropped.has(tx.refId)) return;
    const due = this.due.at(tx.refId);
    if (due !== undefined && (!sooner || due <= at)) return;
    this.schedule(tx.refId, at);
  }

  private scheduleRescan(): void {
    if (this.options.rescanMs <= 0 || !this.started || this.stopped) return;
    this.rescanTimer?.cancel();
    this.rescanTimer = this.deps.clock.setTimeout(() => {
      const run = (async () => {
        if (!this.started || this.stopped) return;
        for (const tx of await this.deps.store.openTxs()) this.adoptTx(tx);
        this.due.armNext();
      })()
        .catch((err: unknown) => this.deps.logger.error({ err }, "watcher could not rescan the open transactions"))
        .finally(() => this.scheduleRescan());
      this.running.add(run);
      void run.finally(() => this.running.delete(run));
    }, this.options.rescanMs);
  }

  /** A create answered (the `created` transaction event). Open ones get their first check soon. */
  track(tx: TxRecord): void {
    this.inBackground(this.trackNow(tx));
  }

  private async trackNow(tx: TxRecord): Promise<void> {
    try {
      if (this.stopped || !OPEN_STATUSES.has(tx.status)) return;
      const current = await this.deps.store.getTx(tx.refId);
      if (!current || !OPEN_STATUSES.has(current.status)) return;
      const now = this.deps.clock.now();
      const chat = usesCallbacks(current) ? await this.deps.store.getChat(current.chatId) : undefined;
      const at = trackedDue(current, now, this.options, this.callbacksLastAt(current, chat));
      // The engine has just shown this status (receipt or "outcome unknown"): it counts as told.
      // Written only if the watch state is still as read: a watcher elsewhere (the leader) may be
      // sending a notice right now, and its "announcing" mark must survive (announce.ts).
      const claim = watchOf(current).claim;
      await this.deps.store.transitionTx(
        tx.refId,
        [current.status],
        { watch: { nextCheckAt: at, attempts: 0, notified: current.status, ...(claim !== undefined ? { claim } : {}) } },
        (c) => !watchOf(c).announcing && watchOf(c).claim === claim,
      );
      // Standing by: the leader's watcher schedules it (app.ts sends it the hint). A check already
      // queued, or due sooner (a callback's check that failed came first), keeps its time.
      const due = this.due.at(tx.refId);
      if (!this.paused && !this.queued.has(tx.refId) && (due === undefined || due > at)) this.schedule(tx.refId, at);
    } catch (err) {
      // A hook must not break the confirm handler; the next start() picks the record up anyway.
      this.deps.logger.error({ err, refId: tx.refId }, "watcher could not track a transaction");
    }
  }

  /**
   * A user's own check (/status, the "check status" button): runs at once, ahead of the queue and
   * of the key's pause (it still counts toward the per-key rate), also for a given-up id. Resolves
   * with what it learned; undefined for an unknown id.
   */
  async checkNow(refId: string, mode: AnnounceMode = {}): Promise<CheckOutcome | undefined> {
    // Read first; what follows runs in one turn, so nothing else changes the queues meanwhile.
    const tx = await this.deps.store.getTx(refId);
    if (!tx) return undefined;
    const apiKey = OPEN_STATUSES.has(tx.status) ? await this.pollableKey(tx.chatId) : undefined;
    return new Promise((resolve) => {
      const list = this.waiters.get(refId) ?? [];
      list.push(resolve);
      this.waiters.set(refId, list);
      if (this.stopped) return void this.settleWaiters(refId);
      if (this.checking.has(refId)) return; // the check in flight answers
      this.forced.set(refId, mode);
      if (this.queued.has(refId)) {
        this.lanes.remove(refId);
        this.queued.delete(refId);
      }
      this.due.delete(refId); // its heap entry goes stale; the check reschedules it
      if (apiKey === undefined) {
        this.forced.delete(refId);
        if (OPEN_STATUSES.has(tx.status)) this.park(tx);
        return void this.settleWaiters(refId);
      }
      const lane = this.lanes.laneOf(apiKey);
      this.lanes.takeRate(lane, this.deps.clock.now());
      this.queued.add(refId);
      this.laneKeys.set(refId, apiKey);
      this.launch(lane, refId);
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
    const hurrying = this.hurryNow(refId, signed);
    this.inBackground(hurrying.then(() => undefined));
    return hurrying;
  }

  private async hurryNow(refId: string, signed: boolean): Promise<boolean> {
    if (!this.started || this.stopped) return false; // start() schedules every open id anyway
    const tx = await this.deps.store.getTx(refId);
    if (!tx || !OPEN_STATUSES.has(tx.status)) return false;
    const apiKey = await this.pollableKey(tx.chatId);
    // From here on one turn: the queues are as the checks left them.
    if (this.stopped) return false;
    this.hurried.add(refId);
    if (this.checking.has(refId)) {
      this.again.set(refId, signed || this.again.get(refId) === true);
      return true;
    }
    if (this.queued.has(refId)) {
      const lane = apiKey === undefined ? undefined : this.lanes.find(apiKey);
      if (lane && signed && (lane.queue.remove(refId) || lane.urgent.remove(refId))) this.lanes.push(lane, refId, "signalled");
      else if (lane?.queue.remove(refId)) lane.urgent.push(refId);
    } else {
      this.due.delete(refId); // its heap entry goes stale; the check reschedules it
      this.place(refId, tx, apiKey, signed ? "signalled" : true);
      if (!this.queued.has(refId)) this.hurried.delete(refId); // parked: its chat cannot be polled now
    }
    this.pump();
    this.due.armNext();
    return true;
  }

  /** Resolves once no check is running (tests step the clock with this). */
  async whenIdle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** The earliest time something is scheduled (a due check or a lane waking), if any. */
  nextWakeAt(): number | undefined {
    if (this.paused) return undefined; // due times collect, but nothing runs them
    const first = this.due.nextAt();
    const times = first === undefined ? [] : [first];
    times.push(...this.lanes.wakeTimes());
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /** Numbers for logs and tests. */
  stats(): { scheduled: number; queued: number; inflight: number; lanes: number } {
    return { scheduled: this.due.size, queued: this.queued.size, inflight: this.lanes.inflight, lanes: this.lanes.size };
  }

  // ---- scheduling ---------------------------------------------------------------------------

  private schedule(refId: string, at: number): void {
    if (this.stopped) return;
    this.due.set(refId, at);
  }

  private async tick(now: number): Promise<void> {
    if (this.stopped) return;
    const taken = this.due.takeDue(now);
    // Out of the schedule and not queued yet while the store is read: the rescan must not adopt them again.
    for (const refId of taken) this.placing.add(refId);
    for (const refId of taken) {
      try {
        await this.enqueue(refId);
      } catch (err) {
        // The store could not be read: keep the transaction watched, a little later.
        this.deps.logger.error({ err, refId }, "could not queue a status check");
        this.schedule(refId, now + this.retryWait(err));
      } finally {
        this.placing.delete(refId);
      }
    }
    if (this.stopped) return;
    if (now - this.lastPrune >= MINUTE) {
      this.lastPrune = now;
      this.lanes.prune(now);
    }
    this.pump();
    this.due.armNext();
  }

  /** Puts a due transaction in its key's lane (or parks it when its chat cannot be polled). */
  private async enqueue(refId: string): Promise<void> {
    if (this.queued.has(refId)) return; // being checked: that check reschedules it
    const key = this.laneKeys.get(refId);
    if (key !== undefined) {
      this.queued.add(refId);
      this.lanes.push(this.lanes.laneOf(key), refId, false);
      return;
    }
    const tx = await this.deps.store.getTx(refId);
    const apiKey = tx && OPEN_STATUSES.has(tx.status) ? await this.pollableKey(tx.chatId) : undefined;
    this.place(refId, tx, apiKey, false);
  }

  /** enqueue's second half, in one turn with the queues: `tx` and `apiKey` as just read. */
  private place(refId: string, tx: TxRecord | undefined, apiKey: string | undefined, urgent: boolean | "signalled"): void {
    if (this.queued.has(refId)) return; // queued (or checked) while the store was read
    if (!tx || !OPEN_STATUSES.has(tx.status)) {
      void this.settleWaiters(refId);
      return;
    }
    if (apiKey === undefined) {
      this.park(tx);
      void this.settleWaiters(refId);
      return;
    }
    this.queued.add(refId);
    this.laneKeys.set(refId, apiKey);
    this.lanes.push(this.lanes.laneOf(apiKey), refId, urgent);
  }

  /** The chat's api key if it may be polled: linked, key readable (a blocked chat is polled too). */
  private async pollableKey(chatId: number): Promise<string | undefined> {
    return this.keyOf(await this.deps.store.getChat(chatId));
  }

  /** The key of a chat record in hand (decrypted keys are kept in memory: no second read of the chat). */
  private keyOf(chat: Readonly<ChatRecord> | undefined): string | undefined {
    if (!chat) return undefined;
    try {
      return this.deps.store.apiKeyOf(chat);
    } catch {
      return undefined; // a wrong STORE_SECRET: nothing can be polled for this chat
    }
  }

  /** No call for now; look again later in case the key comes back. Dropped past its deadline. */
  private park(tx: TxRecord): void {
    const parked = parkDecision(tx, this.deps.clock.now(), this.options);
    if (parked.act === "drop") this.dropped.add(tx.refId);
    else this.schedule(tx.refId, parked.at);
  }

  private pump(): void {
    this.lanes.pump();
  }

  private launch(lane: Lane, refId: string, signalled = false): void {
    this.lanes.started(lane, signalled);
    this.checking.add(refId);
    // The call's slot (concurrency, the key's lane) is given back once the status call answered:
    // the notice that may follow waits for Telegram (and the pacer), not for the provider. The id
    // stays `checking` until its check has applied what it learned.
    let slotHeld = true;
    const freeSlot = () => {
      if (!slotHeld) return;
      slotHeld = false;
      this.lanes.ended(lane, signalled);
      this.pump();
    };
    const run = (async () => {
      try {
        await this.check(refId, lane, freeSlot);
      } catch (err) {
        // A bug or a closed store: keep the transaction watched, a little later; soon when the
        // store could not save (what the check learned is told once it can).
        this.deps.logger.error({ err, refId }, "status check failed");
        if (!this.stopped && !this.due.has(refId)) this.schedule(refId, this.deps.clock.now() + this.retryWait(err));
      } finally {
        this.queued.delete(refId);
        this.checking.delete(refId);
        if (!this.due.has(refId)) {
          // Not watched any more.
          this.laneKeys.delete(refId);
          this.lastRead.delete(refId);
        }
        this.forced.delete(refId);
        this.hurried.delete(refId);
        void this.settleWaiters(refId);
        const againSigned = this.again.get(refId);
        if (this.again.delete(refId)) void this.hurry(refId, againSigned).catch(() => undefined); // logged by inBackground
        freeSlot();
        this.due.armNext();
      }
    })();
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /**
   * After a failed check: soon when the store failed (its news is owed), else a while. The error says
   * so too (a system error: a full or read-only disk, a refused connection): the store may save again
   * by the time this runs, and its news must not wait minutes for that.
   */
  private retryWait(err: unknown): number {
    const code = (err as { code?: unknown } | undefined)?.code;
    const systemError = typeof code === "string" && /^E[A-Z]+$/.test(code);
    return this.deps.store.canPersist() && !systemError ? this.options.maxIntervalMs : this.options.storeRetryMs;
  }

  /** Answers the checkNow callers of `refId` with the record as stored. Never rejects. */
  private async settleWaiters(refId: string): Promise<void> {
    const list = this.waiters.get(refId);
    if (!list || this.queued.has(refId)) return;
    this.waiters.delete(refId);
    const lookup = this.outcomes.get(refId);
    this.outcomes.delete(refId);
    const tx = await this.deps.store.getTx(refId).catch((err: unknown) => {
      this.deps.logger.error({ err, refId }, "could not read a checked transaction");
      return undefined;
    });
    for (const resolve of list) resolve(tx && { tx, ...(lookup ? { lookup } : {}) });
  }

  /** Work whenIdle() waits for (store reads before a check is queued, owed notices). Never rejects. */
  private inBackground(work: Promise<void>): void {
    const run = work.catch((err: unknown) => this.deps.logger.error({ err }, "status watcher background work failed"));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  // ---- one check ----------------------------------------------------------------------------

  private async check(refId: string, lane: Lane, freeSlot: () => void): Promise<void> {
    const mode = this.forced.get(refId);
    this.forced.delete(refId);
    const asked = mode !== undefined || this.hurried.has(refId);
    const remembered = asked ? undefined : this.lastRead.get(refId);
    this.lastRead.delete(refId);
    const tx = remembered ?? (await this.deps.store.getTx(refId));
    if (!tx || !OPEN_STATUSES.has(tx.status)) return;
    if (!shouldCheck(tx, asked)) return;
    // One read of the chat per check: its key, whether it was blocked before the call, its callbacks.
    const chat = await this.deps.store.getChat(tx.chatId);
    const apiKey = this.keyOf(chat);
    if (apiKey === undefined || apiKey !== this.laneKeys.get(refId)) {
      // Queued by a key the chat no longer has (or none now): queued afresh, from the store.
      this.laneKeys.delete(refId);
      if (apiKey === undefined) this.park(tx);
      else this.schedule(refId, this.deps.clock.now());
      return;
    }
    const lookup = await lookupTx(this.deps.upstream, apiKey, tx, this.deps.clock.now(), this.options);
    if (this.waiters.has(refId)) this.outcomes.set(refId, lookup);
    if (lookup.kind === "error") {
      lane.backoff.fail(this.deps.clock.now());
      this.deps.logger.warn({ refId, kind: tx.kind, err: lookup.error }, "status check failed; the key rests a while");
    } else {
      lane.backoff.succeed();
    }
    freeSlot();
    // A user's own check runs on any process; the background's writes are the leader's.
    if (mode !== undefined) await this.apply(tx, lookup, chat!, mode);
    else await this.leaderOnly(() => this.apply(tx, lookup, chat!));
  }

  /** Runs `work` under the term this watcher started in; refused when a newer term leads (its watcher has the records). */
  private async leaderOnly(work: () => Promise<void>): Promise<void> {
    const { fence } = this.deps;
    if (!fence || this.term === undefined) return work();
    if (!(await fence.fenced(this.term, work))) this.deps.logger.warn("not leading any more: background writes are left to the new leader");
  }

  /**
   * Applies what the check decided: the change first, then the next check on the record as saved.
   * `chat` is the check's own read, made just before its status call; re-read only after a notice
   * (which may find the chat blocked).
   */
  private async apply(before: TxRecord, lookup: Lookup, chat: Readonly<ChatRecord>, mode?: AnnounceMode): Promise<void> {
    const store = this.deps.store;
    const refId = before.refId;
    let cur = await store.getTx(refId);
    if (!cur || !OPEN_STATUSES.has(cur.status)) return;
    const now = this.deps.clock.now();
    // The chat the notice goes to: the sale's maker (staff) or the owner; whether it was blocked before the call.
    const noticeChat = noticeChatOf(cur);
    const chatInactive = noticeChat === chat.chatId ? chat.inactive === true : await this.isInactive(noticeChat);
    let change = decideChange(before.status, cur, lookup, now, this.options, { chatInactive, shownByCaller: mode !== undefined });
    if (change.act === "announce" && this.deps.toldElsewhere?.(cur)) change = { act: "record", patch: { ...change.fields, status: change.next } };
    if (change.act === "owe") {
      await store.transitionTx(refId, [cur.status], change.patch);
      const after = await store.updateChat(noticeChat, { owedNotices: true });
      // The chat came back during the status call (its return found nothing owed yet): tell it now.
      if (after.inactive !== true) this.chatBack(noticeChat);
    } else if (change.act === "announce") {
      if (!(await this.protocol.announce(cur, change.notice, change.fields, change.next, mode))) {
        await this.retryLater(refId, now);
        return;
      }
      // A notice that found the chat blocked was owed by announce() in its own last write. The chat
      // found blocked only now (another of its notices met the 403 meanwhile) owes nothing: this one went out.
    } else if (change.act === "record") {
      await store.transitionTx(refId, [cur.status], change.patch);
    }
    // Nothing written: the record read above is still the one the next check starts from.
    if (change.act !== "changed-meanwhile" && change.act !== "none") {
      cur = await store.getTx(refId);
      if (cur) this.deps.onChanged?.(cur);
      if (!cur || !OPEN_STATUSES.has(cur.status)) return;
    }

    const next = decideNext(cur, now, this.options, this.callbacksLastAt(cur, chat), lookup.kind === "error");
    if (next.act === "give-up") {
      if (!(await this.protocol.announce(cur, "gaveup", {}, cur.status, mode))) await this.retryLater(refId, now);
    } else if (next.act === "schedule") {
      if (next.save) await store.updateTx(refId, { watch: next.save });
      this.lastRead.set(refId, next.save ? { ...cur, watch: next.save } : cur);
      this.schedule(refId, next.at);
    }
  }

  // ---- chats that blocked the bot ------------------------------------------------------------

  private async isInactive(chatId: number): Promise<boolean> {
    return (await this.deps.store.getChat(chatId))?.inactive === true;
  }

  /**
   * The chat is back (it wrote, or unblocked the bot): sends the notices it missed, newest
   * transactions first, one each. Runs in the background; whenIdle() waits for it.
   */
  chatBack(chatId: number): void {
    if (this.stopped || this.paused) return;
    const send = () => sendOwed(this.deps.store, this.protocol, chatId, () => {
      // As a watched notice's retry: the probe soon, else the slow retry or the first notice through.
      const now = this.deps.clock.now();
      const at = this.telegram.failed(`chat:${chatId}`, now, this.options.notifyRetryMs, this.deps.pacer?.resumesAt?.());
      this.owedWaiting.add(chatId);
      this.deps.clock.setTimeout(() => {
        if (this.owedWaiting.delete(chatId)) this.chatBack(chatId);
      }, at - now);
    });
    const run = this.leaderOnly(send).catch((err: unknown) => this.deps.logger.error({ err, chatId }, "owed notices failed"));
    this.inBackground(run);
  }

  /** Whether the chat's callbacks count as working at `now` (read once per chat into `seen`). */
  private async callbacksWork(chatId: number, now: number, seen: Map<number, boolean>): Promise<boolean> {
    let on = seen.get(chatId);
    if (on === undefined) {
      const last = (await this.deps.store.getChat(chatId))?.callbacksLastAt;
      on = last !== undefined && now - last < this.options.callbacksFreshMs;
      seen.set(chatId, on);
    }
    return on;
  }

  /** When the chat's last provider callback came, when it can pace `tx`. */
  private callbacksLastAt(tx: TxRecord, chat: Readonly<ChatRecord> | undefined): number | undefined {
    if (!usesCallbacks(tx) || watchOf(tx).gaveUp) return undefined;
    return chat?.callbacksLastAt;
  }

  /** The notice met a Telegram failure: tried again when the gate says (soon if it probes). */
  private async retryLater(refId: string, now: number): Promise<void> {
    const cur = await this.deps.store.getTx(refId);
    if (!cur) return;
    const retry = retryNotice(cur, this.telegram.failed(refId, now, this.options.notifyRetryMs, this.deps.pacer?.resumesAt?.()));
    await this.deps.store.updateTx(refId, { watch: retry.save });
    this.schedule(refId, retry.at);
  }

  /** A notice got through: the ones waiting for Telegram go now (their checks edit first, as any retry). */
  private telegramAnswered(): void {
    const now = this.deps.clock.now();
    let woke = false;
    for (const refId of this.telegram.answered()) {
      const at = this.due.at(refId);
      if (at === undefined || at <= now) continue; // being checked, or no longer watched
      this.schedule(refId, now);
      woke = true;
    }
    if (woke) this.due.armNext();
    const chats = [...this.owedWaiting];
    this.owedWaiting.clear();
    for (const chatId of chats) this.chatBack(chatId);
  }
}
