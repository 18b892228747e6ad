/**
 * The status watcher: polls every open transaction (pending, processing, unknown, sending) at
 * the provider until it ends, and tells its chat once about each change that matters.
 *
 * Scheduling. Each open transaction has one due time, kept in a min-heap (stale entries are
 * skipped lazily) with one clock timer armed for the earliest: 10,000 open ids cost O(log n)
 * per check, never a rescan. Backoff: checks `firstCheckMs` apart while the transaction is
 * younger than `youngMs`, then doubling up to `maxIntervalMs` (see DEFAULT_WATCHER_OPTIONS).
 * `watch.nextCheckAt`/`attempts` are saved with the transaction, so a restart resumes where it
 * was (overdue checks run at once; a young id's due time is not saved at every check, so it is
 * checked at once after a restart).
 *
 * Calls. Due transactions go to a queue per api key (lane). Lanes take turns (round robin),
 * with at most `concurrency` calls overall, `perKeyConcurrency` per key (a slow key holds at
 * most that many slots) and `perKeyPerSecond` started per key in any second (limiter.ts). A key
 * whose calls fail (timeouts, outages) pauses on its own with growing waits; other keys go on.
 * The provider's errors never escape a check.
 *
 * Ends. Prepaid, postpaid and transfers are watched for `maxAgeMs`; a pending deposit until
 * `depositLateMs` after its expiry (it can be paid late; only then is `expired` final); a paid
 * deposit waiting for settlement for `depositProcessingMaxAgeMs`. After that the chat is told
 * once how to check by hand (`watch.gaveUp`); /status still works.
 *
 * Exactly-once notices. A change that deserves a notice is handled in three steps:
 *   1. persist what was learned plus the marker `watch.announcing = <notice>` (status unchanged), flush;
 *   2. edit the transaction's own message to show the outcome (repeatable: same content again
 *      is "not modified"), then send the notice message;
 *   3. persist the new status together with `watch.notified`, drop the marker, flush.
 * The status stays open until step 3, so a crash anywhere leaves the transaction watched. On the
 * next check a surviving marker means "the notice may or may not have gone out": the original
 * message is edited again and the notice is re-sent only when that edit is impossible (no
 * message, deleted). Choice: when we cannot know, the outcome is never lost (the edited message
 * shows it, or the notice is repeated, receipts carry the reference id so a repeat reads as the
 * same transaction), and a duplicate message happens only when there is nothing to edit.
 * Telegram refusing for good (400) or a blocked chat (403, the chat is then marked inactive)
 * count as done. The create call's own outcome is announced by the confirm engine; `track()`
 * records it as notified.
 *
 * Chats without an api key (removed) or marked inactive are not polled: their transactions are
 * parked and looked at again (without a provider call) every `maxIntervalMs`.
 *
 * Over 350 lines: the due-time heap, the key lanes and the exactly-once protocol share one
 * watcher's state; the lanes (pump/launch) and announce() are the candidates to move out next.
 */
import { createHash } from "node:crypto";
import type { InlineKeyboardMarkup } from "grammy/types";
import type { BotDeps } from "../bot/context.js";
import type { Translate } from "../bot/i18n.js";
import type { Clock, TimerHandle } from "../clock.js";
import type { Logger } from "../logger.js";
import type { Store, TxPatch } from "../store/store.js";
import { OPEN_STATUSES, type Lang, type TxRecord, type TxStatus, type WatchState } from "../store/types.js";
import { backoffDelay, FailureBackoff, type BackoffOptions } from "./backoff.js";
import { KeyedLimiter } from "./limiter.js";
import { noticeFor, Notifier, type MessageApi, type NoticeKind } from "./notify.js";
import type { Pacer } from "./pacer.js";
import { DEFAULT_DEPOSIT_LATE_MS, lookupPatch, lookupTx, type Lookup, type StatusApi } from "./refresh.js";
import { DueQueue } from "../dueQueue.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export interface WatcherOptions {
  /** First check after creation, and the wait between checks while young. */
  firstCheckMs: number;
  /** Checks stay `firstCheckMs` apart while a transaction is younger than this; the doubling starts after. */
  youngMs: number;
  backoffFactor: number;
  /** Longest wait between two checks. */
  maxIntervalMs: number;
  /** Watch prepaid, postpaid and transfers (and deposits without a known expiry) this long. */
  maxAgeMs: number;
  /** Keep checking a deposit this long after its expiry (late payments). */
  depositLateMs: number;
  /** Watch a paid deposit waiting for its H+1 settlement this long after creation. */
  depositProcessingMaxAgeMs: number;
  /** A "sending" record older than this lost its create call (the process stopped during it). */
  sendingGraceMs: number;
  /** Status calls in flight, all keys together. */
  concurrency: number;
  /** Status calls in flight for one api key. */
  perKeyConcurrency: number;
  /** Status calls started per api key in any one second. */
  perKeyPerSecond: number;
  /** Pause of a key whose calls fail: first, growth, cap. */
  keyBackoff: BackoffOptions;
  /** Retry of a notice whose delivery is uncertain (network, Telegram 5xx). */
  notifyRetryMs: number;
  /** Prefix money messages with the sandbox banner. */
  sandbox: boolean;
}

/**
 * Why these numbers. A change is seen at the next check, so a notice comes up to one interval
 * late. Right after a purchase the user is waiting for it and most sales settle within a minute or
 * two, while a plain doubling from 5 s already waits 40 s between checks at one minute of age. So
 * checks stay 5 s apart for the first 2 minutes (24 checks), then double as before up to 5 min.
 * The per-key cap bounds what that costs: a key's due ids are served round robin at 5 calls/s,
 * so up to 25 young ids per key are each checked every 5 s (notice within ~5 s + a round trip);
 * beyond that each is checked every (young ids / 5) s, e.g. 100 pending on one key -> every 20 s
 * (bench/watcher.ts measures both). The cap stays at 5/s: the provider documents no limit, and
 * 300 calls a minute per key is already far above one reseller's normal load.
 */
export const DEFAULT_WATCHER_OPTIONS: WatcherOptions = {
  firstCheckMs: 5_000,
  youngMs: 2 * MINUTE,
  backoffFactor: 2,
  maxIntervalMs: 5 * MINUTE,
  maxAgeMs: 24 * HOUR,
  depositLateMs: DEFAULT_DEPOSIT_LATE_MS,
  depositProcessingMaxAgeMs: 5 * 24 * HOUR,
  sendingGraceMs: 2 * MINUTE,
  concurrency: 8,
  perKeyConcurrency: 2,
  perKeyPerSecond: 5,
  keyBackoff: { firstMs: 5_000, factor: 2, capMs: 5 * MINUTE },
  notifyRetryMs: 30_000,
  sandbox: false,
};

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
}

/** The saved watch state plus the in-flight notice marker (kept in the same JSON field). */
interface Watch extends WatchState {
  announcing?: NoticeKind;
}

function watchOf(tx: TxRecord): Watch {
  return (tx.watch as Watch | undefined) ?? { nextCheckAt: 0, attempts: 0 };
}

/** Lane id of an api key: a hash, so no raw key sits in long-lived maps. */
function laneId(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex").slice(0, 20);
}

interface Lane {
  id: string;
  queue: RefQueue;
  inflight: number;
  backoff: FailureBackoff;
  /** Timer waking the lane after a rate or failure pause, and when it fires. */
  wake?: TimerHandle;
  wakeAt?: number;
  /** In the runnable queue. */
  listed: boolean;
}

export class StatusWatcher {
  readonly options: WatcherOptions;
  private readonly notifier: Notifier;
  private readonly heap = new DueQueue<string>();
  /** The current due time per transaction; heap entries that disagree are stale. */
  private readonly due = new Map<string, number>();
  private timer: { at: number; handle: TimerHandle } | undefined;
  private readonly lanes = new Map<string, Lane>();
  private readonly runnable = new LaneQueue();
  /** Waiting in a lane or being checked. */
  private readonly queued = new Set<string>();
  /** checkNow: check even if given up. */
  private readonly forced = new Set<string>();
  private readonly waiters = new Map<string, (() => void)[]>();
  private readonly running = new Set<Promise<void>>();
  private readonly limiter: KeyedLimiter;
  private inflight = 0;
  private started = false;
  private stopped = false;
  private lastPrune = 0;

  constructor(private readonly deps: WatcherDeps) {
    this.options = { ...DEFAULT_WATCHER_OPTIONS, ...deps.options };
    this.limiter = new KeyedLimiter(Math.max(1, this.options.perKeyPerSecond), 1000);
    this.notifier = new Notifier(deps.api, deps.translate, {
      sandbox: this.options.sandbox,
      maxAgeHours: (tx) => Math.round((this.deadline(tx) - tx.createdAt) / HOUR),
      ...(deps.processingMarkup ? { processingMarkup: deps.processingMarkup } : {}),
      ...(deps.pacer ? { pacer: deps.pacer } : {}),
    });
  }

  /** Schedules every open transaction from the store (resuming saved due times) and starts. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    const now = this.deps.clock.now();
    for (const tx of this.deps.store.openTxs()) {
      const w = watchOf(tx);
      if (w.gaveUp && !w.announcing) continue;
      if (this.due.has(tx.refId)) continue;
      const at = w.announcing ? now : tx.watch ? w.nextCheckAt : this.initialDue(tx);
      this.schedule(tx.refId, at);
    }
    this.armNext();
  }

  /** Stops scheduling and waits for the checks in flight (their store writes included). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.handle.cancel();
    this.timer = undefined;
    for (const lane of this.lanes.values()) lane.wake?.cancel();
    await this.whenIdle();
    for (const ref of [...this.waiters.keys()]) this.settleWaiters(ref);
  }

  /** The confirm engine's hook: a create answered. Open ones get their first check soon. */
  track(tx: TxRecord): void {
    try {
      if (this.stopped || !OPEN_STATUSES.has(tx.status)) return;
      const current = this.deps.store.getTx(tx.refId);
      if (!current || !OPEN_STATUSES.has(current.status)) return;
      const at = this.deps.clock.now() + this.options.firstCheckMs;
      // The engine has just shown this status (receipt or "outcome unknown"): it counts as told.
      this.deps.store.updateTx(tx.refId, { watch: { nextCheckAt: at, attempts: 0, notified: current.status } });
      this.schedule(tx.refId, at);
    } catch (err) {
      // A hook must not break the confirm handler; the next start() picks the record up anyway.
      this.deps.logger.error({ err, refId: tx.refId }, "watcher could not track a transaction");
    }
  }

  /**
   * Checks one transaction as soon as its key allows (also one that was given up). Resolves
   * when that check is done (at once if there is nothing to check).
   */
  checkNow(refId: string): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const list = this.waiters.get(refId) ?? [];
      list.push(resolve);
      this.waiters.set(refId, list);
      this.forced.add(refId);
      if (!this.started) {
        this.schedule(refId, this.deps.clock.now());
        return;
      }
      this.due.delete(refId); // its heap entry goes stale; the check reschedules it
      this.enqueue(refId);
      this.pump();
    });
  }

  /** Resolves once no check is running (tests step the clock with this). */
  async whenIdle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** The earliest time something is scheduled (a due check or a lane waking), if any. */
  nextWakeAt(): number | undefined {
    this.dropStaleTop();
    const times = [this.heap.peek()?.at, this.timer?.at].filter((t): t is number => t !== undefined);
    for (const lane of this.lanes.values()) if (lane.wakeAt !== undefined) times.push(lane.wakeAt);
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /** Numbers for logs and tests. */
  stats(): { scheduled: number; queued: number; inflight: number; lanes: number } {
    return { scheduled: this.due.size, queued: this.queued.size, inflight: this.inflight, lanes: this.lanes.size };
  }

  // ---- scheduling ---------------------------------------------------------------------------

  private initialDue(tx: TxRecord): number {
    // A "sending" record may still be in its create call: leave it to the engine for a while.
    if (tx.status === "sending") return tx.updatedAt + this.options.sendingGraceMs;
    return tx.createdAt + this.options.firstCheckMs;
  }

  private schedule(refId: string, at: number): void {
    if (this.stopped) return;
    this.due.set(refId, at);
    this.heap.push(at, refId);
    if (this.started) this.arm(at);
  }

  private arm(at: number): void {
    if (this.stopped || (this.timer && this.timer.at <= at)) return;
    this.timer?.handle.cancel();
    const delay = Math.max(0, at - this.deps.clock.now());
    this.timer = { at, handle: this.deps.clock.setTimeout(() => this.tick(), delay) };
  }

  private dropStaleTop(): void {
    for (let top = this.heap.peek(); top && this.due.get(top.item) !== top.at; top = this.heap.peek()) this.heap.pop();
  }

  private armNext(): void {
    this.dropStaleTop();
    const top = this.heap.peek();
    if (top) this.arm(top.at);
  }

  private tick(): void {
    this.timer = undefined;
    if (this.stopped) return;
    const now = this.deps.clock.now();
    for (let top = this.heap.peek(); top && top.at <= now; top = this.heap.peek()) {
      this.heap.pop();
      if (this.due.get(top.item) !== top.at) continue;
      this.due.delete(top.item);
      this.enqueue(top.item);
    }
    if (now - this.lastPrune >= MINUTE) {
      this.lastPrune = now;
      this.limiter.prune(now);
    }
    this.pump();
    this.armNext();
  }

  /** Puts a due transaction in its key's lane (or parks it when its chat cannot be polled). */
  private enqueue(refId: string): void {
    if (this.queued.has(refId)) return; // being checked: that check reschedules it
    const tx = this.deps.store.getTx(refId);
    if (!tx || !OPEN_STATUSES.has(tx.status)) {
      this.settleWaiters(refId);
      return;
    }
    const apiKey = this.pollableKey(tx.chatId);
    if (apiKey === undefined) {
      this.park(tx);
      this.settleWaiters(refId);
      return;
    }
    const id = laneId(apiKey);
    let lane = this.lanes.get(id);
    if (!lane) {
      lane = { id, queue: new RefQueue(), inflight: 0, backoff: new FailureBackoff(this.options.keyBackoff), listed: false };
      this.lanes.set(id, lane);
    }
    this.queued.add(refId);
    lane.queue.push(refId);
    this.list(lane);
  }

  /** The chat's api key if it may be polled: linked, not blocked, key readable. */
  private pollableKey(chatId: number): string | undefined {
    const chat = this.deps.store.getChat(chatId);
    if (!chat || chat.inactive) return undefined;
    try {
      return this.deps.store.getApiKey(chatId);
    } catch {
      return undefined; // a wrong STORE_SECRET: nothing can be polled for this chat
    }
  }

  /** No call for now; look again later in case the key comes back. Dropped past its deadline. */
  private park(tx: TxRecord): void {
    const now = this.deps.clock.now();
    if (now >= this.deadline(tx)) return;
    this.schedule(tx.refId, now + this.options.maxIntervalMs);
  }

  private list(lane: Lane): void {
    if (lane.listed || lane.wake) return;
    lane.listed = true;
    this.runnable.push(lane);
  }

  private wakeLane(lane: Lane, at: number): void {
    if (lane.wake) return;
    lane.wakeAt = at;
    lane.wake = this.deps.clock.setTimeout(() => {
      lane.wake = undefined;
      lane.wakeAt = undefined;
      this.list(lane);
      this.pump();
    }, Math.max(0, at - this.deps.clock.now()));
  }

  /** Starts as many checks as the limits allow, lanes taking turns. */
  private pump(): void {
    if (this.stopped) return;
    const o = this.options;
    while (this.inflight < o.concurrency) {
      const lane = this.runnable.shift();
      if (!lane) break;
      lane.listed = false;
      if (lane.queue.size === 0 || lane.inflight >= o.perKeyConcurrency) continue; // re-listed when a call ends
      const now = this.deps.clock.now();
      const wait = Math.max(lane.backoff.pausedUntil() - now, this.limiter.waitMs(lane.id, now));
      if (wait > 0) {
        this.wakeLane(lane, now + wait);
        continue;
      }
      this.limiter.take(lane.id, now);
      this.launch(lane, lane.queue.shift()!);
      if (lane.queue.size > 0) this.list(lane);
    }
  }

  private launch(lane: Lane, refId: string): void {
    lane.inflight++;
    this.inflight++;
    const run = (async () => {
      try {
        await this.check(refId, lane);
      } catch (err) {
        // A bug or a closed store: keep the transaction watched, a little later.
        this.deps.logger.error({ err, refId }, "status check failed");
        if (!this.stopped && !this.due.has(refId)) this.schedule(refId, this.deps.clock.now() + this.options.maxIntervalMs);
      } finally {
        lane.inflight--;
        this.inflight--;
        this.queued.delete(refId);
        this.forced.delete(refId);
        this.settleWaiters(refId);
        if (lane.queue.size > 0) this.list(lane);
        else if (lane.inflight === 0 && !lane.wake && lane.backoff.consecutiveFailures === 0) this.lanes.delete(lane.id);
        this.pump();
        this.armNext();
      }
    })();
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  private settleWaiters(refId: string): void {
    const list = this.waiters.get(refId);
    if (!list || this.queued.has(refId)) return;
    this.waiters.delete(refId);
    for (const resolve of list) resolve();
  }

  // ---- one check ----------------------------------------------------------------------------

  private async check(refId: string, lane: Lane): Promise<void> {
    const forced = this.forced.delete(refId);
    const tx = this.deps.store.getTx(refId);
    if (!tx || !OPEN_STATUSES.has(tx.status)) return;
    const w = watchOf(tx);
    if (w.gaveUp && !w.announcing && !forced) return;
    const apiKey = this.pollableKey(tx.chatId);
    if (apiKey === undefined) {
      this.park(tx);
      return;
    }
    const lookup = await lookupTx(this.deps.upstream, apiKey, tx, this.deps.clock.now(), this.options);
    if (lookup.kind === "error") {
      lane.backoff.fail(this.deps.clock.now());
      this.deps.logger.warn({ refId, kind: tx.kind, err: lookup.error }, "status check failed; the key rests a while");
    } else {
      lane.backoff.succeed();
    }
    await this.apply(tx, lookup);
  }

  private async apply(before: TxRecord, lookup: Lookup): Promise<void> {
    const store = this.deps.store;
    const refId = before.refId;
    let cur = store.getTx(refId);
    if (!cur || !OPEN_STATUSES.has(cur.status)) return;
    const now = this.deps.clock.now();

    if (cur.status === before.status) {
      let next: TxStatus = cur.status;
      if (lookup.kind === "found") next = lookup.status;
      // Not found by our reference after the grace: the create call's outcome is simply unknown.
      else if (cur.status === "sending" && lookup.kind === "not-found") next = "unknown";
      const fields = lookupPatch(cur, lookup, { withStatus: false });
      const notice = noticeFor(cur, next);
      if (notice) {
        if (!(await this.announce(cur, notice, fields, next))) {
          this.retryLater(refId, now);
          return;
        }
      } else if (next !== cur.status || Object.keys(fields).length > 0) {
        store.transitionTx(refId, [cur.status], { ...fields, ...(next !== cur.status ? { status: next } : {}) });
      }
      cur = store.getTx(refId);
      if (!cur || !OPEN_STATUSES.has(cur.status)) return;
    }
    // else: changed meanwhile (/status, a deposit button): keep watching what is open.

    const w = watchOf(cur);
    const deadline = this.deadline(cur);
    if (w.gaveUp) return;
    if (now >= deadline) {
      if (!(await this.announce(cur, "gaveup", {}, cur.status))) this.retryLater(refId, now);
      return;
    }
    // While young the wait stays at the first step and the backoff does not advance: `attempts`
    // counts the checks since the young phase ended (the doubling starts from there).
    const young = now - cur.createdAt < this.options.youngMs;
    const attempts = young ? w.attempts : w.attempts + 1;
    const at = Math.min(now + backoffDelay(attempts, this.backoff()), deadline);
    // A young id's due time moves every few seconds: saving each move would rewrite its store
    // shard per check (hundreds of writes a second with many pending). The saved due time stays
    // at or before the real one, so after a restart it is simply checked at once.
    if (!young || w.nextCheckAt > at) store.updateTx(refId, { watch: { ...w, attempts, nextCheckAt: at } });
    this.schedule(refId, at);
  }

  private backoff(): BackoffOptions {
    const o = this.options;
    return { firstMs: o.firstCheckMs, factor: o.backoffFactor, capMs: o.maxIntervalMs };
  }

  private retryLater(refId: string, now: number): void {
    const cur = this.deps.store.getTx(refId);
    if (!cur) return;
    const at = now + this.options.notifyRetryMs;
    this.deps.store.updateTx(refId, { watch: { ...watchOf(cur), nextCheckAt: at } });
    this.schedule(refId, at);
  }

  /** When automatic checks of `tx` end. */
  deadline(tx: TxRecord): number {
    const o = this.options;
    if (tx.kind !== "deposit") return tx.createdAt + o.maxAgeMs;
    if (tx.status === "processing") return tx.createdAt + o.depositProcessingMaxAgeMs;
    const expiresAt = tx.detail?.expiresAt;
    const base = typeof expiresAt === "number" && Number.isFinite(expiresAt) ? expiresAt : tx.createdAt + o.maxAgeMs;
    return base + o.depositLateMs;
  }

  /**
   * The exactly-once protocol (see the file comment). Returns false when delivery is uncertain:
   * the marker stays and the caller retries later. `next` is the status being announced.
   */
  private async announce(cur: TxRecord, notice: NoticeKind, fields: TxPatch, next: TxStatus): Promise<boolean> {
    const store = this.deps.store;
    const refId = cur.refId;
    const w = watchOf(cur);
    const mayHaveBeenSent = w.announcing === notice;

    const marked = store.transitionTx(refId, [cur.status], { ...fields, watch: { ...w, announcing: notice } as Watch });
    if (!marked) return true; // changed by someone else meanwhile: theirs stands
    await store.flush();

    const lang = store.getChat(cur.chatId)?.lang ?? "id";
    const view: TxRecord = { ...marked, status: next };
    const delivery = await this.notifier.deliver(lang, view, notice, mayHaveBeenSent);
    if (delivery === "uncertain") {
      this.deps.logger.warn({ refId, notice }, "notice delivery uncertain; will retry (edit first)");
      return false;
    }
    if (delivery === "rate-limited") {
      // Known not sent (429): the marker goes back to what it was, so the retry sends normally.
      const now = store.getTx(refId);
      if (now) store.transitionTx(refId, [cur.status], { watch: { ...watchOf(now), announcing: w.announcing } as Watch });
      return false;
    }
    if (delivery === "blocked") {
      store.updateChat(cur.chatId, { inactive: true });
      this.deps.logger.info({ chatId: cur.chatId }, "chat blocked the bot; its transactions are no longer polled");
    } else if (delivery === "refused") {
      this.deps.logger.warn({ refId, notice }, "Telegram refused the notice; not retried");
    }

    const latest = store.getTx(refId) ?? marked;
    const { announcing: _done, ...rest } = watchOf(latest);
    const patch: TxPatch =
      notice === "gaveup" ? { watch: { ...rest, gaveUp: true } } : { status: next, watch: { ...rest, notified: next } };
    store.transitionTx(refId, [cur.status], patch);
    await store.flush();
    return true;
  }
}

/**
 * Builds the watcher for a bot and hooks it to the confirm engine (`deps.hooks.afterCreate`,
 * chained after any hook already there). The caller starts it after the bot and stops it
 * before the store closes. `api`: better an Api without auto-retry (grammY's waits in real time
 * and retries network errors forever); the watcher handles 429s and uncertain sends itself.
 */
export function wireWatcher(args: {
  api: MessageApi;
  translate: Translate;
  deps: BotDeps;
  options?: Partial<WatcherOptions>;
  processingMarkup?: WatcherDeps["processingMarkup"];
  pacer?: Pacer;
}): StatusWatcher {
  const { deps } = args;
  const watcher = new StatusWatcher({
    store: deps.store,
    upstream: deps.upstream,
    api: args.api,
    clock: deps.clock,
    logger: deps.logger,
    translate: args.translate,
    options: { sandbox: deps.sandbox, ...args.options },
    ...(args.processingMarkup ? { processingMarkup: args.processingMarkup } : {}),
    ...(args.pacer ? { pacer: args.pacer } : {}),
  });
  const previous = deps.hooks?.afterCreate;
  deps.hooks = {
    ...deps.hooks,
    afterCreate: (tx) => {
      previous?.(tx);
      watcher.track(tx);
    },
  };
  return watcher;
}

// ---- small queues -------------------------------------------------------------------------------

/** FIFO with O(1) shift (compacts now and then). */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(x: T): void {
    this.items.push(x);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const x = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return x;
  }
}

class RefQueue extends Fifo<string> {}
class LaneQueue extends Fifo<Lane> {}
