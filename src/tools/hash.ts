import { createHash } from "node:crypto";

/** FNV-1a (32-bit): cheap, stable across runs and platforms, spreads sequential ids well. Not for secrets. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The first `len` characters of a SHA-256 in letters and digits only (fit for callback data). */
export function shortHash(text: string, len: number): string {
  return createHash("sha256").update(text).digest("base64url").replace(/[-_]/g, "x").slice(0, len);
}
