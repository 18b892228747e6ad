/**
 * An H2H key's bounds (docs/h2h.md "Limits"): calls a minute and calls in flight on the injected clock,
 * and whose IP a call is: the socket's, or behind TRUST_PROXY proxies the address the nearest one saw.
 */
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { callerIp, KeyLimits } from "../../src/server/h2h/limits.js";

describe("H2H limits", () => {
  it("lets a key make its calls a minute and so many at once, then refuses until one ends or the minute turns", async () => {
    const clock = new ManualClock(0);
    const limits = new KeyLimits(clock, 5, 2);
    const a = limits.enter(1);
    const b = limits.enter(1);
    expect(a && b).toBeTruthy();
    expect(limits.enter(1)).toBeUndefined(); // two in flight
    expect(limits.enter(2)).toBeDefined(); // another key is not held up
    a!();
    a!(); // a second release frees nothing more
    const c = limits.enter(1);
    expect(c).toBeDefined();
    expect(limits.enter(1)).toBeUndefined();
    b!();
    c!();
    limits.enter(1)!();
    limits.enter(1)!();
    expect(limits.enter(1)).toBeUndefined(); // 5 this minute
    await clock.advance(60_000);
    expect(limits.enter(1)).toBeDefined();
  });

  it("reads the caller's IP from the socket unless proxies are trusted, then from X-Forwarded-For that many hops from the right", () => {
    expect(callerIp("::ffff:127.0.0.1", "6.6.6.6", 0)).toBe("127.0.0.1");
    expect(callerIp("10.0.0.2", "6.6.6.6, 203.0.113.7", 1)).toBe("203.0.113.7");
    expect(callerIp("10.0.0.2", "6.6.6.6, 203.0.113.7, 10.0.0.9", 2)).toBe("203.0.113.7");
    expect(callerIp("10.0.0.2", undefined, 1)).toBe("10.0.0.2");
    expect(callerIp("10.0.0.2", "203.0.113.7", 3)).toBe("203.0.113.7");
  });
});
