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
  }
}

let server: PgServer | undefined;
let template: { url: string; name: string } | undefined;

export async function setup(project: TestProject): Promise<void> {
  const given = process.env.TEST_DATABASE_URL;
  let url: string;
  if (given) {
    url = given;
  } else {
    const bin = findPgBin();
    if (!bin) {
      process.stderr.write("PostgreSQL is not installed: the PostgreSQL store tests are skipped (.ci/install-postgres.sh installs it).\n");
      project.provide("pgUrl", "");
      project.provide("pgTemplate", "");
      return;
    }
    server = await startPgServer(bin);
    url = server.url;
  }
  project.provide("pgUrl", url);
  template = { url, name: `t_schema_${process.pid}_${Date.now().toString(36)}` };
  await withSql(url, (sql) => sql.unsafe(`CREATE DATABASE ${template!.name}`));
  const at = new URL(url);
  at.pathname = `/${template.name}`;
  await withSql(at.toString(), (sql) => migrate(sql));
  project.provide("pgTemplate", template.name);
}

export async function teardown(): Promise<void> {
  if (server) return server.stop();
  if (template) await withSql(template.url, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${template!.name}`));
}

async function withSql<T>(url: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}
