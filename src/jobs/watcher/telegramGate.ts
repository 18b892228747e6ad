/**
 * Notices waiting for Telegram to answer again (their delivery met a 5xx, a timeout or a 429). One of
 * them, the probe, is tried again soon, after a pause that grows with each failure in a row (1, 2, 4,
 * then every 5 s); the others wait the slow retry (`notifyRetryMs`), and all of them go at once as
 * soon as a notice gets through. So news comes within the probe's cap (plus its own check and sends)
 * of Telegram answering again, and a long outage costs one probe per cap, not one call per waiting
 * notice that often. A 429's retry_after is waited out by the shared pacer before any send goes.
 * Clock-free: the watcher passes the time and applies the answers (its due times).
 */
import { backoffDelay, type BackoffOptions } from "./backoff.js";

export class TelegramGate {
  private failures = 0;
  /** When the probe is due: until then another failing notice waits for it. */
  private probeAt = 0;
  private readonly waiting = new Set<string>();

  constructor(private readonly probe: BackoffOptions) {}

  /**
   * The notice of `refId` met a Telegram failure at `now`: when it is tried again. `notBefore`: when
   * sends may go again (a 429's retry_after), so the probe does not sit waiting for the pacer.
   */
  failed(refId: string, now: number, slowMs: number, notBefore = 0): number {
    if (now >= this.probeAt) {
      // No probe pending (or this is it, or it went elsewhere): this notice probes.
      this.waiting.delete(refId);
      this.probeAt = Math.max(now + backoffDelay(this.failures++, this.probe), notBefore);
      return this.probeAt;
    }
    this.waiting.add(refId);
    return Math.max(now + slowMs, notBefore);
  }

  /** A notice got through: Telegram answers again. Returns the notices to try now. */
  answered(): string[] {
    this.failures = 0;
    this.probeAt = 0;
    const due = [...this.waiting];
    this.waiting.clear();
    return due;
  }
}
