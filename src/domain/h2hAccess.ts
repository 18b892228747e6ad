/**
 * A downline's H2H access (docs/h2h.md): the owner's switch, one api key kept only as its sha256
 * digest (the key is 32 random bytes: a digest of it cannot be reversed by guessing, and a slow hash
 * would only cost every call), the caller IPs allowed and the callback URL. Two document kinds, so
 * both store backends keep them alike: `h2h_access` (id: the downline's chat) and `h2h_key` (id: a
 * key's digest, active | retired). A new key retires the old one in the same step. The key itself
 * is returned once by newKey and never stored or logged.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import type { DocKind, Store } from "../store/index.js";
import * as z from "../tools/zod.js";

/** Most caller IPs one key may list. */
export const H2H_IPS_MAX = 10;

const AccessSchema = z.object({
  enabled: z.boolean(),
  /** sha256 hex of the current key; absent until the downline makes one. */
  keyDigest: z.optional(z.string().check(z.regex(/^[0-9a-f]{64}$/))),
  keyAt: z.optional(z.number()),
  ips: z.array(z.string().check(z.maxLength(45))).check(z.maxLength(H2H_IPS_MAX)),
  callbackUrl: z.optional(z.string().check(z.maxLength(500))),
});
export type H2hAccessValue = z.infer<typeof AccessSchema>;
/** id: the downline's chat; owner: its network's owner. state "active" (the switch is `enabled`). */
export const H2hAccessKind: DocKind<H2hAccessValue> = { name: "h2h_access", schema: AccessSchema };

const KeySchema = z.object({ chat: z.int() });
/** id: a key's sha256 hex; active | retired. */
export const H2hKeyKind: DocKind<z.infer<typeof KeySchema>> = { name: "h2h_key", schema: KeySchema };

/** The sha256 hex of a key. */
export function keyDigest(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** A caller that passed the key check: whose key it is. Its membership and IP are the caller's to check. */
export interface H2hCaller {
  chat: number;
  owner: number;
  ips: readonly string[];
  callbackUrl?: string | undefined;
}

export type H2hRefusal = "not-member" | "off" | "bad-ip" | "bad-url" | "unknown";

/** What a downline's access looks like (for the chat command and the owner's screen). */
export interface H2hView {
  enabled: boolean;
  hasKey: boolean;
  keyAt?: number | undefined;
  ips: readonly string[];
  callbackUrl?: string | undefined;
}

/** An IPv4 or IPv6 address as written in an allowlist (IPv4-mapped IPv6 as plain IPv4). */
export function normalIp(ip: string): string | undefined {
  const t = ip.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "").toLowerCase();
  return isIP(t) ? t : undefined;
}

function callbackUrlAllowed(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  return u.protocol === "https:" || (u.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(u.hostname));
}

export class H2hAccess {
  constructor(private readonly store: Store) {}

  async view(chat: number): Promise<H2hView | undefined> {
    const doc = await this.store.getDoc(H2hAccessKind, String(chat));
    if (!doc) return undefined;
    const v = doc.value;
    return { enabled: v.enabled, hasKey: v.keyDigest !== undefined, keyAt: v.keyAt, ips: v.ips, callbackUrl: v.callbackUrl };
  }

  /** The owner turns a downline's access on or off; only for its own downline. */
  async enable(owner: number, chat: number, on: boolean): Promise<H2hView | "not-member"> {
    const record = await this.store.getChat(chat);
    if (record?.downlineOf?.owner !== owner) return "not-member";
    const id = String(chat);
    const doc = await this.store.getDoc(H2hAccessKind, id);
    if (!doc || doc.owner !== owner) {
      // A downline that left one network and joined another starts with nothing of the old one.
      if (doc) await this.retire(doc.value.keyDigest);
      const value: H2hAccessValue = { enabled: on, ips: [] };
      if (doc) await this.store.updateDoc(H2hAccessKind, id, { version: doc.version }, { value });
      else await this.store.createDoc(H2hAccessKind, { id, owner, state: "active", value });
    } else {
      await this.store.updateDoc(H2hAccessKind, id, { version: doc.version }, { value: { ...doc.value, enabled: on } });
    }
    await this.store.flush();
    return (await this.view(chat))!;
  }

  /** A new key for the downline (shown once); the old one stops now. Refused while access is off. */
  async newKey(chat: number, now: number): Promise<{ key: string } | "off"> {
    const id = String(chat);
    const doc = await this.store.getDoc(H2hAccessKind, id);
    if (!doc?.value.enabled) return "off";
    const key = randomBytes(32).toString("base64url");
    const digest = keyDigest(key);
    await this.store.createDoc(H2hKeyKind, { id: digest, owner: doc.owner, state: "active", value: { chat } });
    const saved = await this.store.updateDoc(H2hAccessKind, id, { version: doc.version }, { value: { ...doc.value, keyDigest: digest, keyAt: now } });
    if (!saved) {
      // Another change came first: this key never worked.
      await this.retire(digest);
      return this.newKey(chat, now);
    }
    await this.retire(doc.value.keyDigest);
    await this.store.flush();
    return { key };
  }

  async setIps(chat: number, ips: readonly string[]): Promise<H2hView | H2hRefusal> {
    const normal = ips.map(normalIp);
    if (normal.some((ip) => ip === undefined) || normal.length > H2H_IPS_MAX) return "bad-ip";
    return this.change(chat, (v) => ({ ...v, ips: [...new Set(normal as string[])] }));
  }

  /** undefined clears it. */
  async setCallbackUrl(chat: number, url: string | undefined): Promise<H2hView | H2hRefusal> {
    if (url !== undefined && !callbackUrlAllowed(url)) return "bad-url";
    return this.change(chat, ({ callbackUrl: _old, ...v }) => ({ ...v, ...(url !== undefined ? { callbackUrl: url } : {}) }));
  }

  /**
   * The caller a key belongs to, when the key is current and its access on; undefined otherwise. The
   * lookup is by digest; the digest found is compared with the access's in constant time.
   */
  async authenticate(key: string): Promise<H2hCaller | undefined> {
    if (key.length === 0 || key.length > 256) return undefined;
    const digest = keyDigest(key);
    const keyDoc = await this.store.getDoc(H2hKeyKind, digest);
    if (keyDoc?.state !== "active") return undefined;
    const access = await this.store.getDoc(H2hAccessKind, String(keyDoc.value.chat));
    const stored = access?.value.keyDigest;
    if (!access?.value.enabled || stored === undefined) return undefined;
    if (!timingSafeEqual(Buffer.from(stored, "hex"), Buffer.from(digest, "hex"))) return undefined;
    return { chat: keyDoc.value.chat, owner: access.owner, ips: access.value.ips, callbackUrl: access.value.callbackUrl };
  }

  private async change(chat: number, f: (v: H2hAccessValue) => H2hAccessValue): Promise<H2hView | H2hRefusal> {
    const id = String(chat);
    for (let tries = 0; tries < 3; tries++) {
      const doc = await this.store.getDoc(H2hAccessKind, id);
      if (!doc) return "unknown";
      if (await this.store.updateDoc(H2hAccessKind, id, { version: doc.version }, { value: f(doc.value) })) {
        await this.store.flush();
        return (await this.view(chat))!;
      }
    }
    return "unknown";
  }

  private async retire(digest: string | undefined): Promise<void> {
    if (digest !== undefined) await this.store.updateDoc(H2hKeyKind, digest, { states: ["active"] }, { state: "retired" });
  }
}
