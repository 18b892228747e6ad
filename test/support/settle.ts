/**
 * Waiting in tests. Work that runs partly on the ManualClock and partly on real I/O (files, HTTP to
 * the sandbox, PostgreSQL) finishes only when both move: these step the clock with a little real time
 * between steps, bounded, and fail with `what` when the bound is reached.
 */
import { expect } from "vitest";
import type { ManualClock } from "../../src/tools/clock.js";

export interface Steps {
  /** Clock time per step (default 20 ms). */
  stepMs?: number;
  /** Real time per step, for I/O to land (default 1 ms). */
  realMs?: number;
  /** Steps before giving up (default 3000). */
  tries?: number;
  /** What did not happen, for the failure message. */
  what?: string;
}

/**
 * Options for `vi.waitFor` on work that needs only real time (the clock stands still): vitest's
 * default bound (1 s) is reached on a loaded machine while the work still goes on; this one is not.
 */
export const REAL_TIME_BOUND = { timeout: 15_000, interval: 5 } as const;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One turn of the event loop: I/O callbacks already due run, no clock time passes. */
export const ioTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** Advances `clock` in steps until `p` settles; returns `p` (a rejection too). */
export async function settle<T>(clock: ManualClock, p: Promise<T>, steps: Steps = {}): Promise<T> {
  const { stepMs = 20, realMs = 1, tries = 3000, what = "background work did not finish" } = steps;
  let done = false;
  void p.finally(() => (done = true)).catch(() => undefined);
  for (let i = 0; i < tries && !done; i++) {
    await pause(realMs);
    await clock.advance(stepMs);
  }
  expect(done, what).toBe(true);
  return p;
}

/**
 * Waits until `cond` holds, advancing `clocks` (none: only real time passes) a step at a time.
 * For what a real server answers when it answers (PostgreSQL, a second process).
 */
export async function until(cond: () => boolean | Promise<boolean>, steps: Steps & { clocks?: ManualClock[] } = {}): Promise<void> {
  const { clocks = [], stepMs = 20, realMs = 1, tries = 3000, what = "the condition never held" } = steps;
  for (let i = 0; i < tries; i++) {
    if (await cond()) return;
    await pause(realMs);
    for (const clock of clocks) await clock.advance(stepMs);
  }
  expect(await cond(), what).toBe(true);
}
