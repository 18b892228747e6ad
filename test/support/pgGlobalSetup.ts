/**
 * vitest globalSetup: one PostgreSQL server for the whole run when PostgreSQL is installed (or
 * TEST_DATABASE_URL names one). Tests get its admin URL with `inject("pgUrl")` ("" = none) and make
 * their own database with `freshDatabase()` (test/support/pg.ts).
 */
import type { TestProject } from "vitest/node";
import { findPgBin, startPgServer, type PgServer } from "./pgServer.js";

declare module "vitest" {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

let server: PgServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide("pgUrl", given);
    return;
  }
  const bin = findPgBin();
  if (!bin) {
    process.stderr.write("PostgreSQL is not installed: the PostgreSQL store tests are skipped (.ci/install-postgres.sh installs it).\n");
    project.provide("pgUrl", "");
    return;
  }
  server = await startPgServer(bin);
  project.provide("pgUrl", server.url);
}

export function teardown(): void {
  server?.stop();
}
