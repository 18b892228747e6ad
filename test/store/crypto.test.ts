import { describe, expect, it, vi } from "vitest";
// The real derivation, not the per-file cache of test/support/setup.ts.
vi.unmock("../../src/store/crypto.js");
import { decrypt, deriveKey, encrypt, keyCheck, keyCheckMatches, maskKey } from "../../src/store/crypto.js";

describe("maskKey", () => {
  it("shows first 4 and last 4 of a long key", () => {
    expect(maskKey("abcd1234efgh5678")).toBe("abcd…5678");
    expect(maskKey("abcdefghi")).toBe("abcd…fghi");
  });

  it("masks more of short keys", () => {
    expect(maskKey("abcdefgh")).toBe("a…h");
    expect(maskKey("abcd")).toBe("a…d");
    expect(maskKey("abc")).toBe("…");
    expect(maskKey("")).toBe("…");
  });
});

describe("api key encryption", () => {
  it("round-trips with a fresh IV each time in the v1 format", async () => {
    const key = await deriveKey("s3cret");
    const a = encrypt(key, "raw-api-key-123", "chat:1");
    const b = encrypt(key, "raw-api-key-123", "chat:1");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toContain("raw-api-key-123");
    expect(decrypt(key, a, "chat:1")).toBe("raw-api-key-123");
  });

  it("does not decrypt under another secret, another chat or a damaged value", async () => {
    const key = await deriveKey("s3cret");
    const other = await deriveKey("other");
    const sealed = encrypt(key, "raw-api-key-123", "chat:1");
    expect(decrypt(other, sealed, "chat:1")).toBeUndefined();
    expect(decrypt(key, sealed, "chat:2")).toBeUndefined();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    expect(decrypt(key, parts.join("."), "chat:1")).toBeUndefined();
    expect(decrypt(key, "garbage", "chat:1")).toBeUndefined();
  });

  it("derives the same key from the same secret, and a key check that tells secrets apart", async () => {
    const a = await deriveKey("s3cret");
    expect((await deriveKey("s3cret")).equals(a)).toBe(true);
    expect(keyCheckMatches(a, keyCheck(a))).toBe(true);
    expect(keyCheckMatches(await deriveKey("other"), keyCheck(a))).toBe(false);
    await expect(deriveKey("")).rejects.toThrow(/secret/);
  });
});
