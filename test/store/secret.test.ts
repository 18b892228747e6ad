import { readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logging/logger.js";
import { resolveStoreSecret, StoreSecretError, verifyStoreSecret } from "../../src/config/storeSecret.js";
import { PgStore } from "../../src/store/pg/pgStore.js";
import { freshDatabase, hasPg } from "../support/pg.js";
import { openStore, tempDir } from "./helpers.js";

it("a lost secret file: refused, naming the file and STORE_SECRET_RESET, and the secret generated meanwhile is not left behind", async () => {
  const dir = await tempDir();
  const first = await resolveStoreSecret(undefined, dir);
  const a = await openStore(dir, { secret: first.secret });
  await verifyStoreSecret(a, first, { reset: false, dataDir: dir, logger: silentLogger }); // writes the file
  await a.setApiKey(1, "KEY-ONE-0123456789");
  await a.close();
  await rm(first.file!);

  const again = await resolveStoreSecret(undefined, dir);
  expect(again.generated).toBe(true);
  const b = await openStore(dir, { secret: again.secret });
  const err = await verifyStoreSecret(b, again, { reset: false, dataDir: dir, logger: silentLogger }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(StoreSecretError);
  expect((err as Error).message).toContain(`${join(dir, "store-secret")} was missing`);
  expect((err as Error).message).toContain("STORE_SECRET_RESET=1");
  await expect(stat(join(dir, "store-secret"))).rejects.toThrow(/ENOENT/);
});

it("going on with a new secret removes the keys it cannot read, marks those chats, and lets everyone link", async () => {
  const dir = await tempDir();
  const a = await openStore(dir, { secret: "old-secret-0123456789" });
  await a.setApiKey(1, "KEY-ONE-0123456789");
  await a.setApiKey(2, "KEY-TWO-0123456789");
  await a.updateChat(3, { lang: "en" });
  await a.close();

  const b = await openStore(dir, { secret: "new-secret-0123456789" });
  const lost = await verifyStoreSecret(b, { secret: "new-secret-0123456789", generated: false }, { reset: true, dataDir: dir, logger: silentLogger });
  expect(lost.sort()).toEqual([1, 2]);
  expect(b.secretMatches()).toBe(true);
  expect(await b.getChat(1)).toMatchObject({ keyLost: true, awaitingKey: true });
  expect((await b.getChat(1))!.apiKeyEnc).toBeUndefined();
  expect(await b.linkedChats()).toEqual([]);
  await b.setApiKey(1, "KEY-ONE-0123456789");
  await b.setApiKey(3, "KEY-THREE-0123456789");
  expect((await b.getChat(1))!.keyLost).toBeUndefined();
  expect(await b.getApiKey(3)).toBe("KEY-THREE-0123456789");
  await b.close();
  expect(JSON.parse(await readFile(join(dir, "store", "meta.json"), "utf8")).keyCheck).toBeTypeOf("string");

  // The new secret is the store's now: a restart needs no setting.
  const c = await openStore(dir, { secret: "new-secret-0123456789" });
  expect(await verifyStoreSecret(c, { secret: "x", generated: false }, { reset: false, dataDir: dir, logger: silentLogger })).toEqual([]);
  expect(await c.getApiKey(1)).toBe("KEY-ONE-0123456789");
});

describe.skipIf(!hasPg)("one PostgreSQL database, two processes", () => {
  it("a second process with another secret is refused even before any key is stored: the keys would split between two secrets", async () => {
    const url = await freshDatabase();
    const first = await PgStore.open({ url, secret: "first-secret-0123456789" });
    const second = await PgStore.open({ url, secret: "other-secret-0123456789" });
    const source = { secret: "other-secret-0123456789", generated: true, file: join(await tempDir(), "store-secret") };
    const err = await verifyStoreSecret(second, source, { reset: false, dataDir: "/srv/b", logger: silentLogger }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreSecretError);
    expect((err as Error).message).toContain("same STORE_SECRET");
    // The first process's keys stay readable where they are written.
    await first.setApiKey(1, "KEY-ONE-0123456789");
    expect(await first.getApiKey(1)).toBe("KEY-ONE-0123456789");
    await first.close();
  });
});
