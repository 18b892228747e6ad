// `npm test`: the type check, the lint and the test run side by side. vitest's workers wait on I/O part
// of the time (PostgreSQL, child processes, the disk); the checks fill that time at a lower priority, so
// the timing of the tests is not theirs to bear. The checks' output is printed after the tests' (a
// failing check is not lost among the test lines); exits non-zero when any of the three fails.
import { spawn } from "node:child_process";
import { setPriority } from "node:os";
import process from "node:process";
import { fileURLToPath } from "node:url";

const bin = (name) => fileURLToPath(import.meta.resolve(`../node_modules/.bin/${name}`));

function run(cmd, args, { quiet = false, nice = 0 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit", shell: process.platform === "win32" });
    let out = "";
    if (quiet) {
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
    }
    if (nice > 0 && child.pid !== undefined) {
      try {
        setPriority(child.pid, nice);
      } catch {
        // Not allowed here: the check runs at the same priority, which is only slower.
      }
    }
    child.on("exit", (code) => resolve({ name: [cmd.split("/").at(-1), ...args].join(" "), code: code ?? 1, out }));
  });
}

const checks = Promise.all([run(bin("tsc"), ["--noEmit"], { quiet: true, nice: 10 }), run(bin("eslint"), ["."], { quiet: true, nice: 10 })]);
const tests = await run(bin("vitest"), ["run", ...process.argv.slice(2)]);
const results = await checks;
for (const r of results) {
  if (r.out.trim() !== "") process.stdout.write(`\n${r.name}:\n${r.out}`);
  process.stdout.write(`${r.name}: ${r.code === 0 ? "passed" : `FAILED (exit ${r.code})`}\n`);
}
process.exit([tests, ...results].some((r) => r.code !== 0) ? 1 : 0);
