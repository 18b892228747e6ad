/**
 * What a signed callback's check costs the provider: the ids it names are checked at once, at most
 * `perKeySignalledConcurrency` at a time per key, while the key's polling stays under its rate.
 */
import { describe, expect, it } from "vitest";
import { Lanes, type Lane } from "../../src/jobs/watcher/lanes.js";
import { ManualClock } from "../../src/tools/clock.js";

function lanes(perKeyConcurrency = 2) {
  const clock = new ManualClock();
  const started: { refId: string; signalled: boolean; lane: Lane }[] = [];
  const l = new Lanes(
    clock,
    { concurrency: 16, perKeyConcurrency, perKeyPerSecond: 5, perKeySignalledConcurrency: 4, keyBackoff: { firstMs: 5_000, factor: 2, capMs: 300_000 } },
    (lane, refId, signalled) => {
      l.started(lane, signalled);
      started.push({ refId, signalled, lane });
    },
    () => false,
  );
  const end = (refId: string) => {
    const s = started.find((x) => x.refId === refId)!;
    l.ended(s.lane, s.signalled);
    l.pump();
  };
  return { clock, l, started, end };
}

describe("checks asked for by signed callbacks", () => {
  it("30 signalled ids on one key: 4 start at once, the next as soon as one ends, all before the clock moves; never more than 4 in flight", async () => {
    const { l, started, end } = lanes();
    const lane = l.laneOf("KEY");
    for (let i = 0; i < 30; i++) l.push(lane, `S${i}`, "signalled");
    l.pump();
    expect(started.map((s) => s.refId)).toEqual(["S0", "S1", "S2", "S3"]);
    for (let i = 0; i < 26; i++) {
      end(`S${i}`);
      expect(lane.signalledInflight).toBeLessThanOrEqual(4);
    }
    expect(started).toHaveLength(30);
    expect(started.every((s) => s.signalled)).toBe(true);
  });

  it("ordinary polls of the same key stay under its rate (5 a second), and the signalled calls count toward it", async () => {
    const { clock, l, started, end } = lanes(16);
    const lane = l.laneOf("KEY");
    const polls = () => started.filter((s) => !s.signalled).length;
    for (let i = 0; i < 3; i++) l.push(lane, `S${i}`, "signalled");
    for (let i = 0; i < 10; i++) l.push(lane, `P${i}`, false);
    l.pump();
    expect(started.filter((s) => s.signalled)).toHaveLength(3);
    expect(polls()).toBe(2); // 3 signalled + 2 polls: the second's 5
    for (const s of [...started]) end(s.refId);
    expect(polls()).toBe(2);
    await clock.advance(1_000);
    expect(polls()).toBe(7);
  });
});
