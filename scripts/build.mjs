/* global process */
/**
 * `npm run build` (and `npm start` before it runs): esbuild bundles src/main.ts into dist/main.js with
 * its source map, in seconds. No type-check here: that is `npm test` and CI (`npm run typecheck`).
 * `npm start` runs the bundle with `node --enable-source-maps`, so stack traces name the src/ files.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const ROOT = join(import.meta.dirname, "..");

const result = await build({
  absWorkingDir: ROOT,
  entryPoints: ["src/main.ts"],
  outfile: join(ROOT, "dist/main.js"),
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  // The CommonJS libraries in the bundle (grammY, pino...) call require(): an ES module has none of its own.
  banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
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

mkdirSync(join(ROOT, "dist"), { recursive: true });
// Each file replaces the last build's in one rename, the map first: a bot starting from dist/ meanwhile
// (tests build while others run) never reads a half-written file.
for (const f of [...result.outputFiles].sort((a, b) => Number(a.path.endsWith(".js")) - Number(b.path.endsWith(".js")))) {
  const tmp = `${f.path}.${process.pid}.tmp`;
  writeFileSync(tmp, f.contents);
  renameSync(tmp, f.path);
}
