/**
 * How long to wait before the next status check: a short first wait after creation, then
 * doubling up to a cap. Deterministic (no jitter) so tests can assert the exact check times;
 * checks still spread out because transactions are created at different moments.
 */

export interface BackoffOptions {
  /** Wait before the first check (attempt 0). */
  firstMs: number;
  /** Multiplier per attempt. */
  factor: number;
  /** Longest wait. */
  capMs: number;
}

/** The wait after `attempts` checks have been made: firstMs, firstMs*factor, ... capped. */
export function backoffDelay(attempts: number, opts: BackoffOptions): number {
  const n = Math.max(0, Math.floor(attempts));
  // Exponent bounded so a huge attempt count cannot overflow to Infinity/NaN.
  const raw = opts.firstMs * Math.pow(Math.max(1, opts.factor), Math.min(n, 64));
  return Math.max(0, Math.min(opts.capMs, raw));
}

/**
 * Consecutive failures of one api key (provider down, timeouts): the key pauses on its own,
 * longer after each failure up to the cap, and recovers on the first answer. While it fails, each
 * pause ends in one probe (a single status call, lanes.ts), so the cap is how late a recovery is seen.
 */
export class FailureBackoff {
  private failures = 0;
  private until = 0;

  constructor(private readonly opts: BackoffOptions) {}

  /** Records a failure at `now`; returns when the key may be tried again. */
  fail(now: number): number {
    this.until = now + backoffDelay(this.failures, this.opts);
    this.failures++;
    return this.until;
  }

  succeed(): void {
    this.failures = 0;
    this.until = 0;
  }

  /** Epoch ms before which the key should rest (0 when healthy). */
  pausedUntil(): number {
    return this.until;
  }

  get consecutiveFailures(): number {
    return this.failures;
  }
}
