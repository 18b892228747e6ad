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
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), opts.main ?? "dist/main.js"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}
