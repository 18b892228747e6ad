/**
 * A lost store-secret file with keys in the store: start-up refuses, and nothing replaces the file,
 * not even for a moment. A start that stops before the store is checked (killed, the store not
 * opening) must not leave a new secret behind that the next start would take for the original.
 */
import { readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { silentLogger } from "../../src/logging/logger.js";
import { resolveStoreSecret, StoreSecretError, verifyStoreSecret } from "../../src/config/storeSecret.js";
import { openStore, tempDir } from "../store/helpers.js";

const secretFile = (dir: string) => join(dir, "store-secret");

it("a lost secret file is not replaced before the store is checked: a start stopped halfway leaves none, and the next start still says the file is missing", async () => {
  const dir = await tempDir();
  const first = await resolveStoreSecret(undefined, dir);
  const a = await openStore(dir, { secret: first.secret });
  await verifyStoreSecret(a, first, { reset: false, dataDir: dir, logger: silentLogger });
  await a.setApiKey(1, "KEY-ONE-0123456789");
  await a.close();
  await rm(secretFile(dir));

  // A start that stops before its store is checked.
  const halfway = await resolveStoreSecret(undefined, dir);
  expect(halfway.generated).toBe(true);
  await expect(stat(secretFile(dir))).rejects.toThrow(/ENOENT/);

  const again = await resolveStoreSecret(undefined, dir);
  const store = await openStore(dir, { secret: again.secret });
  const err = await verifyStoreSecret(store, again, { reset: false, dataDir: dir, logger: silentLogger }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(StoreSecretError);
  expect((err as Error).message).toContain(`${secretFile(dir)} was missing`);
  await expect(stat(secretFile(dir))).rejects.toThrow(/ENOENT/);
});

it("a new data folder: the generated secret is written (0600) once the store takes it, and the next start reads it", async () => {
  const dir = await tempDir();
  const source = await resolveStoreSecret(undefined, dir);
  const store = await openStore(dir, { secret: source.secret });
  await verifyStoreSecret(store, source, { reset: false, dataDir: dir, logger: silentLogger });
  await store.setApiKey(1, "KEY-ONE-0123456789");
  await store.close();
  expect((await readFile(secretFile(dir), "utf8")).trim()).toBe(source.secret);
  expect((await stat(secretFile(dir))).mode & 0o777).toBe(0o600);
  const next = await resolveStoreSecret(undefined, dir);
  expect(next).toMatchObject({ secret: source.secret, generated: false });
});
