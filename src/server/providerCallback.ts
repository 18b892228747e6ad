/**
 * POST /provider/:token: the provider's callbacks (a transaction, bill payment, transfer or deposit
 * changed). The token names the chat; the signature is md5 of that chat's provider username, which is
 * guessable, so a callback is only a hint: it makes the watcher check that id's status now. Only
 * the status answer changes a record or sends a notice, so a forged, replayed or stale callback costs
 * at most one status call. A signed one (the secret token and the signature) is taken as the
 * provider's own traffic: its check runs at once, a few at a time per key, not under the polling
 * rate, and up to SIGNED_CALLBACKS_PER_MINUTE per chat pass. One without a valid signature costs a
 * lookup and an md5, never a check, and only CALLBACKS_PER_MINUTE of them per chat are even logged:
 * a flood of them neither reaches the provider nor locks the real callbacks out. Answers carry no
 * detail: 404 unknown token, 401 bad signature, 413 too big, 429 too many, 400 not JSON, else 200.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import * as z from "../tools/zod.js";
import type { Clock } from "../tools/clock.js";
import type { Logger } from "../logging/logger.js";
import type { Store } from "../store/index.js";
import { signatureMatches } from "../domain/providerCallbacks.js";

/** A real callback is well under 2 KB (see the samples); 16 KB leaves room for odd shapes. */
export const CALLBACK_MAX_BYTES = 16 * 1024;
/** Per chat (token), callbacks whose signature is wrong or missing: answered 401 and logged up to this, then 429. */
export const CALLBACKS_PER_MINUTE = 300;
/**
 * Per chat, signed callbacks: the provider sends one per change, so a shop with 1,000 customers
 * paying at once sends ~2,000 in a minute or two (payment, then purchase); 6,000 (100 a second)
 * leaves room and still bounds what someone holding the token and username could make us check.
 */
export const SIGNED_CALLBACKS_PER_MINUTE = 6_000;
/** `callbacksLastAt` is saved at most this often per chat (it is read in minutes; a burst makes no store write per callback). */
const CALLBACKS_LAST_AT_EVERY_MS = 60_000;

/** Events the provider is known to send (upstream notes, "Webhooks"). */
const KNOWN_EVENTS = new Set(["transaksi", "transaksi.prabayar", "transaksi.pascabayar", "transfer", "deposit", "deposit.fast"]);

const id = z.catch(z.optional(z.pipe(z.union([z.string(), z.number()]), z.transform((v) => String(v).trim()))), undefined);
/** Tolerant: the envelope `status` is a word, amounts may be strings or numbers; only the ids matter here. */
const CallbackSchema = z.object({
  event: z.string().check(z.trim(), z.toLowerCase()),
  status: z.optional(z.unknown()),
  data: z.catch(z.optional(z.looseObject({ id, reff_id: id, ref_id: id })), undefined),
});

export interface ProviderCallbackDeps {
  store: Pick<Store, "chatByCallbackToken" | "findHotTx" | "updateChat">;
  clock: Clock;
  logger: Logger;
  /** The watcher checks this id next (StatusWatcher.hurry; `signed`: at once); false when it is not open. */
  hurry(refId: string, signed: boolean): Promise<boolean>;
  /** Counts callbacks by outcome (metrics). */
  onCallback?(outcome: CallbackOutcome): void;
}

export type CallbackOutcome = "matched" | "unmatched" | "unknown-event" | "bad-signature" | "unknown-token" | "rate-limited" | "malformed";

/** What the route answers: a status and a small JSON body that carries no detail. */
export interface CallbackAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

type CallbackChat = NonNullable<Awaited<ReturnType<ProviderCallbackDeps["store"]["chatByCallbackToken"]>>>;

/** The route's rules apart from HTTP: served on node's own request (callbackListener) and in process (callbackPost). */
export class ProviderCallbacks {
  private readonly unsigned = new WindowLimiter(CALLBACKS_PER_MINUTE, 60_000);
  private readonly signed = new WindowLimiter(SIGNED_CALLBACKS_PER_MINUTE, 60_000);

  constructor(private readonly deps: ProviderCallbackDeps) {}

  /** Token, signature and the chat's bound, before the body is read: the chat whose body to read, or the answer. */
  async admit(token: string, signature: string | undefined): Promise<{ chat: CallbackChat } | { answer: CallbackAnswer }> {
    const deps = this.deps;
    const chat = await deps.store.chatByCallbackToken(token);
    if (!chat) return this.answer("unknown-token", 404, { error: "not found" });
    const chatId = chat.chatId;
    const verified = chat.providerUsername !== undefined && signatureMatches(signature, chat.providerUsername);
    if (!(verified ? this.signed : this.unsigned).take(chatId, deps.clock.now())) {
      return this.answer("rate-limited", 429, { error: "too many requests" }, { "retry-after": "60" });
    }
    if (!verified) {
      deps.logger.warn({ chatId, signature: signature === undefined ? "missing" : "wrong" }, "provider callback refused: signature");
      return this.answer("bad-signature", 401, { error: "unauthorized" });
    }
    return { chat };
  }

  /** The body of an admitted callback: the check of the transaction it names is hurried. */
  async take(chat: CallbackChat, text: string): Promise<CallbackAnswer> {
    const deps = this.deps;
    const chatId = chat.chatId;
    let parsed;
    try {
      parsed = CallbackSchema.safeParse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) {
      deps.logger.warn({ chatId, bytes: text.length }, "provider callback refused: not a callback body");
      return this.answer("malformed", 400, { error: "bad request" }).answer;
    }
    const { event, data } = parsed.data;
    if (!KNOWN_EVENTS.has(event)) {
      deps.logger.info({ chatId, event: event.slice(0, 40) }, "provider callback with an unknown event; ignored");
      return this.answer("unknown-event", 200, { ok: true }).answer;
    }
    // Within this chat only: another chat's reference under this token matches nothing.
    const refs = [data?.reff_id, data?.ref_id, data?.id].filter((v): v is string => v !== undefined && v !== "");
    let tx;
    for (const r of refs) if ((tx = await deps.store.findHotTx(chatId, r))) break;
    if (!tx) {
      deps.logger.info({ chatId, event }, "provider callback matches no transaction of this chat; ignored");
      return this.answer("unmatched", 200, { ok: true }).answer;
    }
    // Only a callback about one of this chat's own transactions shows its callbacks work (and slows
    // its polling): a signed but empty or stray one changes nothing.
    const now = deps.clock.now();
    if (chat.callbacksLastAt === undefined || now - chat.callbacksLastAt >= CALLBACKS_LAST_AT_EVERY_MS) await deps.store.updateChat(chatId, { callbacksLastAt: now });
    // The check runs in the background; the provider gets its 200 now.
    const checking = await deps.hurry(tx.refId, true);
    deps.logger.debug({ chatId, refId: tx.refId, event, checking }, "provider callback");
    return this.answer("matched", 200, { ok: true }).answer;
  }

  private answer(outcome: CallbackOutcome, status: number, body: Record<string, unknown>, headers?: Record<string, string>): { answer: CallbackAnswer } {
    this.deps.onCallback?.(outcome);
    return { answer: { status, body, ...(headers && { headers }) } };
  }
}

const TOO_LARGE: CallbackAnswer = { status: 413, body: { error: "body too large" } };
const PATH = /^\/provider\/([^/?#]+)\/?(?:\?.*)?$/;

function tokenOf(url: string): string | undefined {
  const raw = PATH.exec(url)?.[1];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * POST /provider/:token on node's own request and response, ahead of the HTTP framework (which the
 * other routes use): a shop's burst brings ~2,000 callbacks, and building a web Request and Response
 * for each was about half of what a callback cost the event loop. Returns false for any other request.
 */
export function callbackListener(callbacks: ProviderCallbacks, logger: Logger): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== "POST" || req.url === undefined || !req.url.startsWith("/provider/")) return false;
    const token = tokenOf(req.url);
    if (token === undefined) return false;
    void serveCallback(callbacks, token, req, res).catch((err: unknown) => {
      logger.error({ err, path: "/provider/:token" }, "http request failed");
      if (!res.headersSent) send(res, { status: 500, body: { error: "internal error" } });
      else res.destroy();
    });
    return true;
  };
}

async function serveCallback(callbacks: ProviderCallbacks, token: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // A stated length is judged before anything is looked up (node's parser never reads past it).
  const stated = req.headers["content-length"];
  if (stated !== undefined && req.headers["transfer-encoding"] === undefined && Number.parseInt(stated, 10) > CALLBACK_MAX_BYTES) return send(res, TOO_LARGE);
  const signature = req.headers["x-atl-signature"];
  const admitted = await callbacks.admit(token, Array.isArray(signature) ? signature[0] : signature);
  if ("answer" in admitted) return send(res, admitted.answer);
  const text = await readBody(req, CALLBACK_MAX_BYTES);
  if (text === undefined) return send(res, TOO_LARGE, true);
  send(res, await callbacks.take(admitted.chat, text));
}

/** The body as text, or undefined once it grows past `max` (the rest is not read). */
function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners("data");
        req.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks, size).toString("utf8")));
    req.on("error", reject);
    // The client went away mid-body: nothing to answer (the answer to a closed socket goes nowhere).
    req.on("close", () => {
      if (!req.complete) resolve(undefined);
    });
  });
}

function send(res: ServerResponse, answer: CallbackAnswer, close = false): void {
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    ...(close && { connection: "close" }),
    ...answer.headers,
  });
  res.end(body);
}

/** The route in process (sandbox mode without an HTTP server): a fetch-like call, as the provider's POST. */
export function callbackPost(callbacks: ProviderCallbacks): (url: string, init: RequestInit) => Promise<Response> {
  const json = (a: CallbackAnswer) => Response.json(a.body, { status: a.status, ...(a.headers && { headers: a.headers }) });
  return async (url, init) => {
    const token = tokenOf(new URL(url).pathname);
    if (token === undefined || (init.method ?? "GET").toUpperCase() !== "POST") return json({ status: 404, body: { error: "not found" } });
    const headers = new Headers(init.headers);
    const text = typeof init.body === "string" ? init.body : await new Response(init.body).text();
    if (Buffer.byteLength(text) > CALLBACK_MAX_BYTES) return json(TOO_LARGE);
    const admitted = await callbacks.admit(token, headers.get("x-atl-signature") ?? undefined);
    return json("answer" in admitted ? admitted.answer : await callbacks.take(admitted.chat, text));
  };
}

/** At most `max` per key in a fixed window; forgets idle keys. */
class WindowLimiter {
  private readonly windows = new Map<number, { start: number; n: number }>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  take(key: number, now: number): boolean {
    if (this.windows.size > 10_000) for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
    const w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      this.windows.set(key, { start: now, n: 1 });
      return true;
    }
    w.n++;
    return w.n <= this.max;
  }
}
