import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { SendPacer } from "../../src/telegram/pacer.js";
import { ManualClock } from "../../src/tools/clock.js";

describe("SendPacer's waits on a signal", () => {
  it("many waits on one signal (a job's stop) hold one abort listener, and an abort ends them all", async () => {
    const clock = new ManualClock();
    const pacer = new SendPacer(clock, 10, { burst: 1 });
    const stop = new AbortController();
    // A thousand shop receipts queued behind one job's stop signal: a listener each made node warn
    // (MaxListenersExceededWarning) and cost an O(n) add per wait.
    const waits = Array.from({ length: 1000 }, () => pacer.take(stop.signal));
    expect(getEventListeners(stop.signal, "abort")).toHaveLength(1);
    await clock.advance(1000); // eleven slots go out: at 0, 100, ..., 1000 ms
    stop.abort();
    const slots = await Promise.all(waits);
    expect(slots.filter((s) => s !== undefined)).toHaveLength(11);
    expect(getEventListeners(stop.signal, "abort")).toHaveLength(0);
    // The aborted ones took no slot: another sender goes on at the pace.
    const other = pacer.take();
    await clock.advance(100);
    expect(await other).toBeDefined();
  });

  it("a signal's listener goes once its waits were all served", async () => {
    const clock = new ManualClock();
    const pacer = new SendPacer(clock, 10, { burst: 1 });
    const stop = new AbortController();
    for (let round = 0; round < 3; round++) {
      const waits = Array.from({ length: 5 }, () => pacer.take(stop.signal));
      await clock.advance(1000);
      expect((await Promise.all(waits)).every((s) => s !== undefined)).toBe(true);
      expect(getEventListeners(stop.signal, "abort")).toHaveLength(0);
    }
  });

  it("an abort ends only the waits on that signal, answers and bulk alike", async () => {
    const clock = new ManualClock();
    const pacer = new SendPacer(clock, 10, { burst: 1 });
    await pacer.take(); // the one token
    const a = new AbortController();
    const b = new AbortController();
    const onA = [pacer.take(a.signal, "answer"), pacer.take(a.signal, "bulk")];
    const onB = [pacer.take(b.signal, "answer"), pacer.take(b.signal, "bulk")];
    a.abort();
    expect(await Promise.all(onA)).toEqual([undefined, undefined]);
    await clock.advance(200);
    expect((await Promise.all(onB)).every((s) => s !== undefined)).toBe(true);
  });
});
