/**
 * One process per DATA_DIR: two bots on one store would overwrite each other's files and poll the same
 * pending ids. A lock file holds the owner's pid; a lock whose pid is no longer running (a crash, a
 * kill -9, a reboot) is taken over, so it never stays stuck.
 *
 * Both steps are atomic, so of any number of processes starting at once exactly one wins:
 * - The lock appears whole: the pid is written to a file of our own, then hard-linked to bot.lock,
 *   which fails when bot.lock exists. So a lock file that is empty or lacks its newline was left
 *   half-written (by a crash or an older version) and belongs to no one.
 * - Only one process removes a given stale lock: it first creates a takeover file named after that
 *   lock's inode (exclusive create), then checks the lock is still that inode and still stale.
 */
import { link, mkdir, open, readFile, rm, stat, unlink } from "node:fs/promises";
import { randomBytes } from "node:crypto";
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

const errno = (e: unknown) => (e as NodeJS.ErrnoException).code;

/** What bot.lock holds now: its inode and the pid of a live holder (undefined when it is stale). */
async function inspect(dir: string, file: string): Promise<{ ino: number; livePid: number | undefined } | undefined> {
  try {
    const [info, text] = await Promise.all([stat(file), readFile(file, "utf8")]);
    const whole = /^(\d+)\n$/.exec(text);
    const pid = whole ? Number(whole[1]) : 0;
    const alive = pid > 0 && (pid === process.pid ? held.has(dir) : running(pid));
    return { ino: info.ino, livePid: alive ? pid : undefined };
  } catch (e) {
    if (errno(e) === "ENOENT") return undefined; // released meanwhile
    throw e;
  }
}

/** Creates `target` holding "<pid>\n", whole at once; false when it exists. */
async function createWhole(target: string): Promise<boolean> {
  const draft = `${target}.${process.pid}.${randomBytes(4).toString("hex")}`;
  const handle = await open(draft, "wx", 0o644);
  try {
    await handle.writeFile(`${process.pid}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(draft, target);
    return true;
  } catch (e) {
    if (errno(e) === "EEXIST") return false;
    throw e;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

/** Removes bot.lock if it is still the stale inode `ino`, as the only process doing so. */
async function removeStale(dir: string, file: string, ino: number): Promise<void> {
  const takeover = `${file}.takeover-${ino}`;
  if (!(await createWhole(takeover))) {
    // Another process is taking this one over; a takeover left by a crash is cleared for the next try.
    const other = /^(\d+)\n$/.exec(await readFile(takeover, "utf8").catch(() => ""));
    if (other && !running(Number(other[1]))) await rm(takeover, { force: true });
    return;
  }
  try {
    const now = await inspect(dir, file);
    if (now && now.ino === ino && now.livePid === undefined) await rm(file, { force: true });
  } finally {
    await rm(takeover, { force: true });
  }
}

/** Takes the folder's lock or throws DataDirLockedError naming the folder and the holder's pid. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const dir = resolve(dataDir);
  const file = join(dir, LOCK_FILE);
  await mkdir(dir, { recursive: true });
  for (let attempt = 0; attempt < 50; attempt++) {
    if (await createWhole(file)) {
      held.add(dir);
      const { ino } = await stat(file);
      return async () => {
        held.delete(dir);
        // Only our own lock: a folder taken over meanwhile stays with its holder.
        if ((await stat(file).catch(() => undefined))?.ino === ino) await rm(file, { force: true });
      };
    }
    const found = await inspect(dir, file);
    if (found?.livePid !== undefined) {
      throw new DataDirLockedError(
        `Data folder ${dir} is in use by process ${found.livePid} (${file}). Stop that process first; only one bot may use a data folder.`,
      );
    }
    if (found) await removeStale(dir, file, found.ino);
  }
  throw new DataDirLockedError(`Data folder ${dir} is in use by another process starting at the same moment (${file}).`);
}
