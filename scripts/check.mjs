// `npm test`'s static checks: the type check, the lint and the import rules (dependency-cruiser,
// .dependency-cruiser.mjs) run side by side (each alone leaves a core idle part of the time); exits
// non-zero when any fails, after all have finished.
import { spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";

const run = (cmd, args) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: "inherit", shell: process.platform === "win32" });
    child.on("exit", (code) => resolve(code ?? 1));
  });

const bin = (name) => fileURLToPath(import.meta.resolve(`../node_modules/.bin/${name}`));
const codes = await Promise.all([
  run(bin("tsc"), ["--noEmit"]),
  run(bin("eslint"), ["."]),
  run(bin("depcruise"), ["src", "--config", ".dependency-cruiser.mjs"]),
]);
process.exit(codes.some((c) => c !== 0) ? 1 : 0);
