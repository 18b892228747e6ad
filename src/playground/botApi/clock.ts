/** The emulator's time source: message dates, update dates, flood control windows. */

/** `() => ms` or anything with `now(): ms` (e.g. src/tools/clock.ts `Clock`). */
export type ClockLike = (() => number) | { now(): number };

export const toClockFn = (clock: ClockLike | undefined): (() => number) =>
  clock === undefined ? () => Date.now() : typeof clock === "function" ? clock : () => clock.now();
