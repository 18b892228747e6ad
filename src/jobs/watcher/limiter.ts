/**
 * A cap on calls per time window, per api key. A sliding window rather than a classic token
 * bucket: a bucket of N tokens refilled at N/s lets up to 2N calls through in some 1 s span
 * (a full bucket, then the refill), while this never lets more than N start in any `windowMs`.
 * Pure arithmetic on times handed in by the caller (the injected clock), so it never sleeps.
 */

export class WindowLimiter {
  /** Start times of the most recent calls, oldest first; at most `limit` of them. */
  private readonly starts: number[] = [];

  constructor(
    readonly limit: number,
    readonly windowMs = 1000,
  ) {
    if (!(limit >= 1)) throw new RangeError("limit must be at least 1");
  }

  /** 0 when a call may start at `now`, else how long to wait. */
  waitMs(now: number): number {
    if (this.starts.length < this.limit) return 0;
    return Math.max(0, this.starts[0]! + this.windowMs - now);
  }

  /** Records a call starting at `now`. Call only when `waitMs(now) === 0`. */
  take(now: number): void {
    this.starts.push(now);
    if (this.starts.length > this.limit) this.starts.shift();
  }

  /** True when the limiter remembers nothing that still matters at `now` (safe to drop). */
  idle(now: number): boolean {
    const last = this.starts[this.starts.length - 1];
    return last === undefined || last + this.windowMs <= now;
  }
}

/** One WindowLimiter per key, created on first use and forgotten once idle. */
export class KeyedLimiter {
  private readonly byKey = new Map<string, WindowLimiter>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 1000,
  ) {}

  waitMs(key: string, now: number): number {
    return this.byKey.get(key)?.waitMs(now) ?? 0;
  }

  take(key: string, now: number): void {
    let l = this.byKey.get(key);
    if (!l) this.byKey.set(key, (l = new WindowLimiter(this.limit, this.windowMs)));
    l.take(now);
  }

  /** Drops limiters with nothing left to remember (keeps memory bounded by active keys). */
  prune(now: number): void {
    for (const [k, l] of this.byKey) if (l.idle(now)) this.byKey.delete(k);
  }

  get size(): number {
    return this.byKey.size;
  }
}
