/**
 * vitest globalSetup: one PostgreSQL server for the whole run when PostgreSQL is installed (or
 * TEST_DATABASE_URL names one). Tests get its admin URL with `inject("pgUrl")` ("" = none) and make
 * their own database with `freshDatabase()` (test/support/pg.ts), or a copy of one the store's
 * migrations already ran on with `migratedDatabase()` (each world: migrating costs more than copying).
 */
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { migrate } from "../../src/store/pg/migrations.js";
import { findPgBin, startPgServer, type PgServer } from "./pgServer.js";

declare module "vitest" {
  export interface ProvidedContext {
    pgUrl: string;
    /** A database with the store's schema, copied for each world (migratedDatabase in pg.ts); "" = none. */
    pgTemplate: string;
    /** The tables the template holds (a world's database given back is brought back to these, emptied). */
    pgTemplateTables: string[];
  }
}

/**
 * Every vitest project runs the global setup: they share one server (a module may be loaded once per
 * project, hence globalThis), started by the first and stopped by the last teardown.
 */
interface Run {
  users: number;
  ready: Promise<{ url: string; template: string; tables: string[]; server?: PgServer; templateUrl?: string }>;
}
const RUN = Symbol.for("ppob.pgGlobalSetup");
const holder = globalThis as { [RUN]?: Run };

export async function setup(project: TestProject): Promise<void> {
  const run = (holder[RUN] ??= { users: 0, ready: start() });
  run.users++;
  const { url, template, tables } = await run.ready;
  project.provide("pgUrl", url);
  project.provide("pgTemplate", template);
  project.provide("pgTemplateTables", tables);
}

export async function teardown(): Promise<void> {
  const run = holder[RUN];
  if (!run || --run.users > 0) return;
  holder[RUN] = undefined;
  const { server, template, templateUrl } = await run.ready;
  if (server) return server.stop();
  if (templateUrl) await withSql(templateUrl, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${template}`));
}

async function start(): Promise<{ url: string; template: string; tables: string[]; server?: PgServer; templateUrl?: string }> {
  const given = process.env.TEST_DATABASE_URL;
  let url: string;
  let server: PgServer | undefined;
  if (given) {
    url = given;
  } else {
    const bin = findPgBin();
    if (!bin) {
      process.stderr.write("PostgreSQL is not installed: the PostgreSQL store tests are skipped (.ci/install-postgres.sh installs it).\n");
      return { url: "", template: "", tables: [] };
    }
    server = await startPgServer(bin);
    url = server.url;
  }
  const template = `t_schema_${process.pid}_${Date.now().toString(36)}`;
  await withSql(url, (sql) => sql.unsafe(`CREATE DATABASE ${template}`));
  const at = new URL(url);
  at.pathname = `/${template}`;
  const tables = await withSql(at.toString(), async (sql) => {
    await migrate(sql);
    const rows = await sql<{ name: string }[]>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`;
    return rows.map((r) => r.name);
  });
  return { url, template, tables, ...(server && { server }), templateUrl: url };
}

async function withSql<T>(url: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}
