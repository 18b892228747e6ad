/**
 * One process per data folder: a second bot on the same DATA_DIR is refused at once, naming the
 * folder and the pid that holds it; a lock left by a process that died is taken over.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { DataDirLockedError, LOCK_FILE, lockDataDir } from "../../src/cluster/dataLock.js";
import { FAKE_BOT_TOKEN } from "../support/botInfo.js";
import { FakeBotApi } from "../support/fakeBotApi.js";
import { buildDist, startMain } from "../support/mainProcess.js";

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ppob-lock-"));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe("the data folder lock", () => {
  it("refuses a second holder in the same process and frees the folder on release", async () => {
    const dir = await tempDir();
    const release = await lockDataDir(dir);
    expect(await readFile(join(dir, LOCK_FILE), "utf8")).toBe(`${process.pid}\n`);
    const err = await lockDataDir(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataDirLockedError);
    expect(String((err as Error).message)).toContain(`in use by process ${process.pid}`);
    await release();
    await (await lockDataDir(dir))();
  });

  it("takes over a lock left by a process that is no longer running", async () => {
    const dir = await tempDir();
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    await writeFile(join(dir, LOCK_FILE), `${dead}\n`);
    const release = await lockDataDir(dir);
    expect(await readFile(join(dir, LOCK_FILE), "utf8")).toBe(`${process.pid}\n`);
    await release();
  });
});

describe("two bot processes on one DATA_DIR", () => {
  beforeAll(buildDist, 180_000);

  it("the second exits at once naming the folder and the pid of the first", async () => {
    const fake = new FakeBotApi();
    const server = await fake.startServer();
    cleanup.push(() => server.close());
    const dir = await tempDir();
    const env = {
      BOT_TOKEN: FAKE_BOT_TOKEN,
      TELEGRAM_API_ROOT: server.apiRoot,
      UPSTREAM_BASE_URL: "sandbox",
      DATA_DIR: dir,
      STORE_SECRET: "0123456789abcdef0123",
      LOG_LEVEL: "silent",
    };
    const first = startMain(env);
    cleanup.push(async () => {
      if (first.child.exitCode === null) first.child.kill("SIGKILL");
    });
    await fake.waitFor("getUpdates", 20_000, { answered: false });

    const second = startMain(env);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`Data folder ${dir} is in use by process ${first.child.pid}`);
    expect(first.child.exitCode).toBeNull();

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    await expect(readFile(join(dir, LOCK_FILE))).rejects.toThrow();
  }, 60_000);
});
