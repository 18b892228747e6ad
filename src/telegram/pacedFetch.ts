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
import nodeFetch from "node-fetch";
import type { Clock } from "../tools/clock.js";
import { sleepUnless, type Pacer, type SendPriority } from "./pacer.js";

/** grammY's client.fetch, as it calls it. */
export type FetchLike = (url: string, init: { body?: unknown; signal?: AbortSignal | null } & Record<string, unknown>) => Promise<Response>;

export interface PacedFetchOptions {
  pacer: Pacer;
  clock: Clock;
  /**
   * Default: node-fetch, grammY's own client on Node (its keep-alive agent comes in `init`). Not the
   * platform fetch: its first request compiles undici's WebAssembly HTTP parser, ~100 ms of CPU and
   * a ~36 MB compiler peak at start-up (bench/startup.ts).
   */
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
  const inner: FetchLike = opts.fetch ?? ((url, init) => nodeFetch(url, init) as unknown as Promise<Response>);
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
