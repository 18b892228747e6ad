/**
 * `npm run bench` (quick, < 2 min on 2 cores) or `npm run bench -- --full` (the sizes of the
 * issue). Runs each benchmark in its own process, prints one table and writes bench/results.md.
 * Name benchmarks to run only those (`npm run bench -- store confirm`), or a group with
 * `--only updates|history|watcher|callbacks` (comma-separated for several; "watcher" is the polling
 * runs, PostgreSQL's included, "callbacks" the runs with the provider's callbacks).
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import type { BenchResult } from "./lib.js";

const full = process.argv.includes("--full");
const onlyAt = process.argv.indexOf("--only");
const groups = onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? "").split(",").filter(Boolean) : [];
const only = process.argv.slice(2).filter((a, i, all) => !a.startsWith("--") && all[i - 1] !== "--only");
// At the full size (100 pending ids per key) the default per-key cap of 5 calls/s bounds how soon a
// change can be seen; the second watcher run shows the same scenario with the cap raised to 20/s.
const RUNS: { name: string; args: string[]; group?: string }[] = [
  { name: "updates", args: [] },
  { name: "broadcast", args: [] },
  { name: "flood", args: [] },
  { name: "watcher", args: [] },
  ...(full ? [{ name: "watcher", args: ["--options", JSON.stringify({ perKeyPerSecond: 20 })] }] : []),
  // Production pacing: notices share the 29/s pacer with every other send (the figure docs/benchmarks.md gives).
  { name: "watcher", args: ["--pacer"] },
  // The provider's callbacks: every change announced at once; 10% lost, polling catches them.
  { name: "watcher", args: ["--callbacks"], group: "callbacks" },
  // The same on a machine shared with other work: one CPU-spinning process per core, and one more.
  { name: "watcher", args: ["--callbacks", "--load", String(cpus().length + 1)], group: "callbacks" },
  { name: "watcher", args: ["--callbacks", "--lose", "0.1"], group: "callbacks" },
  { name: "watcher", args: ["--callbacks", "--pacer"], group: "callbacks" },
  // The unpaced scenario with the bot's store on PostgreSQL (a skip note without it).
  { name: "watcher", args: ["--pg"] },
  { name: "store", args: [] },
  // Confirm press -> the provider's create call, file store and PgStore (PostgreSQL rows skipped without it).
  { name: "confirm", args: [] },
  { name: "startup", args: [] },
  // A reseller's network (issue 37): 1,000 downlines of one owner buying at once beside as many owners.
  { name: "network", args: [] },
  // The claim alone on PgStore: a downline's hold beside an owner's claim, round trips and latency.
  { name: "walletClaim", args: [] },
  // A downline's /mutasi pages: a year of entries for 1,000 downlines on PostgreSQL; the file store at a size that fits.
  { name: "mutasi", args: [] },
  // Downlines' own systems over H2H (issue 38): status and create at 100 keys beside a bare node:http server.
  { name: "h2h", args: [] },
  { name: "history", args: [] },
  // Faults of every kind among resellers' money actions, then the invariants (quick: 200 faults, full: 10,000).
  { name: "chaos", args: ["--from-run"] },
].filter((b) => (only.length === 0 || only.includes(b.name)) && (groups.length === 0 || groups.includes(b.group ?? b.name)));

function runOne({ name, args: extra }: { name: string; args: string[] }): Promise<BenchResult> {
  return new Promise((resolve, reject) => {
    const args = ["--import", "tsx", join(import.meta.dirname, `${name}.ts`), ...(full ? ["--full"] : []), ...extra];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("BENCH_RESULT "));
      if (code !== 0 || !line) return reject(new Error(`bench ${name} failed (exit ${code})\n${out}`));
      resolve(JSON.parse(line.slice("BENCH_RESULT ".length)) as BenchResult);
    });
  });
}

function table(results: BenchResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    lines.push(`### ${r.name}`, "", `Setup: ${r.setup}`, "", "| Metric | Value | Target | |", "|---|---|---|---|");
    for (const row of r.rows) {
      const verdict = row.ok === undefined ? "" : row.ok ? "met" : "**missed**";
      lines.push(`| ${row.metric} | ${row.value} | ${row.target ?? ""} | ${verdict} |`);
    }
    for (const n of r.notes ?? []) lines.push("", `- ${n}`);
    lines.push("");
  }
  return lines.join("\n");
}

const started = Date.now();
const results: BenchResult[] = [];
for (const run of RUNS) {
  console.error(`running ${run.name} ${run.args.join(" ")}…`);
  results.push(await runOne(run));
}
const header = [
  "# Benchmark results",
  "",
  `Mode: ${full ? "full (`npm run bench -- --full`)" : "quick (`npm run bench`)"}; ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}; took ${Math.round((Date.now() - started) / 1000)} s.`,
  "Everything runs on 127.0.0.1 against the fake Bot API and the sandbox. Figures are rates, ratios and",
  "percentiles measured within the same run.",
  "",
].join("\n");
const text = `${header}\n${table(results)}`;
console.log(text);
// A partial run (benchmarks named on the command line) must not replace the full table.
const file = only.length === 0 && groups.length === 0 ? "results.md" : "results-partial.md";
await writeFile(join(import.meta.dirname, file), text);
console.error(`written to bench/${file}`);
