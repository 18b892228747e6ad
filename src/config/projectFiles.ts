/**
 * Files shipped beside the code (locales/, the playground's page): found by walking up from this
 * module, since it runs as src/ in tests and as the bundle in dist/ (its chunks one folder deeper).
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The absolute path of `relative` (e.g. "locales/id.ftl") in the nearest folder above that has it. */
export function projectFile(relative: string): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, relative))) return join(dir, relative);
    if (dirname(dir) === dir) throw new Error(`${relative} not found above ${start}`);
  }
}
