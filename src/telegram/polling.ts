/**
 * A fork of @grammyjs/runner 2.0's `run()` loop (pinned in test/telegram/forkPins.test.ts): a deploy's
 * two overlapping instances (409) must not end the bot, and a revoked token (401) must say so without
 * printing it; run() ends the process on either (test/bot/polling-conflict, polling-faults).
 *
 * Long polling: @grammyjs/runner's source, sink and runner, with our own getUpdates loop in place
 * of run()'s, because run() ends the process on one 409 or 401 (an unhandled rejection), backs off
 * without a cap after network errors (and the bot's auto-retry waits up to an hour in between), and
 * prints errors to the console with the request URL, token included.
 *
 * - Network errors, 5xx and anything unknown: wait 100 ms, doubling up to `maxBackoffMs` (30 s);
 *   the next success polls at once and starts the back-off again from the bottom.
 * - 409: another instance polls with the same token (two overlapping during a deploy). Waits
 *   `conflictWaitMs` and polls again, so this one takes over once the other stops: a warning when
 *   a conflict begins, a reminder every `conflictReminderMs` while it lasts, `onConflict` told.
 *   A conflict never ends polling.
 * - 429: waits retry_after.
 * - 401: the token was revoked or is wrong. Polling ends: the runner's task rejects with TokenRejectedError.
 * Every wait runs on the injected clock and ends early when polling stops. The clock's timers do
 * not hold the process up, so while polling runs a timer of its own does: without it, a process with
 * nothing else open (no HTTP_PORT) ended with exit code 0 in the first wait after a failed poll.
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
  /** How often a conflict that lasts is logged again (default 5 min). */
  conflictReminderMs?: number;
  /** Told when a conflict begins (its start time) and when it is over (undefined). */
  onConflict?: (since: number | undefined) => void;
  /** Long-poll timeout in seconds (default 30). */
  timeoutSeconds?: number;
}

export const POLL_BACKOFF_START_MS = 100;
export const POLL_BACKOFF_MAX_MS = 30_000;
export const CONFLICT_REMINDER_MS = 5 * 60_000;

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
  /** When the current stretch of 409s began, and when it was last logged. */
  let conflictSince: number | undefined;
  let conflictLoggedAt = 0;
  const conflictReminder = opts.conflictReminderMs ?? CONFLICT_REMINDER_MS;

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
        if (conflictSince !== undefined) {
          logger.info({ conflictSeconds: Math.round((clock.now() - conflictSince) / 1000) }, "the other bot instance stopped polling; this one polls now");
          conflictSince = undefined;
          opts.onConflict?.(undefined);
        }
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
          const now = clock.now();
          if (conflictSince === undefined) {
            conflictSince = now;
            conflictLoggedAt = now;
            opts.onConflict?.(now);
            logger.warn({ err }, "another bot instance is polling with this token (409); waiting for it to stop");
          } else if (now - conflictLoggedAt >= conflictReminder) {
            conflictLoggedAt = now;
            const minutes = Math.round((now - conflictSince) / 60_000);
            logger.warn({ conflictMinutes: minutes }, "another bot instance is still polling with this token (409); still waiting, no updates are handled here");
          }
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
  const holdOpen = setInterval(() => {}, 1 << 30);
  const release = () => {
    clearInterval(holdOpen);
    // A stopped poller (a standby, a stop) is in no conflict.
    if (conflictSince !== undefined) opts.onConflict?.((conflictSince = undefined));
  };
  void runner.task()?.then(release, release);
  return runner;
}
