/**
 * The chaos run's short mode on PostgreSQL (chaos.test.ts has the file-store seeds): one shorter seed
 * on a database of its own on the run's server, where the storage fault is the database going down
 * and coming back. Runs wherever PostgreSQL is installed (CI installs it; the run's server is
 * test/support/pgGlobalSetup.ts's).
 */
import { expect, it } from "vitest";
import { runChaos } from "./chaosRun.js";
import { describeRun } from "./invariants.js";
import { bringDatabaseBack, hasPg, migratedDatabase, takeDatabaseDown } from "../support/pg.js";

const INVARIANTS = "no create twice, every paid shop order fulfilled once or failed, every outcome told once, no answer lost, no handler error, no key in the log, the store reopens";

it.runIf(hasPg)(`on PostgreSQL, seed 4, the database going down and back among the faults: ${INVARIANTS}`, { timeout: 60_000 }, async () => {
  const url = await migratedDatabase();
  const name = new URL(url).pathname.slice(1);
  const report = await runChaos({
    seed: 4,
    faults: 12,
    postgres: {
      url,
      down: () => takeDatabaseDown(name),
      up: () => bringDatabaseBack(name),
    },
  });
  expect(report.violations, describeRun(report)).toEqual([]);
  expect(report.faults["postgres-down"]).toBeGreaterThan(0);
  expect(report.transactions).toBeGreaterThan(0);
});
