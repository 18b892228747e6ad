/**
 * The key of a category or provider name: what pricing rules store a category's markup under and what
 * callback data names a group by (telegram/buttonData.ts GROUP_KEY_MAX_LENGTH).
 */
import { shortHash } from "../tools/hash.js";

const KEY_LEN = 16;

/** A short ASCII key for a category or provider name (same name, same key). */
export function groupKey(name: string): string {
  const slug = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, KEY_LEN)
    .replace(/-+$/g, "");
  return slug || `x${shortHash(name, 6)}`;
}
