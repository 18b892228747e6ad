import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "../../src/tools/zod.js";
import { ManualClock } from "../../src/tools/clock.js";
import type { Store } from "../../src/store/api.js";
import { openStore } from "../../src/store/index.js";
import { freshDatabase, hasPg } from "../support/pg.js";
import { SECRET, tempDir } from "./helpers.js";

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

describe("openStore", () => {
  it.skipIf(!hasPg)("a postgres:// STORE_URL opens the PostgreSQL store", async () => {
    const s = await openStore({ url: await freshDatabase(), dir: await tempDir(), secret: SECRET, clock: new ManualClock() });
    opened.push(s);
    expect(s.stats().kind).toBe("postgres");
    expect(s.secretMatches()).toBe(true);
  });

  it("without STORE_URL opens the files in DATA_DIR", async () => {
    const s = await openStore({ dir: await tempDir(), secret: SECRET, clock: new ManualClock() });
    opened.push(s);
    expect(s.stats().kind).toBe("file");
    expect(s.secretMatches()).toBe(true);
  });

  it("hands the file store the caller's onWarning (a log's torn last line is reported there)", async () => {
    const dir = await tempDir();
    const kind = { name: "test_audit", schema: z.object({ action: z.string() }) };
    const first = await openStore({ dir, secret: SECRET, clock: new ManualClock() });
    await first.appendLog(kind, 1, { action: "a" });
    await first.close();
    await appendFile(join(dir, "store", "logs", "test_audit.jsonl"), '{"seq":2');
    const warnings: string[] = [];
    const s = await openStore({ dir, secret: SECRET, clock: new ManualClock(), onWarning: (m) => warnings.push(m) });
    opened.push(s);
    expect(await s.listLog(kind, 1)).toHaveLength(1);
    expect(warnings.join()).toMatch(/torn last line/);
  });
});
