import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { FileStore, type StoreOptions } from "../../src/store/file/fileStore.js";

export const SECRET = "test-secret-please-change";

const dirs: string[] = [];
const stores: FileStore[] = [];
let armed = false;

/**
 * Closes the test's stores, then removes its folders, once it finished. Armed by the test itself, not by an
 * afterEach here: a module's top level runs once per worker when files share their modules (vitest.config.ts).
 */
function cleanUpAfterTest(): void {
  if (armed) return;
  armed = true;
  onTestFinished(async () => {
    armed = false;
    await Promise.all(stores.splice(0).map((s) => s.close().catch(() => undefined)));
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
}

export async function tempDir(): Promise<string> {
  cleanUpAfterTest();
  const dir = await mkdtemp(join(tmpdir(), "ppob-store-"));
  dirs.push(dir);
  return dir;
}

/** Opens a store on a ManualClock; closed automatically after the test. */
export async function openStore(dir: string, opts: Partial<StoreOptions> = {}): Promise<FileStore> {
  const store = await FileStore.open({ dir, secret: SECRET, clock: new ManualClock(), ...opts });
  cleanUpAfterTest();
  stores.push(store);
  return store;
}

/** Every file under `dir` (recursively) with its bytes. */
export async function allFiles(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out.set(path, await readFile(path));
    }
  }
  return out;
}
