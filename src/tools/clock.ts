/**
 * Time is injected everywhere it drives behaviour (sandbox transitions, watcher backoff, expiry,
 * alerts, broadcast pacing) so tests advance it instead of sleeping.
 */
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  now(): number;
  /** Runs `fn` once after `ms` milliseconds of this clock's time. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Resolves after `ms` milliseconds of this clock's time. */
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** A clock that only moves when a test calls `advance`; timers fire in due order. */
export class ManualClock implements Clock {
  private current: number;
  private timers: Pending[] = [];
  private seq = 0;

  constructor(start: number | Date = Date.UTC(2026, 0, 15, 3, 0, 0)) {
    this.current = typeof start === "number" ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const p: Pending = { at: this.current + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
    this.timers.push(p);
    return { cancel: () => void (p.cancelled = true) };
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, ms));
  }

  /** Moves time forward, firing due timers in order and letting promise callbacks settle between them. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await flushMicrotasks();
      const due = this.timers
        .filter((t) => !t.cancelled && t.at <= target)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.current = target;
    this.timers = this.timers.filter((t) => !t.cancelled);
    await flushMicrotasks();
  }

  /**
   * Moves time forward at once, as a process that slept through it: each timer due by then fires once,
   * in due order, at the new time (a timer that sets itself again is due from then). For long spans
   * (a day) where firing every 5 s poll in between costs seconds and tells nothing.
   */
  async jump(ms: number): Promise<void> {
    await flushMicrotasks();
    this.current += ms;
    await this.advance(0);
  }

  /** Number of timers waiting (for assertions about scheduling). */
  pendingTimers(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }
}

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise<void>((resolve) => setImmediate(resolve));
}
