import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { findPgBin } from "./test/support/pgServer.js";

/**
 * Two projects: every test on the file store, and the tests that build the whole app (makeWorld) once
 * more on PostgreSQL (issue 16: the same suite against both stores). The second runs only where
 * PostgreSQL is installed (.ci/install-postgres.sh) or TEST_DATABASE_URL names a server.
 */
const withPostgres = Boolean(process.env.TEST_DATABASE_URL) || findPgBin() !== undefined;

/** The whole-app tests (makeWorld) that run a second time on PgStore. */
const ON_BOTH_STORES = ["test/bot/**/*.test.ts", "test/network/**/*.test.ts", "test/flows/**/*.test.ts", "test/jobs/**/*.test.ts", "test/server/**/*.test.ts", "test/prices/**/*.test.ts", "test/pin/**/*.test.ts", "test/h2h/**/*.test.ts"];

/**
 * Files whose vi.mock must meet a fresh module graph: the other files share one per worker
 * (isolate: false), where a module already imported by an earlier file would stay unmocked.
 */
const OWN_MODULES = ["test/shop/ordersReceiptTurns.test.ts", "test/store/crypto.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    // vitest's default is one worker fewer than the cores: one on a 2-core machine, where a run kept
    // under one core busy (the tests wait on PostgreSQL, child processes and real I/O). Three at least:
    // with two, 566 s of tests took 303 s on 2 cores, the workers waiting on I/O a third of the time.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    globalSetup: ["test/support/pgGlobalSetup.ts"],
    setupFiles: ["test/support/setup.ts"],
    // A fresh process per file imported the whole app again for each: 186 s of import summed over a
    // 408 s run of 241 files on 2 cores. Files share their worker's modules instead; a vi.mock is per
    // file, so those files run isolated (OWN_MODULES), and no helper module registers hooks at its top.
    isolate: false,
    projects: [
      { extends: true as const, test: { name: "files", include: ["test/**/*.test.ts"], exclude: OWN_MODULES } },
      { extends: true as const, test: { name: "mocks", include: OWN_MODULES, isolate: true } },
      ...(withPostgres
        ? [
            {
              extends: true as const,
              test: {
                name: "postgres",
                include: ON_BOTH_STORES,
                exclude: [
                  // Processes started by the tests themselves, and file-store-only rooms, stay in "files".
                  "test/bot/process*.test.ts",
                  "test/bot/failover.test.ts",
                  "test/server/dataLock.test.ts",
                  "test/server/dataLockRace.test.ts",
                  // A full or read-only disk under the file store's shards.
                  "test/bot/storageWords.test.ts",
                  "test/jobs/crashSending.test.ts",
                  // A stop and a new process on the same data: one process owns the files (on PostgreSQL a
                  // "sending" record may be another process's create still running: downlineTwoProcesses).
                  "test/network/downlineOnce.test.ts",
                  // These open their own PostgreSQL databases in "files" already.
                  "test/bot/twoProcesses.test.ts",
                  "test/bot/acrossProcesses.test.ts",
                  "test/bot/leadership.test.ts",
                  "test/flows/twoProcessTaps.test.ts",
                  "test/network/downlineTwoProcesses.test.ts",
                  "test/jobs/announceRace.test.ts",
                  // Load, timing and rendering tests that do not use the store differently (CI time).
                  "test/flows/flood.test.ts",
                  "test/network/downlineList.test.ts",
                  "test/flows/hung.test.ts",
                  "test/jobs/limits.test.ts",
                  "test/flows/receipt.test.ts",
                  "test/flows/words.test.ts",
                  "test/bot/commands.test.ts",
                  // 5,000 HTTP calls at /h2h (27 s on PostgreSQL, a store round trip each): the money
                  // rules it checks run on PostgreSQL in h2h.test.ts (10 creates at once) and h2hChain.
                  "test/server/h2hMalformed.test.ts",
                  // No world, so no PgStore: unit tests, a FileStore of their own, a stub store. The same code twice.
                  "test/bot/composer.test.ts",
                  "test/bot/middlewares.test.ts",
                  "test/jobs/decide.test.ts",
                  "test/jobs/scheduledJob.test.ts",
                  "test/jobs/owedOverlap.test.ts",
                  "test/jobs/owedRace.test.ts",
                  "test/server/providerCallback.test.ts",
                  "test/server/providerCallbackChecks.test.ts",
                  "test/prices/alternatives.test.ts",
                ],
                env: { TEST_STORE: "postgres" },
              },
            },
          ]
        : []),
    ],
  },
});
