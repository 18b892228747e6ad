/**
 * Api keys at rest: AES-256-GCM under a key derived from the configured secret.
 * Format `v1.<iv>.<tag>.<ciphertext>` (base64url) so the algorithm can change later without guessing.
 * The chat id is bound as associated data: a ciphertext copied onto another chat does not decrypt.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const FORMAT = "v1";
// A fixed salt is fine here: there is one secret per deployment, and scrypt's cost is what slows guessing.
const SALT = "ppob-bot/store/api-key/v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Derives the 32-byte AES key from the secret (scrypt, N=2^14: ~50 ms once at open). */
export function deriveKey(secret: string): Promise<Buffer> {
  if (!secret) return Promise.reject(new Error("The store secret must not be empty."));
  return new Promise((resolve, reject) => {
    scrypt(secret, SALT, 32, { N: 1 << 14, r: 8, p: 1 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** A short fingerprint of the key, kept in meta.json so a wrong secret is noticed before it encrypts anything. */
export function keyCheck(key: Buffer): string {
  return createHmac("sha256", key).update("ppob-bot/store/key-check").digest().subarray(0, 16).toString("base64url");
}

/**
 * A keyed digest of an api key, stored beside its ciphertext: two chats holding the same key are found
 * by comparing digests, without decrypting every chat's key. Keyed with the store's key, so a copy of
 * the files without the secret cannot test guessed keys against it.
 */
export function keyDigest(key: Buffer, rawKey: string): string {
  return createHmac("sha256", key).update(`ppob-bot/store/key-digest:${rawKey}`).digest().subarray(0, 16).toString("base64url");
}

export function keyCheckMatches(key: Buffer, stored: string): boolean {
  const a = Buffer.from(keyCheck(key));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function encrypt(key: Buffer, plain: string, aad: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [FORMAT, iv.toString("base64url"), tag.toString("base64url"), ct.toString("base64url")].join(".");
}

/** Returns undefined when the value does not authenticate (wrong key, wrong aad, damaged, unknown format). */
export function decrypt(key: Buffer, sealed: string, aad: string): string | undefined {
  const parts = sealed.split(".");
  if (parts.length !== 4 || parts[0] !== FORMAT) return undefined;
  const [, ivB64, tagB64, ctB64] = parts as [string, string, string, string];
  const iv = Buffer.from(ivB64, "base64url");
  const tag = Buffer.from(tagB64, "base64url");
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, "utf8"));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(ctB64, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}

/**
 * What the chat sees of its key: first 4 + "…" + last 4. Short keys show less so that the mask never
 * reveals most of the key: 4..8 chars show 1 + 1, under 4 show nothing.
 */
export function maskKey(key: string): string {
  const chars = Array.from(key);
  if (chars.length > 8) return `${chars.slice(0, 4).join("")}…${chars.slice(-4).join("")}`;
  if (chars.length >= 4) return `${chars[0]}…${chars[chars.length - 1]}`;
  return "…";
}

/**
 * Decrypted api keys, in memory only (never written), keyed by the ciphertext they came from so a
 * replaced key is never served. Decrypting on every update was the largest cost of a cached page
 * (bench/results.md). Both stores keep one.
 */
export class DecryptedKeys {
  private readonly byChat = new Map<number, { enc: string; key: string }>();

  /** The key in `enc`, or undefined when it does not decrypt under `key` (a wrong secret). */
  read(key: Buffer, chatId: number, enc: string): string | undefined {
    const cached = this.byChat.get(chatId);
    if (cached?.enc === enc) return cached.key;
    const plain = decrypt(key, enc, keyAad(chatId));
    if (plain !== undefined) this.byChat.set(chatId, { enc, key: plain });
    return plain;
  }

  forget(chatId: number): void {
    this.byChat.delete(chatId);
  }
}

/** The additional data an api key is sealed with: a ciphertext moved to another chat does not open. */
export function keyAad(chatId: number): string {
  return `chat:${chatId}`;
}
