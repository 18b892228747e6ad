/**
 * Telegram's 429 (and 5xx, network errors) retried inside a conversation. Every API answer a flow
 * gets is in its replay log, and the flow is replayed on each new update; a retry outside that
 * log (auto-retry) would wait out every earlier 429 again on every replay. Here the wait itself
 * is an `external` step: live it sleeps once, on replay it is read back from the log at once.
 */
import { HttpError, type Transformer } from "grammy";
import { systemClock, type Clock } from "../../tools/clock.js";
import type { BotConversation } from "../context.js";

export interface RetryOptions {
  maxRetryAttempts: number;
  /** A longer retry_after is not waited for: the call fails (the user can try again). */
  maxDelaySeconds: number;
  /** What the waits run on (the app's clock, so tests move it instead of waiting). */
  clock?: Clock;
}

const FIRST_BACKOFF_SECONDS = 3;

export function replaySafeRetry(conversation: BotConversation, opts: RetryOptions): Transformer {
  const clock = opts.clock ?? systemClock;
  return async (prev, method, payload, signal) => {
    let backoff = FIRST_BACKOFF_SECONDS;
    for (let attempt = 0; ; attempt++) {
      let wait: number | undefined;
      try {
        const res = await prev(method, payload, signal);
        if (res.ok || attempt >= opts.maxRetryAttempts) return res;
        const after = res.parameters?.retry_after;
        if (typeof after === "number") {
          if (after > opts.maxDelaySeconds) return res;
          wait = after;
        } else if (res.error_code >= 500) {
          wait = backoff;
        } else {
          return res;
        }
      } catch (err) {
        if (!(err instanceof HttpError) || signal?.aborted || attempt >= opts.maxRetryAttempts) throw err;
        wait = backoff;
      }
      if (wait === backoff) backoff = Math.min(backoff * 2, opts.maxDelaySeconds);
      const seconds = wait;
      await conversation.external(() => clock.sleep(seconds * 1000));
    }
  };
}
