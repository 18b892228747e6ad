/** PostgreSQL for tests: each caller gets its own empty database on the run's server (pgGlobalSetup.ts). */
import postgres from "postgres";
import { inject } from "vitest";

/** The run's server, or "" when PostgreSQL is not installed (then skip: `describe.skipIf(!hasPg)`). */
export const pgUrl: string = inject("pgUrl");
export const hasPg = pgUrl !== "";

/**
 * True in the "postgres" test project (vitest.config.ts): worlds run on PgStore instead of the files.
 * Tests of what only the file store does skip with `it.skipIf(onPostgres)`.
 */
export const onPostgres = process.env.TEST_STORE === "postgres";

let n = 0;

/** Runs `fn` with a connection to the server's admin database (ALTER DATABASE, pg_terminate_backend). */
export async function pgAdmin<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const admin = postgres(pgUrl, { max: 1, onnotice: () => undefined });
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

const pgTemplate: string = inject("pgTemplate");

/** Creates an empty database and returns its URL. Dropped with the server at the end of the run. */
export function freshDatabase(): Promise<string> {
  return createDatabase("");
}

/**
 * A new database with the store's schema in place (a copy of the run's template), as a store
 * left it after its first open: each open still runs the migrations, and finds nothing to do.
 */
export function migratedDatabase(): Promise<string> {
  return createDatabase(pgTemplate ? ` TEMPLATE ${pgTemplate}` : "");
}

async function createDatabase(from: string): Promise<string> {
  const admin = postgres(pgUrl, { max: 1, onnotice: () => undefined });
  const name = `t_${process.pid}_${Date.now().toString(36)}_${n++}`;
  try {
    await admin.unsafe(`CREATE DATABASE ${name}${from}`);
  } finally {
    await admin.end();
  }
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
