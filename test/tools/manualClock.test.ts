/** The tests' clock: advance fires every timer on its way; jump sleeps through and fires each due one once. */
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";

function every(clock: ManualClock, ms: number, seen: number[]): void {
  clock.setTimeout(() => {
    seen.push(clock.now());
    every(clock, ms, seen);
  }, ms);
}

describe("ManualClock", () => {
  it("advance fires a 5 s poll at each of its times", async () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    every(clock, 5_000, seen);
    await clock.advance(20_000);
    expect(seen).toEqual([5_000, 10_000, 15_000, 20_000]);
  });

  it("jump moves a day at once: each timer due fires once, at the new time, in due order; the poll goes on from there", async () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    const order: string[] = [];
    every(clock, 5_000, seen);
    clock.setTimeout(() => order.push("hour"), 3_600_000);
    clock.setTimeout(() => order.push("minute"), 60_000);
    clock.setTimeout(() => order.push("two days"), 2 * 86_400_000);
    await clock.jump(86_400_000);
    expect(clock.now()).toBe(86_400_000);
    expect(seen).toEqual([86_400_000]);
    expect(order).toEqual(["minute", "hour"]);
    await clock.advance(5_000);
    expect(seen).toEqual([86_400_000, 86_405_000]);
  });
});
