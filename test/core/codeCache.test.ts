/**
 * The code cache dist/main.js loads the bundle with (src/codeCache.ts). Each load runs in a process of its
 * own, as each start of the bot does: V8 keeps what it compiled in memory within one process.
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const CODE_CACHE = join(import.meta.dirname, "../../src/codeCache.ts");

let dir = "";
let cleanupMoved = "";
afterEach(async () => {
  for (const d of [dir, cleanupMoved]) if (d) await rm(d, { recursive: true, force: true });
});

/** A script like the bundle: a wrapped CommonJS module, a function that runs at load and one that runs later. */
const script = (answer: number) => `(function (exports, require, module, __filename, __dirname) {
const os = require("node:os");
function compute() { return ${answer} + (os.EOL === "\\n" ? 0 : 0); }
module.exports = { value: compute(), later() { return new Error("from the script").stack; }, file: __filename };
})`;

interface Load {
  cache: string;
  value: number;
  file: string;
  stack: string;
}

/** Loads the script in a new node process; `write` then writes its cache, as the build does. */
async function load(file: string, write = false): Promise<Load> {
  const code = `
    const { loadWithCodeCache } = await import(${JSON.stringify(CODE_CACHE)});
    const s = loadWithCodeCache(${JSON.stringify(file)});
    if (${write}) s.writeCache();
    console.log(JSON.stringify({ cache: s.cache, value: s.exports.value, file: s.exports.file, stack: s.exports.later() }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code]);
  return JSON.parse(stdout) as Load;
}

async function scriptWithCache(): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), "ppob-code-cache-"));
  const file = join(dir, "bot.cjs");
  await writeFile(file, script(41));
  expect((await load(file, true)).cache).toBe("absent"); // none yet
  return file;
}

describe("code cache", () => {
  it("a later start takes the cache the first one wrote, and the script behaves the same", async () => {
    const file = await scriptWithCache();
    const second = await load(file);
    expect(second).toMatchObject({ cache: "used", value: 41, file });
    // Positions are the file's own: `new Error` is on line 4 of bot.cjs.
    expect(second.stack).toContain(`${file}:4:`);
  }, 30_000);

  it("a script changed after its cache was made runs its new code, even at the same length", async () => {
    const file = await scriptWithCache();
    await writeFile(file, script(42));
    expect(await load(file)).toMatchObject({ cache: "other", value: 42 });
  }, 30_000);

  it("a damaged cache, or one made by another Node, is not used and the script still runs", async () => {
    const file = await scriptWithCache();
    const cache = await readFile(`${file}.cache`);
    const damaged = Buffer.from(cache);
    damaged[damaged.length - 100]! ^= 0xff;
    await writeFile(`${file}.cache`, damaged);
    expect(await load(file)).toMatchObject({ cache: "other", value: 41 });

    await writeFile(`${file}.cache`, Buffer.from(cache.toString("latin1").replace(process.version, "v0.0.1"), "latin1"));
    expect(await load(file)).toMatchObject({ cache: "other", value: 41 });

    await writeFile(`${file}.cache`, "");
    expect(await load(file)).toMatchObject({ cache: "other", value: 41 });

    await rm(`${file}.cache`);
    expect(await load(file)).toMatchObject({ cache: "absent", value: 41 });
  }, 30_000);

  it("a build moved to another folder compiles as usual: its stack frames name where it runs, not where it was built", async () => {
    await scriptWithCache();
    const moved = await mkdtemp(join(tmpdir(), "ppob-code-cache-moved-"));
    cleanupMoved = moved;
    await cp(dir, moved, { recursive: true });
    const there = await load(join(moved, "bot.cjs"));
    expect(there).toMatchObject({ cache: "other", value: 41 });
    expect(there.stack).toContain(`${join(moved, "bot.cjs")}:4:`);
  }, 30_000);
});
