/**
 * Turns one HTTP answer into a typed value or a typed error. Pure (no I/O) so that fixtures and
 * odd bodies can be tested without a server; the client feeds it what undici returned.
 */
import type * as z from "../tools/zod.js";
import { UpstreamRejected, UpstreamUnavailable, UpstreamUnexpected, redactSecret } from "./errors.js";

export interface DecodeContext {
  endpoint: string;
  /** True for create calls: a failure after sending leaves the outcome unknown. */
  create: boolean;
  /** The api key of the call, scrubbed from anything the provider echoes back. */
  secret?: string;
}

export interface HttpAnswer {
  status: number;
  contentType?: string;
  text: string;
}

const MAX_PROVIDER_MESSAGE = 300;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** `status` is a boolean on most endpoints and the string "true" on some. */
export function parseStatusFlag(v: unknown): boolean | undefined {
  if (typeof v === "boolean") return v;
  if (typeof v === "string") {
    const t = v.trim().toLowerCase();
    if (t === "true") return true;
    if (t === "false") return false;
  }
  return undefined;
}

/** Cloudflare challenge and error pages arrive with HTTP 200, 403 or 5xx. */
function looksLikeHtml(contentType: string | undefined, text: string): boolean {
  if (contentType && /html/i.test(contentType)) return true;
  return text.trimStart().startsWith("<");
}

/** The provider's `message`, tolerating arrays/objects of messages (validation errors). */
function messageText(v: unknown): string | undefined {
  const parts: string[] = [];
  const walk = (x: unknown, depth: number): void => {
    if (typeof x === "string" && x.trim()) parts.push(x.trim());
    else if (typeof x === "number") parts.push(String(x));
    else if (depth < 3 && Array.isArray(x)) x.forEach((y) => walk(y, depth + 1));
    else if (depth < 3 && isRecord(x)) Object.values(x).forEach((y) => walk(y, depth + 1));
  };
  walk(v, 0);
  if (parts.length === 0) return undefined;
  const joined = parts.join("; ");
  return joined.length > MAX_PROVIDER_MESSAGE ? `${joined.slice(0, MAX_PROVIDER_MESSAGE)}…` : joined;
}

function integerCode(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "string" && /^\d+$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

/** Zod path as `data[0].price`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || "(body)";
}

/** Decodes a parsed JSON body: envelope first, then `data` through `schema`. */
export function decodeBody<S extends z.ZodMiniType>(body: unknown, schema: S, ctx: DecodeContext): z.output<S> {
  const scrub = (t: string) => (ctx.secret ? redactSecret(t, ctx.secret) : t);
  if (!isRecord(body)) throw new UpstreamUnavailable(ctx.endpoint, "malformed", { outcomeUnknown: ctx.create });

  const ok = parseStatusFlag(body.status);
  if (ok === false) {
    const msg = messageText(body.message);
    throw new UpstreamRejected(ctx.endpoint, msg === undefined ? undefined : scrub(msg), integerCode(body.code));
  }
  if (ok === undefined) {
    throw new UpstreamUnexpected(ctx.endpoint, "status", "expected true or false", ctx.create);
  }

  const parsed = schema.safeParse(body.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = formatPath(["data", ...(issue?.path ?? [])]);
    throw new UpstreamUnexpected(ctx.endpoint, scrub(field), scrub(issue?.message ?? "invalid"), ctx.create);
  }
  return parsed.data;
}

/** Classifies the raw HTTP answer (5xx, HTML, broken JSON) before decoding the body. */
export function decodeAnswer<S extends z.ZodMiniType>(answer: HttpAnswer, schema: S, ctx: DecodeContext): z.output<S> {
  const { status } = answer;
  const unavailable = (reason: "http" | "html" | "malformed") =>
    new UpstreamUnavailable(ctx.endpoint, reason, { outcomeUnknown: ctx.create, httpStatus: status });

  // A 5xx leaves a create's outcome unknown even if it carries a JSON refusal: don't trust it.
  if (status >= 500) throw unavailable("http");
  if (looksLikeHtml(answer.contentType, answer.text)) throw unavailable("html");

  const success = status >= 200 && status < 300;
  let body: unknown;
  try {
    body = JSON.parse(answer.text.replace(/^\uFEFF/, "")); // PHP backends sometimes emit a BOM
  } catch {
    throw unavailable(success ? "malformed" : "http");
  }
  // 4xx with a JSON `status:false` is an ordinary refusal (e.g. a key used from a wrong IP).
  if (!success && !(isRecord(body) && parseStatusFlag(body.status) === false)) throw unavailable("http");
  return decodeBody(body, schema, ctx);
}
