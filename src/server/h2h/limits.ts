/**
 * What bounds one H2H key (docs/h2h.md "Limits"): calls a minute and calls in flight, and who the
 * caller is: the socket's address, or with TRUST_PROXY (the number of proxies in front of the bot) the
 * X-Forwarded-For entry that many hops from the right (what the nearest proxy saw).
 */
import type { Clock } from "../../tools/clock.js";

export const H2H_CALLS_PER_MINUTE = 600;
export const H2H_IN_FLIGHT = 8;

/** Per key, a fixed one-minute window and a count of calls in flight; forgets idle keys. */
export class KeyLimits {
  private readonly windows = new Map<number, { start: number; n: number }>();
  private readonly inFlight = new Map<number, number>();

  constructor(
    private readonly clock: Clock,
    private readonly perMinute = H2H_CALLS_PER_MINUTE,
    private readonly maxInFlight = H2H_IN_FLIGHT,
  ) {}

  /** A release function when the call may run now; undefined when over either limit. */
  enter(key: number): (() => void) | undefined {
    const now = this.clock.now();
    if (this.windows.size > 10_000) for (const [k, w] of this.windows) if (now - w.start >= 60_000) this.windows.delete(k);
    let w = this.windows.get(key);
    if (!w || now - w.start >= 60_000 || now < w.start) this.windows.set(key, (w = { start: now, n: 0 }));
    const running = this.inFlight.get(key) ?? 0;
    if (w.n >= this.perMinute || running >= this.maxInFlight) return undefined;
    w.n++;
    this.inFlight.set(key, running + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const left = (this.inFlight.get(key) ?? 1) - 1;
      if (left > 0) this.inFlight.set(key, left);
      else this.inFlight.delete(key);
    };
  }
}

/** The caller's address: the socket's, or with `trustProxy` hops the forwarded entry the nearest trusted proxy saw. */
export function callerIp(socketAddress: string | undefined, forwardedFor: string | undefined, trustProxy: number): string {
  const socket = (socketAddress ?? "").replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  if (trustProxy <= 0 || !forwardedFor) return socket;
  const hops = forwardedFor.split(",").map((s) => s.trim()).filter((s) => s !== "");
  // The last `trustProxy` addresses on the way were added by our proxies; the one before is the caller.
  return hops[Math.max(0, hops.length - trustProxy)] ?? socket;
}
