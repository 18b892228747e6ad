/**
 * A throwaway PostgreSQL server for the test run (vitest globalSetup): initdb into a temporary folder,
 * listen on 127.0.0.1 at a free port, trust auth, no fsync (a test cluster, thrown away at the end).
 * The benchmarks start it with `durable: true`: PostgreSQL's default durability (fsync and
 * synchronous_commit on), since what they time is a money write that must survive a crash.
 * Found from PATH or Debian's /usr/lib/postgresql/<version>/bin (.ci/install-postgres.sh installs it).
 * Without PostgreSQL the PostgreSQL tests are skipped with a message; the file-store suite still runs.
 * As root, the server runs as the `postgres` user (initdb refuses root).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./freePort.js";

export interface PgServer {
  url: string;
  stop(): Promise<void>;
}

/** The folder holding initdb and pg_ctl, or undefined when PostgreSQL is not installed. */
export function findPgBin(): string | undefined {
  const fromPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout.trim();
  const candidates = fromPath ? [join(fromPath, "..")] : [];
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    for (const v of readdirSync(debian).sort((a, b) => Number(b) - Number(a))) candidates.push(join(debian, v, "bin"));
  }
  return candidates.find((dir) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl")));
}

export interface PgServerOptions {
  /** PostgreSQL's default durability (fsync, synchronous_commit, full_page_writes on); default off (tests). */
  durable?: boolean;
}

export async function startPgServer(bin: string, options: PgServerOptions = {}): Promise<PgServer> {
  const dir = mkdtempSync(join(tmpdir(), "ppob-pg-"));
  const data = join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  let uid: number | undefined;
  let gid: number | undefined;
  if (asRoot) {
    uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const run = (cmd: string, args: string[]) =>
    execFileSync(join(bin, cmd), args, { stdio: ["ignore", "pipe", "pipe"], ...(uid !== undefined && { uid, gid }), cwd: dir });
  run("initdb", ["-D", data, "-A", "trust", "-U", "bot", "--no-sync", "-E", "UTF8", "--locale", "C"]);
  const port = await freePort();
  const opts = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-c unix_socket_directories=${dir}`,
    ...(options.durable ? [] : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]),
    "-c max_connections=300",
  ].join(" ");
  run("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-o", opts, "-w", "-t", "30", "start"]);
  return {
    url: `postgres://bot@127.0.0.1:${port}/postgres`,
    async stop() {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        // Not rmSync: the folder holds every database the run made (hundreds of MB), and removing it
        // blocked vitest's main process at its global teardown, which then took the workers' "stopped"
        // answers late ("Timeout terminating forks worker", a minute added to the end of a run).
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
