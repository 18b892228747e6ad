/** The timing the leader-only clock jobs share: due times on the clock, one run at a time, a stop and a fresh start. */
import { expect, it } from "vitest";
import { ScheduledJob } from "../../src/jobs/scheduledJob.js";
import { silentLogger } from "../../src/logging/logger.js";
import { ManualClock } from "../../src/tools/clock.js";
import { until } from "../support/settle.js";

const STEP = 60_000;

/** Due every minute; each run waits until released. */
class MinuteJob extends ScheduledJob {
  readonly log: string[] = [];
  private release: () => void = () => undefined;
  protected nextAt(now: number): number {
    return (Math.floor(now / STEP) + 1) * STEP;
  }
  protected due(at: number): void {
    void this.serially(async () => {
      this.log.push(`start ${at}`);
      await new Promise<void>((done) => (this.release = done));
      this.log.push(`end ${at}`);
    });
  }
  protected atStart(now: number): void {
    this.log.push(`atStart ${now}`);
  }
  finishRun(): void {
    this.release();
  }
  get stopped(): boolean {
    return this.signal.aborted;
  }
}

function job(clock: ManualClock) {
  const runner = new MinuteJob(clock, silentLogger, "test job", undefined);
  return { runner, log: runner.log, release: () => runner.finishRun() };
}

it("runs at each due time, one run after the other, and nothing after stop; a start after stop begins again", async () => {
  const clock = new ManualClock(10 * STEP + 5);
  const { runner, log, release } = job(clock);
  runner.start();
  runner.start(); // already started: no second timer
  expect(log).toEqual([`atStart ${10 * STEP + 5}`]);
  await clock.advance(STEP);
  expect(log).toEqual([`atStart ${10 * STEP + 5}`, `start ${11 * STEP}`]);
  await clock.advance(STEP); // the next is due while the first still runs: it waits its turn
  expect(log.at(-1)).toBe(`start ${11 * STEP}`);
  release();
  await until(() => log.at(-1) === `start ${12 * STEP}`);
  expect(log.slice(-2)).toEqual([`end ${11 * STEP}`, `start ${12 * STEP}`]);
  release();
  await runner.stop();
  const seen = log.length;
  await clock.advance(5 * STEP);
  expect(log).toHaveLength(seen);

  runner.start();
  expect(log.at(-1)).toBe(`atStart ${clock.now()}`);
  expect(runner.stopped).toBe(false);
  await runner.stop();
});
