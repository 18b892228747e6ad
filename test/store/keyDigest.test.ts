import { describe, expect, it } from "vitest";
import { deriveKey } from "../../src/store/crypto.js";
import { KeyRing } from "../../src/store/rules.js";
import type { ChatRecord } from "../../src/store/index.js";

const KEY = "RAWKEY-a1b2c3d4e5f6g7h8i9j0-SECRETPART";

describe("a chat holding a key", () => {
  it("is told by the digest, and a key saved before digests by decrypting it", async () => {
    const secret = await deriveKey("test-secret-0123456789abcdef");
    const ring = new KeyRing(secret, "");
    ring.adoptOwnCheck();
    const sealed = { chatId: 5, createdAt: 1, updatedAt: 1, ...ring.seal(5, KEY, 1) } as ChatRecord;
    expect(sealed.keyDigest).toBeDefined();
    expect(sealed.keyDigest).not.toContain(KEY);
    expect(ring.holds(sealed, KEY)).toBe(true);
    expect(ring.holds(sealed, "ANOTHER-KEY-0123456789")).toBe(false);

    const { keyDigest: _, ...legacy } = sealed;
    expect(ring.holds(legacy, KEY)).toBe(true);
    expect(ring.holds(legacy, "ANOTHER-KEY-0123456789")).toBe(false);
    // Under another secret the digest differs: a copy of the files cannot test guessed keys.
    const other = new KeyRing(await deriveKey("another-secret-0123456789"), "");
    expect(other.digest(KEY)).not.toBe(ring.digest(KEY));
  });
});
