/**
 * A CommonJS module body compiled with a V8 code cache kept in a file beside it (src/launch.ts). Node 22 has
 * module.enableCompileCache for this; Node 20 has only vm's cachedData, which this uses on both. The file
 * holds the module already wrapped, `(function (exports, require, module, __filename, __dirname) {…})`, as
 * scripts/build.mjs writes it: compiled as it is, with no second copy of its text. The cache file names the
 * script (by content) and the Node that made it; a cache made for anything else, or a damaged one, is not
 * used: the script then compiles as usual. Only node built-ins here.
 */
import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { Script } from "node:vm";

const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex");

/**
 * Whether the script ran from its cache: `used`; `absent` (no cache file); `other` (a cache made for another
 * script, folder, Node version or V8 flags such as NODE_OPTIONS=--max-old-space-size, or damaged).
 */
export type CodeCacheUse = "used" | "absent" | "other";

/** A loaded script: its exports, and whether V8 took the cached code. */
export interface Loaded<T> {
  exports: T;
  cache: CodeCacheUse;
  /** Writes what V8 has compiled of the script so far as its cache (after running what a start runs). */
  writeCache(): void;
}

/**
 * The first line of a cache file: the Node that made it, the script's path and content, the cache's own
 * content. The path because V8 keeps the file name the cache was made under: a build moved to another
 * folder would log stack frames naming the old one (and miss its source map).
 */
function header(file: string, script: string, cache: Uint8Array): string {
  return `ppob-code-cache 2 ${process.version} ${process.arch} ${encodeURIComponent(file)} ${sha256(script)} ${sha256(cache)}\n`;
}

function readCache(file: string, script: string): Buffer | "absent" | "other" {
  let data: Buffer;
  try {
    data = readFileSync(`${file}.cache`);
  } catch {
    return "absent";
  }
  const end = data.indexOf(10);
  if (end < 0) return "other";
  const cache = data.subarray(end + 1);
  return data.subarray(0, end + 1).toString("latin1") === header(file, script, cache) ? cache : "other";
}

/** Compiles and runs the wrapped CommonJS module `file` with the cache `${file}.cache` when it is one for this script and this Node. */
export function loadWithCodeCache<T>(file: string): Loaded<T> {
  const source = readFileSync(file, "utf8");
  const found = readCache(file, source);
  const cachedData = typeof found === "string" ? undefined : found;
  const script = new Script(source, { filename: file, cachedData });
  const module = { exports: {} as T };
  const body = script.runInThisContext() as (exports: T, require: NodeJS.Require, module: { exports: T }, filename: string, dirname: string) => void;
  body(module.exports, createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    cache: typeof found === "string" ? found : script.cachedDataRejected ? "other" : "used",
    writeCache() {
      const cache = script.createCachedData();
      const tmp = `${file}.cache.${process.pid}.tmp`;
      writeFileSync(tmp, Buffer.concat([Buffer.from(header(file, source, cache), "latin1"), cache]));
      renameSync(tmp, `${file}.cache`);
    },
  };
}
