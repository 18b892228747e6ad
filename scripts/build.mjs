/* global process */
/**
 * `npm run build` (and `npm start` before it runs): nothing when nothing changed (below); else type-check
 * src/ (incremental: only what changed is checked again), bundle src/boot.ts with esbuild into dist/bot.cjs and src/launch.ts into
 * dist/main.js, then write V8's code cache for the bundle (dist/bot.cjs.cache). One file instead of ~550
 * modules, and no compiling at start, are most of the start-up time and memory saved (bench/startup.ts).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { build } from "esbuild";

const ROOT = join(import.meta.dirname, "..");
const DIST = join(ROOT, "dist");

/**
 * What the build reads, by content, and what the code cache depends on (Node, folder, V8 flags). When it
 * matches the last complete build's and its files are there, dist/ is current: `npm start` starts at once
 * (the type-check alone takes seconds even when nothing changed).
 */
function inputs() {
  const hash = createHash("sha256");
  hash.update(JSON.stringify([process.version, process.arch, ROOT, process.env.NODE_OPTIONS ?? ""]));
  const files = readdirSync(join(ROOT, "src"), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  const config = ["scripts/build.mjs", "tsconfig.json", "tsconfig.build.json", "package.json", "package-lock.json", "node_modules/.package-lock.json"];
  for (const f of [...files, ...config.map((c) => join(ROOT, c))]) {
    hash.update(`\0${f}\0`);
    if (existsSync(f)) hash.update(readFileSync(f));
  }
  return hash.digest("hex");
}
const INPUTS = join(DIST, ".build-inputs");
const current = inputs();
const built = ["main.js", "bot.cjs", "bot.cjs.map", "bot.cjs.cache"].every((f) => existsSync(join(DIST, f)));
if (built && existsSync(INPUTS) && readFileSync(INPUTS, "utf8") === current) process.exit(0);
rmSync(INPUTS, { force: true });

execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });

/**
 * Each file built replaces the last build's in one rename, so a bot starting from dist/ meanwhile (tests
 * build while others run) never finds a file missing or half written. The bundle's map before the bundle.
 */
function put(outputFiles) {
  for (const f of [...outputFiles].sort((a, b) => Number(a.path.endsWith(".cjs")) - Number(b.path.endsWith(".cjs")))) {
    const tmp = `${f.path}.${process.pid}.tmp`;
    writeFileSync(tmp, f.contents);
    renameSync(tmp, f.path);
  }
  return outputFiles.map((f) => basename(f.path));
}

/**
 * Code the bot never runs, left out of the bundle: zod's 40 message locales (only English is used,
 * set by zod itself) and whatwg-url, node-fetch's fallback for a platform without `URL` (Node has it;
 * node-fetch takes `require("url").URL` first). ~550 KB less to parse at every start.
 */
const unused = {
  name: "unused",
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";', loader: "js" }));
    b.onResolve({ filter: /^whatwg-url$/ }, () => ({ path: "whatwg-url", namespace: "unused" }));
    b.onLoad({ filter: /.*/, namespace: "unused" }, () => ({ contents: "module.exports = { URL: globalThis.URL };", loader: "js" }));
  },
};

/** What the bot bundle and the launcher share. */
const common = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: "node",
  target: "node20",
  // Libraries check classes by name (node-fetch: the AbortSignal), logs show error class names.
  keepNames: true,
  // Less to parse (~half the bytes); names stay readable in stack traces without source maps.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
};

// The bot: one CommonJS script, so that the launcher can compile it with V8's code cache (src/launch.ts).
// Parts used later (sandbox, HTTP server, PostgreSQL store, QR codes) are in it too, evaluated on first use.
const bundle = await build({
  ...common,
  write: false,
  plugins: [unused],
  // src/boot.ts starts the store key derivation, then evaluates and runs src/run.ts (boot.ts says why).
  entryPoints: ["src/boot.ts"],
  outfile: join(DIST, "bot.cjs"),
  format: "cjs",
  // Written as the function src/codeCache.ts compiles: the module wrapper is in the file, not added at load.
  // Two modules find files beside the code from their own URL (projectFiles.ts, render/png.ts).
  // Strict mode, as the ES modules it was written as.
  banner: { js: '(function (exports, require, module, __filename, __dirname) {\n"use strict";var __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  footer: { js: "})" },
  define: { "import.meta.url": "__bundleUrl" },
  // Read by the logger to point logged stacks at src/ (src/stackMap.ts); node runs without --enable-source-maps.
  sourcemap: true,
  sourcesContent: false,
  // Licence comments (some with non-ASCII names) go to dist/bot.cjs.LEGAL.txt.
  legalComments: "external",
  // Loaded from node_modules when first used: the native addon (it reads its fonts by path), and the
  // PostgreSQL client, which a bot on the files never needs (its code is left out of the bundle's text).
  external: ["@resvg/resvg-js", "postgres"],
});

// dist/main.js: node built-ins only.
const launcher = await build({ ...common, write: false, entryPoints: ["src/launch.ts"], outfile: join(DIST, "main.js"), format: "esm" });
const written = [...put(bundle.outputFiles), ...put(launcher.outputFiles)];

// What an older build left that this one does not write (its chunks/); the type-check's build info, the
// code cache (replaced below) and other builds' files in progress stay.
for (const f of readdirSync(DIST)) {
  if (written.includes(f) || f === ".tsbuildinfo" || f === ".build-inputs" || f === "bot.cjs.cache" || f.endsWith(".tmp")) continue;
  rmSync(join(DIST, f), { recursive: true, force: true });
}

// One non-ASCII character (esbuild leaves regular expression literals as written) makes Node read
// the whole bundle as two-byte text: ~70 ms more at start-up and twice the memory.
const bot = readFileSync(join(DIST, "bot.cjs"), "latin1");
if (/[\u0080-\uffff]/.test(bot)) process.stderr.write(`dist/bot.cjs: non-ASCII character at ${bot.search(/[\u0080-\uffff]/)} (write it as a \\u escape in src/ for a faster start)\n`);

// The compile cache for that bundle and this Node (src/launch.ts), made by running what a start evaluates.
execFileSync(process.execPath, [join(DIST, "main.js"), "--write-code-cache"], { cwd: ROOT, stdio: "inherit" });
writeFileSync(INPUTS, current);
