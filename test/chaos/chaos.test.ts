/**
 * The chaos run's short mode (chaosRun.ts): a few seeds, each a schedule of resellers' purchases,
 * bills, transfers and deposits among faults of every kind, then the invariants. A failing seed
 * prints itself and its events, so the same run can be replayed (`runChaos({ seed, faults })`).
 */
import { expect, it } from "vitest";
import { runChaos } from "./chaosRun.js";
import { describeRun } from "./invariants.js";

const SEEDS = [1, 2, 3];
const FAULTS = 25;

it.each(SEEDS)("seed %i: no create twice, every outcome told once, no answer lost, no handler error, no key in the log, the store reopens", { timeout: 40_000 }, async (seed) => {
  const report = await runChaos({ seed, faults: FAULTS });
  expect(report.violations, describeRun(report)).toEqual([]);
  expect(report.faultTotal).toBeGreaterThan(FAULTS / 2);
  expect(report.transactions).toBeGreaterThan(0);
});
