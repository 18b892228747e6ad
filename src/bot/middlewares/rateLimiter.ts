/** The per-user flood limit: one notice per window, and every limited button press answered. */
import type { Middleware } from "grammy";
import { limit } from "@grammyjs/ratelimiter";
import type { Shared } from "../../cluster/shared.js";
import type { BotContext } from "../context.js";

export interface RateLimit {
  timeFrameMs: number;
  limit: number;
}

/** `false`: no limit. `shared`: counted across the bot processes, else in memory. */
export function rateLimiter(opts: RateLimit | false, shared?: Pick<Shared, "hit">): Middleware<BotContext> {
  if (!opts) return (_ctx, next) => next();
  // The limiter's Redis-style storage over the shared counter: `hit` counts in a fixed window of
  // its own, so the expiry the limiter asks for is already done. A counter that cannot be reached
  // lets the update through: a database hiccup must not silence every user.
  const storageClient = shared && {
    incr: (key: string) => shared.hit(key, opts.timeFrameMs).catch(() => 1),
    pexpire: async () => 1,
  };
  const limiter = limit<BotContext, NonNullable<typeof storageClient>>({
    timeFrame: opts.timeFrameMs,
    limit: opts.limit,
    ...(storageClient && { storageClient }),
    // One notice per window; buttons are answered below on every limited press.
    onLimitExceeded: async (ctx) => {
      if (!ctx.callbackQuery && ctx.chat) await ctx.reply(ctx.t("rate-limited"));
    },
    keyGenerator: (ctx) => ctx.from?.id.toString(),
  });
  return async (ctx, next) => {
    let passed = false;
    await limiter(ctx, async () => {
      passed = true;
      await next();
    });
    if (!passed && ctx.callbackQuery) {
      await ctx.answerCallbackQuery({ text: ctx.t("rate-limited") }).catch(() => undefined);
    }
  };
}
