/**
 * Delivery of one message by a bulk sender: through the shared pacer, waiting out 429s on the
 * pacer's clock, with the answer classified for the caller.
 */
import { GrammyError } from "grammy";
import type { SendPacer } from "./pacer.js";

export type Delivery<T> =
  | { outcome: "sent"; result: T }
  /** 403: the user blocked the bot or the account is gone. */
  | { outcome: "blocked"; error: unknown }
  | { outcome: "failed"; error: unknown }
  /** Aborted before the request went out: nothing was sent. */
  | { outcome: "stopped" };

export interface DeliverOptions {
  pacer: SendPacer;
  signal?: AbortSignal;
  /** 429s tolerated for one message before it counts as failed. */
  maxRateLimited?: number;
  /** Runs right before each request goes out (e.g. persist "this chat is in flight"). */
  beforeSend?: () => Promise<void>;
  /** A 429 came back: the message was not delivered. */
  onRateLimited?: () => void;
}

/** Sends one message through the pacer, waiting out 429s on the pacer's clock. Never throws for API errors. */
export async function deliver<T>(send: () => Promise<T>, opts: DeliverOptions): Promise<Delivery<T>> {
  const maxRateLimited = opts.maxRateLimited ?? 5;
  for (let limited = 0; ; ) {
    if (!(await opts.pacer.acquire(opts.signal))) return { outcome: "stopped" };
    await opts.beforeSend?.();
    try {
      return { outcome: "sent", result: await send() };
    } catch (error) {
      if (!(error instanceof GrammyError)) return { outcome: "failed", error };
      if (error.error_code === 403) return { outcome: "blocked", error };
      if (error.error_code !== 429 || ++limited > maxRateLimited) return { outcome: "failed", error };
      opts.pacer.pause(Math.max(1, error.parameters.retry_after ?? 1) * 1000);
      opts.onRateLimited?.();
    }
  }
}
