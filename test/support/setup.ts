/**
 * vitest setupFiles: runs in every test file before its imports.
 *
 * The store derives its encryption key with scrypt (about 45 ms of CPU, by design), and every store
 * a test opens (each world, each restart) derived it again from the same few secrets: seconds of a
 * run spent on one answer. Here a secret's key is derived once per worker (files share their modules,
 * vitest.config.ts) by the real deriveKey and handed out again; the KDF itself is not changed.
 * test/store/crypto.test.ts unmocks the module to test derivation itself (it runs isolated).
 */
import { vi } from "vitest";
import type * as Crypto from "../../src/store/crypto.js";

vi.mock("../../src/store/crypto.js", async (importOriginal) => {
  const real = await importOriginal<typeof Crypto>();
  const derived = new Map<string, Promise<Buffer>>();
  return {
    ...real,
    deriveKey(secret: string): Promise<Buffer> {
      let key = derived.get(secret);
      if (!key) {
        key = real.deriveKey(secret);
        derived.set(secret, key);
        key.catch(() => derived.delete(secret)); // an error (empty secret) is not kept
      }
      return key;
    },
  };
});
