import { afterEach, describe, expect, it } from "vitest";
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
});
