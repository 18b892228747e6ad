/**
 * The bot's own Telegram requests (handlers, conversations, bot.api) under the one global pacer.
 * It wraps the HTTP client's fetch, not the Api, because conversations build a fresh Api per
 * replay with only the client options: at this level every Api of the bot is covered once, and a
 * conversation records the final answer only (a replay never re-waits or re-sends).
 *
 * Messages (send*, copy*, forward*) wait for an answer-priority slot of the shared SendPacer, so
 * answers go before bulk sends and all of them stay under Telegram's flood limit together. A 429
 * means Telegram delivered nothing: the pacer pauses everyone for retry_after and the same request
 * goes again, until it gets through or `maxWaitMs` of clock time has passed (then the 429 is the
 * answer). Other methods (edits, deletes, answerCallbackQuery) are not paced, only retried on a 429.
 */
import { Agent, fetch as undiciFetch } from "undici";
import type { Clock } from "../tools/clock.js";
import { sleepUnless, type Pacer, type SendPriority } from "./pacer.js";

/** grammY's client.fetch, as it calls it. */
export type FetchLike = (url: string, init: { body?: unknown; signal?: AbortSignal | null } & Record<string, unknown>) => Promise<Response>;

export interface PacedFetchOptions {
  pacer: Pacer;
  clock: Clock;
  /** Default: undici's fetch (telegramFetch below). */
  fetch?: FetchLike | undefined;
  priority?: SendPriority;
  /** Clock time after which a request still answered 429 gives up (default 5 minutes; grammY times a request out after 500 s anyway). */
  maxWaitMs?: number;
}

/** Methods that post a message: what Telegram's ~30 messages/s counts. */
export function isPostingMethod(method: string): boolean {
  return (method.startsWith("send") && method !== "sendChatAction") || method.startsWith("copyMessage") || method.startsWith("forwardMessage");
}

const NOT_RETRIED: ReadonlySet<string> = new Set(["getUpdates"]);

export function pacedFetch(opts: PacedFetchOptions): FetchLike {
  const inner: FetchLike = opts.fetch ?? telegramFetch;
  const priority = opts.priority ?? "answer";
  const maxWaitMs = opts.maxWaitMs ?? 5 * 60_000;
  return async (url, init) => {
    const method = String(url).slice(String(url).lastIndexOf("/") + 1);
    if (NOT_RETRIED.has(method)) return inner(url, init);
    const paced = isPostingMethod(method);
    const signal = init.signal ?? undefined;
    // A multipart body (photo upload) is a stream that can be read once: keep its bytes to send again.
    const body = init.body === undefined || typeof init.body === "string" ? init.body : await readAll(init.body);
    const started = opts.clock.now();
    for (;;) {
      if (paced) {
        const slot = await opts.pacer.take(signal, priority);
        if (!slot) throw abortError();
        slot.goingOut();
      }
      const res = await inner(url, { ...init, body });
      if (res.status !== 429) return res;
      const text = await res.text();
      const waitMs = retryAfterMs(text);
      opts.pacer.pause(waitMs);
      if (opts.clock.now() + waitMs - started > maxWaitMs) {
        return new Response(text, { status: 429, headers: { "content-type": "application/json" } });
      }
      // A paced request waits in the pacer (paused above); others wait here.
      if (!paced) await sleepUnless(opts.clock, waitMs, signal);
      if (signal?.aborted) throw abortError();
    }
  };
}

/**
 * Connections to Telegram stay open between requests, as with grammY's own client (a keep-alive
 * agent): idle for up to 60 s, under the usual server limits, so that a reused one is rarely closed.
 */
const telegramAgent = new Agent({ keepAliveTimeout: 60_000, keepAliveMaxTimeout: 10 * 60_000 });

/**
 * undici's fetch with grammY's request as it comes (method, headers, body; its Node agent is
 * ignored). grammY's abort signal is its own polyfill, which undici refuses: a native one follows it.
 * A dropped connection rejects with a TypeError ("fetch failed", the cause inside, no URL), which
 * grammY turns into its HttpError like any network failure.
 */
export const telegramFetch: FetchLike = (url, init) => {
  const signal = init.signal ? nativeSignal(init.signal) : undefined;
  return undiciFetch(url, { ...init, signal, dispatcher: telegramAgent } as Parameters<typeof undiciFetch>[1]) as unknown as Promise<Response>;
};

/** grammY's signal (a polyfill on Node), as much of it as following it takes. */
interface SignalLike {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void, options: { once: boolean }): void;
}

function nativeSignal(signal: SignalLike): AbortSignal {
  if (signal instanceof AbortSignal) return signal;
  const controller = new AbortController();
  if (signal.aborted) controller.abort();
  else signal.addEventListener("abort", () => controller.abort(), { once: true });
  return controller.signal;
}

function retryAfterMs(text: string): number {
  try {
    const s = (JSON.parse(text) as { parameters?: { retry_after?: unknown } }).parameters?.retry_after;
    return Math.max(1, typeof s === "number" ? s : 1) * 1000;
  } catch {
    return 1000;
  }
}

async function readAll(body: unknown): Promise<Uint8Array | unknown> {
  if (body instanceof Uint8Array || body === null || typeof body !== "object" || !(Symbol.asyncIterator in body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array | string>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

function abortError(): Error {
  const e = new Error("The request was aborted while waiting for a send slot");
  e.name = "AbortError";
  return e;
}
