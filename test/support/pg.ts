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

/** Runs `fn` with a connection to the server's admin database (CREATE DATABASE, pg_terminate_backend). */
export async function pgAdmin<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const admin = postgres(pgUrl, { max: 1, onnotice: () => undefined });
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

/**
 * The database stops taking connections and every session on it ends, as a stopped server looks to its
 * clients; returns once none is left. pg_terminate_backend only signals: a backend ends when it next
 * runs (later on a busy server) and holds its locks, the lead's advisory lock too, until then. And a
 * session that was starting when connections were switched off (past the check, not yet listed in
 * pg_stat_activity) is missed by the first sweep and would stay up through the whole "outage".
 */
export async function takeDatabaseDown(name: string): Promise<void> {
  await pgAdmin(async (sql) => {
    await sql.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    for (const until = Date.now() + 10_000; ; ) {
      await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`;
      if (await nothingLeftOn(sql, name)) return;
      if (Date.now() > until) throw new Error(`the sessions on ${name} did not end`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });
}

/** Connections to the database are allowed again (its clients reconnect on their own). */
export async function bringDatabaseBack(name: string): Promise<void> {
  await pgAdmin((sql) => sql.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`));
}

/** No session on the database but the asking one, and none of its advisory locks held. */
async function nothingLeftOn(sql: postgres.Sql, name: string): Promise<boolean> {
  const [row] = await sql<{ n: number }[]>`
    SELECT (SELECT count(*) FROM pg_stat_activity WHERE datname = ${name} AND pid <> pg_backend_pid())
         + (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = ${name})) AS n`;
  return Number(row?.n) === 0;
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

const templateTables: string[] = inject("pgTemplateTables");

/** A world's database and a connection to it of the test's own (World.savedChat reads over it). */
export interface WorldDatabase {
  url: string;
  sql: postgres.Sql;
}

/**
 * Databases closed worlds gave back, emptied, with their connection, for the next world in this
 * worker (files share their modules, vitest.config.ts). On the 2-core CI VM a new process is dear
 * (a backend session costs ~37 ms of server CPU): copying the template, the admin session asking for
 * the copy, a new database's first sessions filling its caches and the reader's own session cost
 * every world that; emptying a used database takes milliseconds.
 */
const spare: WorldDatabase[] = [];

/** A database as migratedDatabase() makes it: one a closed world gave back (giveBackDatabase), or a new copy. */
export async function worldDatabase(): Promise<WorldDatabase> {
  const reused = spare.pop();
  if (reused) return reused;
  const url = await migratedDatabase();
  const sql = postgres(url, { max: 1, onnotice: () => undefined, fetch_types: false });
  // Connected before it is needed, so a read is on its way at once.
  await sql`SELECT 1`;
  return { url, sql };
}

/**
 * Brings a world's database back to the template's state for the next world: every other session
 * ended (its locks, LISTENs, a client that reconnected), the tables the world made dropped, the
 * template's emptied (schema_migrations kept: it holds what the template has). Call only once nothing
 * of the world's app runs any more. A database that cannot be reached (a breakStore never repaired)
 * is not given back: its connection is closed, and it stays unused until the server stops.
 */
export async function giveBackDatabase(db: WorldDatabase): Promise<void> {
  const { sql } = db;
  try {
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;
    // A session ends after its client went (or pg_terminate_backend asked it to): until its backend
    // exits it can still hold the lead's advisory lock, which the next world takes on its first try.
    if (!(await othersGone(sql))) throw new Error("the world's sessions did not end");
    const rows = await sql<{ name: string }[]>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`;
    const names = rows.map((r) => r.name);
    const extra = names.filter((t) => !templateTables.includes(t));
    const emptied = names.filter((t) => templateTables.includes(t) && t !== "schema_migrations");
    await sql.begin(async (tx) => {
      if (extra.length > 0) await tx.unsafe(`DROP TABLE ${extra.join(", ")}`);
      if (emptied.length > 0) await tx.unsafe(`TRUNCATE ${emptied.join(", ")}`);
    });
  } catch {
    await sql.end({ timeout: 1 }).catch(() => undefined);
    return;
  }
  spare.push(db);
}

/** Waits (real time, up to 10 s) until no other session is on the database and none of its advisory locks is held. */
async function othersGone(sql: postgres.Sql): Promise<boolean> {
  const [{ name } = { name: "" }] = await sql<{ name: string }[]>`SELECT current_database() AS name`;
  for (const until = Date.now() + 10_000; Date.now() < until; ) {
    if (await nothingLeftOn(sql, name)) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return false;
}
