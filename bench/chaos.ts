/**
 * The chaos run's long mode (test/chaos/chaosRun.ts; the suite runs a short one): `--faults N` faults
 * (quick: 200, --full: 10,000) among resellers' purchases, bills, transfers and deposits (the
 * provider's signed callbacks on, some lost or late), in worlds of
 * at most 250 faults each (seeds `--seed`, +1, ...), so memory and the sandbox's call log stay bounded
 * and the store's clean reopening is checked once per world. Prints one BENCH_RESULT line (for run.ts)
 * and, run on its own, writes its section ("### Chaos run") into bench/results.md.
 *
 *   npx tsx bench/chaos.ts --faults 10000 [--seed 1] [--provider-timeout-ms 2000]
 *
 * On a shared machine the long run can go in parallel parts: each part `--faults 2500 --seed 101
 * --save part1.json`, then `npx tsx bench/chaos.ts --merge part1.json part2.json ...` writes the figures.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runChaos, type ChaosReport } from "../test/chaos/chaosRun.js";
import { FAULT_KINDS } from "../test/chaos/schedule.js";
import { FULL, report, type BenchResult } from "./lib.js";

const WORLD_FAULTS = 250;
const WAIT_GOAL_MS = 10_000;

function arg(name: string): number | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : undefined;
}

function text(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const faults = arg("faults") ?? (FULL ? 10_000 : 200);
const firstSeed = arg("seed") ?? 1;
const standalone = !process.argv.includes("--from-run") && !process.argv.includes("--save");

const merge = process.argv.indexOf("--merge");
const runs: ChaosReport[] = [];
if (merge >= 0) {
  for (const file of process.argv.slice(merge + 1)) runs.push(...(JSON.parse(await readFile(file, "utf8")) as ChaosReport[]));
} else {
  // A fault drawn while one of its kind is under way is left out: worlds are added until enough were injected.
  for (let seed = firstSeed, injected = 0; injected < faults; seed++) {
    const size = Math.min(WORLD_FAULTS, Math.ceil((faults - injected) * 1.1));
    const r = await runChaos({
      seed,
      faults: size,
      ...(arg("provider-timeout-ms") !== undefined ? { upstreamTimeoutMs: arg("provider-timeout-ms")! } : {}),
      progress: (done, total) => process.stderr.write(`\rseed ${seed}: ${done}/${total} events`),
    });
    injected += r.faultTotal;
    process.stderr.write(`\rseed ${seed}: ${r.faultTotal} faults (${injected} in all), ${r.violations.length} violations, longest wait ${r.longestWaitMs} ms (${r.longestWaitWhy}), after a lost callback ${r.lostCallbackWaitMs} ms (${r.lostCallbackWaitWhy}), callbacks ${JSON.stringify(r.callbacks)}, clock moved for ${r.drivenClock} waits, waits by kind ${JSON.stringify(r.waitsByKind)}, ${Math.round(r.realMs / 1000)} s\n`);
    for (const v of r.violations) process.stderr.write(`  - ${v}\n`);
    runs.push({ ...r, events: [] });
    const save = text("save");
    if (save) await writeFile(save, JSON.stringify(runs));
  }
}
const seeds = runs.map((r) => r.seed).sort((a, b) => a - b);

const sum = (f: (r: ChaosReport) => number) => runs.reduce((a, r) => a + f(r), 0);
const byKind = FAULT_KINDS.map((k) => [k, sum((r) => r.faults[k])] as const).filter(([, n]) => n > 0);
const violations = runs.flatMap((r) => r.violations.map((v) => `seed ${r.seed}: ${v}`));
const longest = runs.reduce((a, r) => (r.longestWaitMs > a.longestWaitMs ? r : a), runs[0]!);
const longestLost = runs.reduce((a, r) => (r.lostCallbackWaitMs > a.lostCallbackWaitMs ? r : a), runs[0]!);
const waits = new Map<string, number>();
for (const r of runs) for (const [k, ms] of Object.entries(r.waitsByKind)) waits.set(k, Math.max(ms, waits.get(k) ?? 0));
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** 1, 2, 3, 101, 102 -> "1–3, 101–102". */
function seedRanges(list: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < list.length; ) {
    let j = i;
    while (j + 1 < list.length && list[j + 1] === list[j]! + 1) j++;
    parts.push(i === j ? String(list[i]) : `${list[i]}–${list[j]}`);
    i = j + 1;
  }
  return parts.join(", ");
}
const hours = (ms: number) => `${(ms / 3_600_000).toFixed(1)} h`;

const result: BenchResult = {
  name: "Chaos run",
  setup:
    `${sum((r) => r.faultTotal).toLocaleString("en")} faults drawn from ${runs.length} seeds (${seedRanges(seeds)}; worlds of ≤ ${WORLD_FAULTS.toLocaleString("en")} faults, 4 resellers each, file store, ` +
    "the real bot, the sandbox over HTTP, the fake Bot API, one manual clock); every fault ended and the clock run 2 h before the checks.",
  rows: [
    { metric: "Faults injected", value: `${sum((r) => r.faultTotal).toLocaleString("en")}: ${byKind.map(([k, n]) => `${k} ${n}`).join(", ")}`, target: "≥ 10,000 (long mode)", ok: FULL || merge >= 0 || faults >= 10_000 ? sum((r) => r.faultTotal) >= 10_000 : undefined },
    { metric: "Invariant violations", value: violations.length === 0 ? "0" : `${violations.length}: ${violations.slice(0, 5).join("; ")}`, target: "0", ok: violations.length === 0 },
    {
      metric: "Longest wait for news after the fault that delayed it ended (clock; outcomes whose callback was lost apart, below)",
      value: `${s(longest.longestWaitMs)} (${longest.longestWaitWhy}, seed ${longest.seed}); by the kind of that fault: ${[...waits].sort((a, b) => b[1] - a[1]).map(([k, ms]) => `${k} ${s(ms)}`).join(", ")}`,
      target: "≤ 10 s",
      ok: longest.longestWaitMs <= WAIT_GOAL_MS,
    },
    {
      metric: "Longest wait for news of an outcome whose provider callback was lost (clock; caught by the next poll)",
      value: `${s(longestLost.lostCallbackWaitMs)}${longestLost.lostCallbackWaitWhy ? ` (${longestLost.lostCallbackWaitWhy}, seed ${longestLost.seed})` : ""}`,
    },
    {
      metric: "Provider callbacks delivered / lost / held (then delivered)",
      value: `${sum((r) => r.callbacks.delivered).toLocaleString("en")} / ${sum((r) => r.callbacks.lost).toLocaleString("en")} / ${sum((r) => r.callbacks.late).toLocaleString("en")}`,
    },
    { metric: "Resellers' updates answered / outcomes checked / outcome notices", value: `${sum((r) => r.updates).toLocaleString("en")} / ${sum((r) => r.transactions).toLocaleString("en")} / ${sum((r) => r.notices).toLocaleString("en")}` },
    {
      metric: "Shop orders made / QRIS paid at the provider / of those done",
      value: `${sum((r) => r.orders?.total ?? 0).toLocaleString("en")} / ${sum((r) => r.orders?.paid ?? 0).toLocaleString("en")} / ${sum((r) => r.orders?.done ?? 0).toLocaleString("en")}`,
    },
    { metric: "Storage failures answered with the storage words (logged, by design)", value: String(sum((r) => r.storageErrors)) },
    { metric: "Clock time covered / real time", value: `${hours(sum((r) => r.clockMs))} / ${s(sum((r) => r.realMs))}` },
  ],
  notes: [
    "Invariants: no create twice for one reference; every outcome the provider holds told once (a notice naming the reference, or, after an uncertain delivery, the edited message) and the store agreeing with the provider; every update answered (of a duplicate, one of the two); no handler error other than a storage failure answered with the storage words; no api key or bot token in the log; the store reopening with every transaction; every shop order whose QRIS the provider holds as paid ends done with one successful purchase, or failed / in its refund (never left paid, buying, unknown or awaiting payment), and no order bought twice.",
    "Telegram's 429/5xx/timeouts hit what the bot sends in the background (notices, edits): the interactive answers' own retries wait in real time (auto-retry), which a run on the clock cannot afford.",
    "The provider's signed callbacks are on (PUBLIC_URL, each chat's token, as after /webhook): the sandbox POSTs every change over HTTP to the app's route, which only makes the watcher ask the status endpoint; a callback sent while the app restarts is lost, `callback-lost` loses every callback sent while it lasts, `callback-late` holds them until it ends, and forged callbacks (a wrong signature, or a right one claiming a success the status endpoint denies) stay a fault of their own.",
    "A lost callback's news waits for the item's next poll: a chat whose callbacks work has its pending items polled when their age doubles (every max(1 min, age), at most 10 min apart; watcherOptions.ts), so that wait is counted apart from the ≤ 10 s goal: no fault end the bot could see says anything changed, and meeting 10 s there would mean polling every pending item every 10 s, which is what callbacks are there to avoid.",
    "Replay a seed: `npx tsx bench/chaos.ts --faults 1000 --seed N` (or runChaos({ seed, faults }) in a test, which prints the events of a failing run).",
  ],
};

report(result);

if (standalone) {
  // The section of bench/results.md this run owns; the rest of the file is left as it is.
  const file = join(import.meta.dirname, "results.md");
  const lines = [`### ${result.name}`, "", `Setup: ${result.setup}`, "", "| Metric | Value | Target | |", "|---|---|---|---|"];
  for (const row of result.rows) lines.push(`| ${row.metric} | ${row.value} | ${row.target ?? ""} | ${row.ok === undefined ? "" : row.ok ? "met" : "**missed**"} |`);
  for (const n of result.notes ?? []) lines.push("", `- ${n}`);
  const section = `${lines.join("\n")}\n`;
  const text = await readFile(file, "utf8");
  const start = text.indexOf(`### ${result.name}\n`);
  const end = start < 0 ? -1 : text.indexOf("\n### ", start + 1);
  const next = start < 0 ? `${text.trimEnd()}\n\n${section}` : `${text.slice(0, start)}${section}${end < 0 ? "" : text.slice(end)}`;
  await writeFile(file, next);
  process.stderr.write("written to bench/results.md (### Chaos run)\n");
}
// On its own a violation fails the run (run.ts shows it as a missed target instead).
process.exit(standalone && violations.length > 0 ? 1 : 0);
