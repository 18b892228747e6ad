/**
 * Runs the bot as production does: built like `npm start` (scripts/build.mjs: esbuild bundles into dist/, no type-check),
 * then `node dist/main.js` in its own process with only the environment a test gives it.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

export const ROOT = join(import.meta.dirname, "..", "..");

/** The build `npm start` runs: a full one on a fresh clone (no dist/), incremental after that. */
export async function buildDist(): Promise<void> {
  await promisify(execFile)(process.execPath, [join(ROOT, "scripts/build.mjs")], {
    cwd: ROOT,
  });
}

export interface MainProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `node dist/main.js` with `env`; `nodeArgs` go before the script, `main` names another build's main.js. */
export function startMain(env: Record<string, string>, opts: { nodeArgs?: string[]; main?: string } = {}): MainProcess {
  return watch(spawn(process.execPath, [...(opts.nodeArgs ?? []), opts.main ?? "dist/main.js"], spawnOptions(env)));
}

/** `npm start` itself (the build, then the bot), as a terminal or a process manager runs it. */
export function startNpmStart(env: Record<string, string>): MainProcess {
  return watch(spawn("npm", ["start"], spawnOptions(env)));
}

/** The ids of every process below `pid` (a shell, the bot), from `ps`. */
export async function descendants(pid: number): Promise<number[]> {
  const { stdout } = await promisify(execFile)("ps", ["-A", "-o", "pid=,ppid="]);
  const rows = stdout.trim().split("\n").map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  let parents = [pid];
  while (parents.length > 0) {
    const children = rows.filter(([, ppid]) => parents.includes(ppid)).map(([p]) => p);
    found.push(...children);
    parents = children;
  }
  return found;
}

/** Whether process `pid` still runs. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function spawnOptions(env: Record<string, string>) {
  return {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"] as ["ignore", "pipe", "pipe"],
  };
}

function watch(child: ChildProcess): MainProcess {
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}
