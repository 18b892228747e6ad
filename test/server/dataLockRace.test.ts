/**
 * Fifty bot processes started at the same moment on one data folder: exactly one gets it, whatever
 * the lock file held before (nothing, an empty file, a half-written pid, a dead process's pid).
 * The children run the lock code alone (bundled by esbuild, plain node), and each races for four
 * folders at once, one per case, so the test starts 50 processes once.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { build } from "esbuild";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LOCK_FILE } from "../../src/cluster/dataLock.js";

const ROOT = join(import.meta.dirname, "..", "..");
const STARTS = 50;
let work: string;
let script: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "ppob-lockrace-"));
  const lockModule = join(work, "dataLock.mjs");
  await build({ entryPoints: [join(ROOT, "src/cluster/dataLock.ts")], outfile: lockModule, format: "esm", platform: "node", bundle: true, logLevel: "silent" });
  script = join(work, "start.mjs");
  // Says "ready", takes the lock of every folder given on "go", says what it got in each (one line,
  // JSON), holds them until its stdin closes.
  await writeFile(
    script,
    `import { lockDataDir } from ${JSON.stringify(lockModule)};
import { createInterface } from "node:readline";
process.stdout.write("ready\\n");
const lines = createInterface({ input: process.stdin });
lines.once("line", async () => {
  const got = await Promise.all(process.argv.slice(2).map((dir) => lockDataDir(dir).then(
    () => "won",
    (e) => (e.name === "DataDirLockedError" ? "refused: " : "failed: ") + e.message,
  )));
  process.stdout.write(JSON.stringify(got) + "\\n");
});
lines.once("close", () => process.exit(0));
`,
  );
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** Starts STARTS children, lets them all take the locks at once, returns what each got per folder. */
async function simultaneousStarts(dataDirs: string[]): Promise<string[][]> {
  const children: ChildProcess[] = [];
  const ready: Promise<void>[] = [];
  const results: Promise<string>[] = [];
  try {
    for (let i = 0; i < STARTS; i++) {
      const child = spawn(process.execPath, [script, ...dataDirs], { stdio: ["pipe", "pipe", "inherit"] });
      children.push(child);
      const lines = createInterface({ input: child.stdout! });
      const said: string[] = [];
      const waiters: ((line: string) => void)[] = [];
      lines.on("line", (line) => (waiters.length ? waiters.shift()!(line) : said.push(line)));
      const next = () => new Promise<string>((resolve) => (said.length ? resolve(said.shift()!) : waiters.push(resolve)));
      ready.push(next().then(() => undefined));
      results.push(ready[i]!.then(next));
    }
    await Promise.all(ready);
    for (const child of children) child.stdin!.write("go\n");
    return (await Promise.all(results)).map((line) => JSON.parse(line) as string[]);
  } finally {
    for (const child of children) child.stdin!.end();
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : undefined)));
  }
}

const before: [string, () => string | undefined][] = [
  ["no lock file", () => undefined],
  ["an empty lock file", () => ""],
  ["a half-written lock file", () => "4"],
  ["the lock of a process that died", () => `${spawnSync(process.execPath, ["-e", ""]).pid}\n`],
];

it("50 simultaneous starts on a folder with no lock, an empty lock, a half-written lock or a dead process's lock: exactly one holds each folder, every other is refused", async () => {
  const dataDirs: string[] = [];
  for (const [, content] of before) {
    const dataDir = await mkdtemp(join(work, "data-"));
    const text = content();
    if (text !== undefined) await writeFile(join(dataDir, LOCK_FILE), text);
    dataDirs.push(dataDir);
  }
  const results = await simultaneousStarts(dataDirs);
  before.forEach(([name], i) => {
    const got = results.map((r) => r[i]!);
    expect(got.filter((r) => r === "won"), `${name}:\n${got.join("\n")}`).toHaveLength(1);
    expect(got.filter((r) => r.startsWith("refused: ")), `${name}:\n${got.join("\n")}`).toHaveLength(STARTS - 1);
  });
}, 120_000);
