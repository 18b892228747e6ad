/* global process */
/**
 * `npm run build` (and `npm start` before it runs): esbuild bundles src/main.ts into dist/main.js and the
 * parts it imports on demand into dist/chunks/, with source maps, in seconds. No type-check here: that is `npm test` and CI (`npm run typecheck`).
 * `npm start` runs the bundle with `node --enable-source-maps`, so stack traces name the src/ files.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const ROOT = join(import.meta.dirname, "..");

const result = await build({
  absWorkingDir: ROOT,
  entryPoints: ["src/main.ts"],
  outdir: join(ROOT, "dist"),
  entryNames: "[name]",
  chunkNames: "chunks/[name]-[hash]",
  // What src/ imports on demand (the PostgreSQL store, the HTTP server and its metrics, the playground, the
  // built-in sandbox) stays in its own file, and so do the packages it imports: in one file they would all
  // load at start (idle memory +~5 MB for postgres, prom-client, hono...).
  splitting: true,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  // Logs show error class names.
  keepNames: true,
  sourcemap: true,
  sourcesContent: false,
  // Only our code is bundled; the packages load from node_modules as they are. Node's source-map support
  // parses the whole map at start: a map of every package cost ~70 MB of resident memory.
  packages: "external",
  write: false,
  logLevel: "warning",
});

mkdirSync(join(ROOT, "dist/chunks"), { recursive: true });
// Each file replaces the last build's in one rename, maps first, dist/main.js last: a bot starting from
// dist/ meanwhile (tests build while others run) never reads a half-written file or a missing chunk.
const rank = (path) => (path.endsWith(".map") ? 0 : path === join(ROOT, "dist/main.js") ? 2 : 1);
for (const f of [...result.outputFiles].sort((a, b) => rank(a.path) - rank(b.path))) {
  const tmp = `${f.path}.${process.pid}.tmp`;
  writeFileSync(tmp, f.contents);
  renameSync(tmp, f.path);
}
// Chunks are named by their content: the ones this build did not write are an older build's.
const written = new Set(result.outputFiles.map((f) => f.path));
for (const name of readdirSync(join(ROOT, "dist/chunks"))) {
  const path = join(ROOT, "dist/chunks", name);
  if (!written.has(path) && !name.endsWith(".tmp")) rmSync(path, { force: true });
}
