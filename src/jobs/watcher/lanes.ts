/**
 * The watcher's per-api-key lanes: each key has a FIFO of due reference ids, a failure backoff and
 * a wake-up timer (plus a FIFO of urgent ids, served first); runnable lanes take turns through a second FIFO (round robin).
 */
import { createHash } from "node:crypto";
import type { Clock, TimerHandle } from "../../tools/clock.js";
import { FailureBackoff, type BackoffOptions } from "./backoff.js";
import { KeyedLimiter } from "./limiter.js";

/** Lane id of an api key: a hash, so no raw key sits in long-lived maps. */
export function laneId(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex").slice(0, 20);
}

export interface Lane {
  id: string;
  queue: Fifo<string>;
  /** Ids a provider callback says changed: served before `queue`, under the same limits. */
  urgent: Fifo<string>;
  /** Ids a signed provider callback names: served first, bounded by their own in-flight cap, not the rate. */
  signalled: Fifo<string>;
  inflight: number;
  /** Calls of `signalled` ids in flight (not counted in `inflight`). */
  signalledInflight: number;
  backoff: FailureBackoff;
  /** Timer waking the lane after a rate or failure pause, and when it fires. */
  wake?: TimerHandle;
  wakeAt?: number;
  /** In the runnable queue. */
  listed: boolean;
}

/** FIFO with O(1) shift (compacts now and then). */
export class Fifo<T> {
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

  /** Takes `x` out wherever it waits (O(n); only for the rare check on demand). */
  remove(x: T): boolean {
    const i = this.items.indexOf(x, this.head);
    if (i < 0) return false;
    this.items.splice(i, 1);
    return true;
  }
}

export interface LaneLimits {
  /** Calls in flight, all lanes together. */
  concurrency: number;
  /** Calls in flight in one lane. */
  perKeyConcurrency: number;
  /** Calls started in one lane in any one second. */
  perKeyPerSecond: number;
  /** Calls of ids named by signed callbacks in flight in one lane (they are not held to the rate). */
  perKeySignalledConcurrency: number;
  /** Pause of a lane whose calls fail. */
  keyBackoff: BackoffOptions;
}

/**
 * The lanes of the watcher and their turns: which waiting id starts next under the limits, and when
 * a paused lane wakes. What a call does is the caller's (`launch`); it reports its end (`ended`).
 */
export class Lanes {
  private readonly lanes = new Map<string, Lane>();
  private readonly runnable = new Fifo<Lane>();
  private readonly limiter: KeyedLimiter;
  /** Calls in flight, all lanes. */
  inflight = 0;

  constructor(
    private readonly clock: Clock,
    private readonly limits: LaneLimits,
    /** Starts the call of `refId` (its slot is taken); runs inside pump(). */
    private readonly launch: (lane: Lane, refId: string, signalled: boolean) => void,
    /** The watcher stopped: nothing starts any more. */
    private readonly stopped: () => boolean,
  ) {
    this.limiter = new KeyedLimiter(Math.max(1, limits.perKeyPerSecond), 1000);
  }

  get size(): number {
    return this.lanes.size;
  }

  laneOf(apiKey: string): Lane {
    const id = laneId(apiKey);
    let lane = this.lanes.get(id);
    if (!lane) {
      lane = { id, queue: new Fifo<string>(), urgent: new Fifo<string>(), signalled: new Fifo<string>(), inflight: 0, signalledInflight: 0, backoff: new FailureBackoff(this.limits.keyBackoff), listed: false };
      this.lanes.set(id, lane);
    }
    return lane;
  }

  /** The key's lane if it has one. */
  find(apiKey: string): Lane | undefined {
    return this.lanes.get(laneId(apiKey));
  }

  /** Puts `refId` at the end of its lane's queue (urgent: of the urgent queue; signalled: of the signed callbacks'). */
  push(lane: Lane, refId: string, urgent: boolean | "signalled"): void {
    (urgent === "signalled" ? lane.signalled : urgent ? lane.urgent : lane.queue).push(refId);
    // A signalled id need not wait for the lane's rate pause to end.
    this.list(lane, urgent === "signalled");
  }

  /** Takes `refId` out of whichever lane it waits in. */
  remove(refId: string): void {
    for (const lane of this.lanes.values()) if (lane.queue.remove(refId) || lane.urgent.remove(refId) || lane.signalled.remove(refId)) break;
  }

  /** Empties every lane (the ids are handed to `dropped`) and cancels their wake-ups. */
  clear(dropped: (refId: string) => void): void {
    for (const lane of this.lanes.values()) {
      lane.wake?.cancel();
      lane.wake = undefined;
      lane.wakeAt = undefined;
      const next = () => lane.queue.shift() ?? lane.urgent.shift() ?? lane.signalled.shift();
      for (let id = next(); id !== undefined; id = next()) dropped(id);
      lane.listed = false;
    }
    while (this.runnable.shift()) {
      // emptied: lanes are listed again as work comes
    }
  }

  cancelWakes(): void {
    for (const lane of this.lanes.values()) lane.wake?.cancel();
  }

  /** When paused lanes wake. */
  wakeTimes(): number[] {
    const times: number[] = [];
    for (const lane of this.lanes.values()) if (lane.wakeAt !== undefined) times.push(lane.wakeAt);
    return times;
  }

  /** A call on demand: counts toward the lane's rate, ahead of its turn and pause. */
  takeRate(lane: Lane, now: number): void {
    this.limiter.take(lane.id, now);
  }

  prune(now: number): void {
    this.limiter.prune(now);
  }

  /** A call of the lane starts (pump's, or one on demand). */
  started(lane: Lane, signalled = false): void {
    if (signalled) lane.signalledInflight++;
    else lane.inflight++;
    this.inflight++;
  }

  /** A call of the lane ended: the lane takes its turn again, or goes when it has nothing left. */
  ended(lane: Lane, signalled = false): void {
    if (signalled) lane.signalledInflight--;
    else lane.inflight--;
    this.inflight--;
    if (waiting(lane) > 0) this.list(lane, lane.signalled.size > 0);
    else if (lane.inflight === 0 && lane.signalledInflight === 0 && !lane.wake && lane.backoff.consecutiveFailures === 0) this.lanes.delete(lane.id);
  }

  /** Starts as many calls as the limits allow, lanes taking turns. */
  pump(): void {
    if (this.stopped()) return;
    const o = this.limits;
    while (this.inflight < o.concurrency) {
      const lane = this.runnable.shift();
      if (!lane) break;
      lane.listed = false;
      const now = this.clock.now();
      // The provider's own signed callbacks: as fast as they come, a bounded number at once per key
      // (they still count toward the rate, so the key's polling waits behind them). A key whose calls
      // fail gets one probe at a time, of either kind: its first answer lets the rest go.
      const failing = lane.backoff.consecutiveFailures > 0;
      const busy = lane.inflight + lane.signalledInflight;
      const signalledSlots = failing ? (busy === 0 ? 1 : 0) : o.perKeySignalledConcurrency;
      if (lane.signalled.size > 0 && lane.signalledInflight < signalledSlots && lane.backoff.pausedUntil() <= now) {
        this.limiter.take(lane.id, now);
        this.launch(lane, lane.signalled.shift()!, true);
        if (waiting(lane) > 0) this.list(lane, lane.signalled.size > 0);
        continue;
      }
      const slots = failing ? (busy === 0 ? 1 : 0) : o.perKeyConcurrency;
      if (lane.urgent.size + lane.queue.size === 0 || lane.inflight >= slots) continue; // re-listed when a call ends
      const wait = Math.max(lane.backoff.pausedUntil() - now, this.limiter.waitMs(lane.id, now));
      if (wait > 0) {
        this.wake(lane, now + wait);
        continue;
      }
      this.limiter.take(lane.id, now);
      this.launch(lane, (lane.urgent.shift() ?? lane.queue.shift())!, false);
      if (waiting(lane) > 0) this.list(lane);
    }
  }

  /** `evenIfWaking`: a lane paused for its rate takes a turn anyway (for its signalled ids). */
  private list(lane: Lane, evenIfWaking = false): void {
    if (lane.listed || (lane.wake && !evenIfWaking)) return;
    lane.listed = true;
    this.runnable.push(lane);
  }

  private wake(lane: Lane, at: number): void {
    if (lane.wake) return;
    lane.wakeAt = at;
    lane.wake = this.clock.setTimeout(() => {
      lane.wake = undefined;
      lane.wakeAt = undefined;
      this.list(lane);
      this.pump();
    }, Math.max(0, at - this.clock.now()));
  }
}

/** Ids waiting in a lane (signalled, urgent and ordinary). */
function waiting(lane: Lane): number {
  return lane.signalled.size + lane.urgent.size + lane.queue.size;
}
