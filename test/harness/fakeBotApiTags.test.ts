/**
 * The fake Bot API tags the calls an update makes (chat.ts reads them). Its tags live in one
 * AsyncLocalStorage for the process: one per fake stayed enabled for good and each was copied into every
 * promise made afterwards, so a worker that had built a few hundred test worlds ran every test ~15x slower.
 */
import { expect, it } from "vitest";
import { FakeBotApi } from "../support/fakeBotApi.js";
import { createToyBot } from "./toyBot.js";

/**
 * CPU milliseconds to make and settle `n` promises, the cost an enabled AsyncLocalStorage adds to (CPU
 * time of this process, so other processes on a loaded machine do not count).
 */
async function promiseCost(n: number): Promise<number> {
  const t0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await Promise.resolve(i);
  const used = process.cpuUsage(t0);
  return (used.user + used.system) / 1000;
}

it("each fake tags the calls made in its own tagged run, also inside another fake's", async () => {
  const a = new FakeBotApi();
  const b = new FakeBotApi();
  const botA = createToyBot({ fetch: a.fetch });
  const botB = createToyBot({ fetch: b.fetch });
  await a.runTagged("A", async () => {
    await b.runTagged("B", async () => {
      await botA.api.sendMessage(10, "a1");
      await botB.api.sendMessage(10, "b1");
    });
    await botA.api.sendMessage(10, "a2");
    await botB.api.sendMessage(10, "b2");
  });
  await botA.api.sendMessage(10, "a3");
  expect(a.calls.map((c) => [c.payload.text, c.tag])).toEqual([["a1", "A"], ["a2", "A"], ["a3", undefined]]);
  expect(b.calls.map((c) => [c.payload.text, c.tag])).toEqual([["b1", "B"], ["b2", undefined]]);
});

it("three hundred fakes that each tagged a run leave the cost of a promise as it was", async () => {
  const before = Math.min(await promiseCost(50_000), await promiseCost(50_000));
  for (let i = 0; i < 300; i++) {
    const fake = new FakeBotApi();
    await fake.runTagged(i, async () => undefined);
  }
  const after = Math.min(await promiseCost(50_000), await promiseCost(50_000));
  expect(after).toBeLessThan(before * 5 + 30); // one AsyncLocalStorage per fake: ~100x
});
