/* global process */
/**
 * `npm run build` (and `npm start` before it runs): type-check src/ (incremental: a second build only
 * re-checks what changed), then bundle src/main.ts with esbuild into dist/main.js. One file instead of
 * ~550 modules (ours and node_modules') is most of the start-up time and memory saved (bench/startup.ts).
 * Parts loaded on first use (sandbox, HTTP server, QR codes) stay separate chunks, loaded when imported.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const ROOT = join(import.meta.dirname, "..");
const DIST = join(ROOT, "dist");

execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });

// Chunk names change with their content: drop the last build's files (the type-check's build info stays).
for (const f of readdirSync(DIST, { withFileTypes: true })) if (f.name !== ".tsbuildinfo") rmSync(join(DIST, f.name), { recursive: true, force: true });

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

await build({
  plugins: [unused],
  absWorkingDir: ROOT,
  // src/boot.ts starts the store key derivation, then imports src/main.ts (boot.ts says why).
  entryPoints: [{ in: "src/boot.ts", out: "main" }],
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "chunks/[name]-[hash]",
  // Libraries check classes by name (node-fetch: the AbortSignal), logs show error class names.
  keepNames: true,
  // Less to parse at start-up (~half the bytes); names stay readable in stack traces without source maps.
  minifyWhitespace: true,
  minifySyntax: true,
  // Read by the logger to point logged stacks at src/ (src/stackMap.ts); node runs without --enable-source-maps.
  sourcemap: true,
  sourcesContent: false,
  // Native addon (and the fonts it reads by path): loaded from node_modules at run time.
  external: ["@resvg/resvg-js"],
  // CommonJS dependencies inside an ES module bundle still call require() for node's built-ins.
  banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  logLevel: "warning",
});

// One non-ASCII character (esbuild leaves regular expression literals as written) makes Node read
// the whole bundle as two-byte text: ~70 ms more at start-up and twice the memory. Say where
// (main.js, src/main.ts's chunk and the shared chunks; the parts loaded on first use matter less).
for (const f of readdirSync(DIST, { recursive: true })) {
  if (!/^(main|chunks\/(chunk|main)-[^/]*)\.js$/.test(String(f))) continue;
  const at = readFileSync(join(DIST, String(f)), "latin1").search(/[\u0080-\uffff]/);
  if (at >= 0) process.stderr.write(`dist/${f}: non-ASCII character at ${at} (write it as a \\u escape in src/ for a faster start)\n`);
}
