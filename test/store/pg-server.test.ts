import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { freshDatabase, hasPg } from "../support/pg.js";

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
