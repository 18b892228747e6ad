import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { bringDatabaseBack, freshDatabase, hasPg, pgAdmin, takeDatabaseDown } from "../support/pg.js";

describe.skipIf(!hasPg)("the test run's PostgreSQL", () => {
  it("gives each caller its own empty database on 127.0.0.1", async () => {
    const [a, b] = await Promise.all([freshDatabase(), freshDatabase()]);
    expect(a).not.toBe(b);
    expect(new URL(a).hostname).toBe("127.0.0.1");
    const sql = postgres(a, { max: 1 });
    try {
      await sql`CREATE TABLE x (n int)`;
      await sql`INSERT INTO x VALUES (1)`;
      const other = postgres(b, { max: 1 });
      const tables = await other`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'x'`;
      await other.end();
      expect(tables[0]!.n).toBe(0);
    } finally {
      await sql.end();
    }
  });
});

describe.skipIf(!hasPg)("a database taken down (takeDatabaseDown)", () => {
  it("is left with no session and no advisory lock once it returns; it takes connections again once brought back", async () => {
    const url = await freshDatabase();
    const name = new URL(url).pathname.slice(1);
    const holder = postgres(url, { max: 1, onnotice: () => undefined });
    const idle = postgres(url, { max: 3, onnotice: () => undefined });
    try {
      await holder`SELECT pg_advisory_lock(42)`;
      await Promise.all([idle`SELECT pg_sleep(0.05)`, idle`SELECT 1`, idle`SELECT 2`]);
      await takeDatabaseDown(name);
      // At once, not eventually: what a test does next meets a database with nothing on it.
      const [left] = await pgAdmin((sql) => sql<{ sessions: number; locks: number }[]>`
        SELECT (SELECT count(*)::int FROM pg_stat_activity WHERE datname = ${name}) AS sessions,
               (SELECT count(*)::int FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = ${name})) AS locks`);
      expect(left).toEqual({ sessions: 0, locks: 0 });
      await expect(idle`SELECT 1`).rejects.toThrow();
      await bringDatabaseBack(name);
      expect(await idle<{ got: boolean }[]>`SELECT pg_try_advisory_lock(42) AS got`).toEqual([{ got: true }]);
    } finally {
      await Promise.all([holder.end({ timeout: 1 }), idle.end({ timeout: 1 })]);
    }
  });
});
