/**
 * Delivery of one message by a bulk sender (broadcast, balance alerts and round, watcher notices):
 * through the shared pacer, waiting out 429s on the pacer's clock, with Telegram's answer
 * classified the same way for every caller. Callers decide what an outcome means to them: the
 * broadcast counts refused and uncertain as failed and never retries them (a network error may
 * hide a delivered message); the watcher retries uncertain notices through its exactly-once protocol.
 */
import type { Pacer } from "./pacer.js";

/** How a request that threw ended. */
export type Failure =
  /** 403: the user blocked the bot or the account is gone. */
  | "blocked"
  /** Telegram refused for good (400 and other 4xx): retrying cannot help. */
  | "refused"
  /** 429: known not delivered; the pacer was paused for retry_after. */
  | "rate-limited"
  /** No answer from Telegram (network, 5xx, anything else): maybe delivered. */
  | "uncertain";

export type Delivery<T> =
  | { outcome: "sent"; result: T }
  | { outcome: Failure; error: unknown }
  /** Aborted before the request went out: nothing was sent. */
  | { outcome: "stopped" };

/** Telegram's error code when Telegram answered (grammY's GrammyError), else undefined. */
export function telegramCode(err: unknown): number | undefined {
  const code = (err as { error_code?: unknown } | null)?.error_code;
  return typeof code === "number" ? code : undefined;
}

/** An edit that changes nothing: the message already shows exactly that. */
export function isNotModified(err: unknown): boolean {
  const d = (err as { description?: unknown } | null)?.description;
  return telegramCode(err) === 400 && typeof d === "string" && d.includes("message is not modified");
}

/** How long a 429 asks everyone to wait, in ms (at least 1 s); undefined for other errors. */
export function retryAfterMs(err: unknown): number | undefined {
  if (telegramCode(err) !== 429) return undefined;
  const s = (err as { parameters?: { retry_after?: unknown } } | null)?.parameters?.retry_after;
  return Math.max(1, typeof s === "number" ? s : 1) * 1000;
}

/** A failed request: blocked (403), rate limited (429), refused for good (other 4xx), or not known. */
export function classify(err: unknown): Failure {
  const code = telegramCode(err);
  if (code === 403) return "blocked";
  if (code === 429) return "rate-limited";
  if (code !== undefined && code >= 400 && code < 500) return "refused";
  return "uncertain";
}

/** What the bulk senders count: refused, uncertain and a 429 past `maxRateLimited` are all "failed". */
export function counted(d: Delivery<unknown>): "sent" | "blocked" | "failed" | "stopped" {
  return d.outcome === "sent" || d.outcome === "blocked" || d.outcome === "stopped" ? d.outcome : "failed";
}

export interface DeliverOptions {
  /** Without one the request goes out at once (a 429 is then only reported). */
  pacer?: Pacer | undefined;
  signal?: AbortSignal;
  /** 429s waited out and retried for one message; the next one is returned as "rate-limited" (default 5). */
  maxRateLimited?: number;
  /** Runs right before each request goes out (e.g. persist "this chat is in flight"). */
  beforeSend?: () => Promise<void>;
  /** A 429 came back: the message was not delivered. */
  onRateLimited?: () => void | Promise<void>;
}

/** Sends one message through the pacer, waiting out 429s on the pacer's clock. Never throws for API errors. */
export async function deliver<T>(send: () => Promise<T>, opts: DeliverOptions): Promise<Delivery<T>> {
  const maxRateLimited = opts.maxRateLimited ?? 5;
  for (let limited = 0; ; ) {
    const slot = opts.pacer ? await opts.pacer.take(opts.signal) : undefined;
    if (opts.pacer && !slot) return { outcome: "stopped" };
    await opts.beforeSend?.();
    slot?.goingOut();
    try {
      return { outcome: "sent", result: await send() };
    } catch (error) {
      const outcome = classify(error);
      if (outcome !== "rate-limited") return { outcome, error };
      // Every 429 pauses all senders: Telegram asked everyone to wait.
      opts.pacer?.pause(retryAfterMs(error)!);
      await opts.onRateLimited?.();
      if (++limited > maxRateLimited) return { outcome, error };
    }
  }
}
