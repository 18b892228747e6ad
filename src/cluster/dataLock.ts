/**
 * One process per DATA_DIR: two bots on one store would overwrite each other's files and poll the same
 * pending ids. A lock file holds the owner's pid; a lock whose pid is no longer running (a crash, a
 * kill -9, a reboot) is taken over, so it never stays stuck.
 */
import { readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";

export const LOCK_FILE = "bot.lock";

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

/** Folders this process holds (in a container the pid is always 1, so the pid alone cannot tell). */
const held = new Set<string>();

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the folder's lock or throws DataDirLockedError naming the folder and the holder's pid. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const dir = resolve(dataDir);
  const file = join(dir, LOCK_FILE);
  await mkdir(dir, { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: "wx", mode: 0o644 });
      held.add(dir);
      return async () => {
        held.delete(dir);
        await rm(file, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw lockedError(dir, file, e);
    }
    const pid = Number((await readFile(file, "utf8").catch(() => "")).trim());
    const ours = pid === process.pid;
    if (Number.isInteger(pid) && pid > 0 && (ours ? held.has(dir) : running(pid))) {
      throw new DataDirLockedError(
        `Data folder ${dir} is in use by process ${pid} (${file}). Stop that process first; only one bot may use a data folder.`,
      );
    }
    await rm(file, { force: true }); // stale: its process is gone
  }
}

function lockedError(dir: string, file: string, cause: unknown): Error {
  if ((cause as NodeJS.ErrnoException).code === "EEXIST") {
    return new DataDirLockedError(`Data folder ${dir} is in use by another process starting at the same moment (${file}).`);
  }
  return cause as Error;
}
