/**
 * The provider's callbacks, as every part sees them: the per-chat token in the callback URL and the
 * signature the provider sends (md5 of the account's username: static and guessable, so a callback
 * is only ever a hint to check the status now).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Store } from "../store/index.js";

/** 24 url-safe characters (144 random bits): unguessable, and short enough to paste. */
export function newCallbackToken(): string {
  return randomBytes(18).toString("base64url");
}

/** The chat's callback token, made (and saved) on first use. */
export async function ensureCallbackToken(store: Store, chatId: number): Promise<string> {
  const have = (await store.getChat(chatId))?.callbackToken;
  if (have !== undefined) return have;
  const token = newCallbackToken();
  await store.updateChat(chatId, { callbackToken: token });
  return token;
}

/** The URL to paste into the provider's dashboard. */
export function callbackUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/provider/${token}`;
}

/** `X-ATL-Signature` the provider sends for an account: md5 of its username, lowercase hex. */
export function callbackSignature(username: string): string {
  return createHash("md5").update(username, "utf8").digest("hex");
}

/** The expected signature's bytes of the usernames seen lately: a burst of callbacks hashes its username once. */
const expected = new Map<string, Buffer>();
const EXPECTED_KEPT = 1000;

function expectedSignature(username: string): Buffer {
  let want = expected.get(username);
  if (want === undefined) {
    if (expected.size >= EXPECTED_KEPT) expected.clear();
    expected.set(username, (want = Buffer.from(callbackSignature(username))));
  }
  return want;
}

/** Whether `header` is the signature for `username` (constant time). */
export function signatureMatches(header: string | undefined, username: string): boolean {
  if (header === undefined) return false;
  const want = expectedSignature(username);
  const got = Buffer.from(header.trim().toLowerCase());
  return got.length === want.length && timingSafeEqual(got, want);
}
