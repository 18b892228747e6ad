/**
 * Long polling: @grammyjs/runner's source, sink and runner, with our own getUpdates loop in place
 * of run()'s, because run() ends the process on one 409 or 401 (an unhandled rejection), backs off
 * without a cap after network errors (and the bot's auto-retry waits up to an hour in between), and
 * prints errors to the console with the request URL, token included.
 *
 * - Network errors, 5xx and anything unknown: wait 100 ms, doubling up to `maxBackoffMs` (30 s);
 *   the next success polls at once and starts the back-off again from the bottom.
 * - 409: another instance polls with the same token (two overlapping during a deploy). Logged;
 *   waits `conflictWaitMs` and polls again, so this one takes over once the other stops.
 * - 429: waits retry_after.
 * - 401: the token was revoked or is wrong. Polling ends: the runner's task rejects with TokenRejectedError.
 * Every wait runs on the injected clock and ends early when polling stops.
 */
import { createConcurrentSink, createRunner, createSource, type RunnerHandle } from "@grammyjs/runner";
import type { Api, Bot, Context } from "grammy";
import type { Update } from "grammy/types";
import type { Clock } from "../tools/clock.js";
import type { Logger } from "../logging/logger.js";

export interface PollingOptions {
  /** The Api getUpdates goes through: without auto-retry, so the back-off here is the only one. */
  api: Api;
  clock: Clock;
  logger: Logger;
  allowedUpdates: ReadonlyArray<Exclude<keyof Update, "update_id">>;
  /** Back-off cap after failed polls (default 30 s). */
  maxBackoffMs?: number;
  /** Wait after a 409 before polling again (default 10 s). */
  conflictWaitMs?: number;
  /** Long-poll timeout in seconds (default 30). */
  timeoutSeconds?: number;
}

export const POLL_BACKOFF_START_MS = 100;
export const POLL_BACKOFF_MAX_MS = 30_000;

/** A 401 while polling: the token no longer works. */
export class TokenRejectedError extends Error {
  override readonly name = "TokenRejectedError";
  constructor(readonly description: string) {
    super(
      `Telegram rejected BOT_TOKEN (401 ${description}): it was revoked or is wrong. ` +
        "Get the current token from @BotFather (/mybots, API Token), set BOT_TOKEN and start again.",
    );
  }
}

/** The abort signal grammY and the runner pass around (abort-controller's type on Node). */
type PollSignal = NonNullable<Parameters<Api["getUpdates"]>[1]>;

function errorCode(err: unknown): number | undefined {
  const code = (err as { error_code?: unknown } | null)?.error_code;
  return typeof code === "number" ? code : undefined;
}

/** Resolves after `ms` of clock time; rejects at once when `signal` aborts. */
function wait(clock: Clock, ms: number, signal: PollSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error("polling stopped"));
    const onAbort = () => {
      signal.removeEventListener("abort", onAbort);
      timer.cancel();
      reject(new Error("polling stopped"));
    };
    const timer = clock.setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort);
  });
}

export function startPolling<C extends Context>(bot: Bot<C>, opts: PollingOptions): RunnerHandle {
  const { api, clock, logger } = opts;
  const maxBackoff = opts.maxBackoffMs ?? POLL_BACKOFF_MAX_MS;
  const conflictWait = opts.conflictWaitMs ?? 10_000;
  let offset = 0;
  let backoff = POLL_BACKOFF_START_MS;
  let failures = 0;

  async function fetchUpdates(batchSize: number, signal: PollSignal): Promise<Update[]> {
    for (;;) {
      try {
        const updates = await api.getUpdates(
          {
            offset,
            limit: Math.max(1, Math.min(batchSize, 100)),
            timeout: opts.timeoutSeconds ?? 30,
            allowed_updates: [...opts.allowedUpdates],
          },
          signal,
        );
        if (failures > 0) logger.info({ failures }, "polling works again");
        failures = 0;
        backoff = POLL_BACKOFF_START_MS;
        const last = updates.at(-1);
        if (last) offset = last.update_id + 1;
        return updates;
      } catch (err) {
        if (signal.aborted) throw err;
        failures++;
        const code = errorCode(err);
        if (code === 401) throw new TokenRejectedError(String((err as { description?: unknown }).description ?? "Unauthorized"));
        if (code === 409) {
          logger.warn({ err }, "another bot instance is polling with this token (409); waiting for it to stop");
          await wait(clock, conflictWait, signal);
          continue;
        }
        const retryAfter = (err as { parameters?: { retry_after?: unknown } }).parameters?.retry_after;
        if (code === 429 && typeof retryAfter === "number") {
          logger.warn({ retryAfter }, "getUpdates rate limited; waiting");
          await wait(clock, retryAfter * 1000, signal);
          continue;
        }
        // Logged on the first failure and then about every few minutes, not on every try.
        if (failures === 1 || failures % 10 === 0) logger.warn({ err, failures, retryInMs: backoff }, "polling for updates failed; retrying");
        await wait(clock, backoff, signal);
        backoff = Math.min(maxBackoff, backoff * 2);
      }
    }
  }

  const supplier = {
    supply: async (batchSize: number, signal: PollSignal) => {
      await bot.init();
      supplier.supply = fetchUpdates;
      return fetchUpdates(batchSize, signal);
    },
  };
  const sink = createConcurrentSink<Update>(
    { consume: (update) => bot.handleUpdate(update) },
    async (error) => {
      try {
        await bot.errorHandler(error as never);
      } catch (err) {
        logger.error({ err }, "the error handler failed");
      }
    },
  );
  const runner = createRunner(createSource(supplier), sink);
  runner.start();
  return runner;
}
