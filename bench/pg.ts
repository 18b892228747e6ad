/**
 * PostgreSQL for the benchmarks: BENCH_DATABASE_URL when set, else a throwaway server started here
 * (test/support/pgServer.ts) with PostgreSQL's DEFAULT durability (fsync and synchronous_commit on):
 * a money write is timed as it would commit in production. Each run gets its own database.
 * Without PostgreSQL the benchmarks skip their PostgreSQL rows with NO_PG_NOTE (they do not fail).
 */
import postgres from "postgres";
import { findPgBin, startPgServer } from "../test/support/pgServer.js";

export const NO_PG_NOTE =
  "PostgreSQL rows skipped: PostgreSQL is not installed here and BENCH_DATABASE_URL is unset (.ci/install-postgres.sh installs it).";

export interface BenchPg {
  /** What the rows ran on, for the setup line. */
  label: string;
  /** A new empty database; dropped by `stop()`. */
  database(): Promise<string>;
  stop(): Promise<void>;
}

let n = 0;

export async function openBenchPg(): Promise<BenchPg | undefined> {
  const given = process.env.BENCH_DATABASE_URL;
  const bin = given ? undefined : findPgBin();
  if (!given && !bin) return undefined;
  const server = bin ? await startPgServer(bin, { durable: true }) : undefined;
  const adminUrl = given ?? server!.url;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  const show = async (name: string) => ((await admin.unsafe(`SHOW ${name}`)) as unknown as Record<string, string>[])[0]?.[name] ?? "?";
  const version = (await show("server_version")).split(" ")[0];
  // Read back, not assumed: the setup line states what the server really ran with.
  const durability = `fsync=${await show("fsync")}, synchronous_commit=${await show("synchronous_commit")}`;
  const made: string[] = [];
  return {
    label: given
      ? `PostgreSQL ${version} at BENCH_DATABASE_URL (${durability})`
      : `PostgreSQL ${version} on 127.0.0.1, a throwaway cluster with the default durability (${durability}): every change is durable when its call resolves`,
    async database() {
      const name = `bench_${process.pid}_${n++}`;
      await admin.unsafe(`CREATE DATABASE ${name}`);
      made.push(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async stop() {
      try {
        if (given) for (const name of made) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
        await server?.stop();
      }
    },
  };
}
