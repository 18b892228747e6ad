/** Shared helpers for the benchmark scripts: percentiles, memory, result hand-off to run.ts. */
import { monitorEventLoopDelay } from "node:perf_hooks";

export const FULL = process.argv.includes("--full");

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summarize(samples: number[]): { p50: number; p95: number; p99: number; max: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s[s.length - 1] ?? NaN };
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const ms = (v: number) => `${v.toFixed(v < 10 ? 2 : 1)} ms`;

/** Longest event-loop stall while `fn` runs (perf_hooks histogram, 1 ms resolution). */
export async function withLoopMonitor<T>(fn: () => Promise<T>): Promise<{ result: T; maxStallMs: number }> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  try {
    const result = await fn();
    return { result, maxStallMs: h.max / 1e6 };
  } finally {
    h.disable();
  }
}

export interface BenchRow {
  /** What was measured. */
  metric: string;
  value: string;
  target?: string;
  /** true = target met, false = missed, undefined = no target. */
  ok?: boolean;
}

export interface BenchResult {
  name: string;
  setup: string;
  rows: BenchRow[];
  notes?: string[];
}

/** Each bench script runs in its own process (clean memory figures) and prints one JSON line. */
export function report(result: BenchResult): void {
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
}
