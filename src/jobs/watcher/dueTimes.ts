/**
 * One due time per transaction, kept in a min-heap (stale entries are skipped lazily) with one
 * clock timer armed for the earliest: 10,000 open ids cost O(log n) per check, never a rescan.
 */
import type { Clock, TimerHandle } from "../../tools/clock.js";
import { DueQueue } from "../../tools/dueQueue.js";

export class DueTimes {
  private readonly heap = new DueQueue<string>();
  /** The current due time per id; heap entries that disagree are stale. */
  private readonly due = new Map<string, number>();
  private timer: { at: number; handle: TimerHandle } | undefined;
  private armed = false;

  /** `onTick(now)` runs when the earliest due time came; it takes what is due with `takeDue`. */
  constructor(
    private readonly clock: Clock,
    private readonly onTick: (now: number) => void,
  ) {}

  get size(): number {
    return this.due.size;
  }

  has(id: string): boolean {
    return this.due.has(id);
  }

  /** The id's current due time, if it has one. */
  at(id: string): number | undefined {
    return this.due.get(id);
  }

  /** Forgets every due time (the process stopped leading; the next leader reads them from the store). */
  clear(): void {
    this.due.clear(); // heap entries go stale and are dropped as they come up
  }

  /** Forgets the id's due time (its heap entry goes stale). */
  delete(id: string): void {
    this.due.delete(id);
  }

  set(id: string, at: number): void {
    this.due.set(id, at);
    this.heap.push(at, id);
    if (this.armed) this.arm(at);
  }

  /** From now on the timer runs (before, due times are only collected). */
  start(): void {
    this.armed = true;
    this.armNext();
  }

  stop(): void {
    this.armed = false;
    this.timer?.handle.cancel();
    this.timer = undefined;
  }

  /** Removes and returns the ids due at `now`. */
  takeDue(now: number): string[] {
    const out: string[] = [];
    for (let top = this.heap.peek(); top && top.at <= now; top = this.heap.peek()) {
      this.heap.pop();
      if (this.due.get(top.item) !== top.at) continue;
      this.due.delete(top.item);
      out.push(top.item);
    }
    return out;
  }

  /** The earliest due time or armed timer, if any. */
  nextAt(): number | undefined {
    this.dropStaleTop();
    const times = [this.heap.peek()?.at, this.timer?.at].filter((t): t is number => t !== undefined);
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  armNext(): void {
    this.dropStaleTop();
    const top = this.heap.peek();
    if (top) this.arm(top.at);
  }

  private arm(at: number): void {
    if (!this.armed || (this.timer && this.timer.at <= at)) return;
    this.timer?.handle.cancel();
    const delay = Math.max(0, at - this.clock.now());
    this.timer = {
      at,
      handle: this.clock.setTimeout(() => {
        this.timer = undefined;
        if (this.armed) this.onTick(this.clock.now());
      }, delay),
    };
  }

  private dropStaleTop(): void {
    for (let top = this.heap.peek(); top && this.due.get(top.item) !== top.at; top = this.heap.peek()) this.heap.pop();
  }
}
