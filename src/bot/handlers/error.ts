/** A handler that failed: logged, counted, and the user gets an apology instead of silence. */
import { GrammyError, HttpError, type BotError } from "grammy";
import type { BotContext, BotDeps } from "../context.js";
import { Overtaken } from "../middlewares/wayOuts.js";
import { isQueryTooOld } from "../middlewares/callbackInTime.js";

export function errorHandler(deps: BotDeps, handlerFailed?: () => void): (err: BotError<BotContext>) => Promise<void> {
  return async (err) => {
    if (err.error instanceof Overtaken) return;
    // A tap Telegram no longer takes an answer for (a burst held it): expected, nobody is waiting.
    if (isQueryTooOld(err.error)) {
      deps.logger.debug({ update_id: err.ctx.update.update_id }, "callback query too old to answer; ignored");
      return;
    }
    deps.logger.error({ err: err.error, update_id: err.ctx.update.update_id }, "handler failed");
    handlerFailed?.();
    await replyFailure(err.ctx);
  };
}

async function replyFailure(ctx: BotContext): Promise<void> {
  try {
    if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => undefined);
    // A write that failed is why, when the store can no longer save: money steps save before any provider call.
    if (ctx.chat) await ctx.reply(ctx.t(ctx.deps.store.canPersist() ? "error-generic" : "store-write-failed"));
  } catch (e) {
    if (!(e instanceof GrammyError || e instanceof HttpError)) throw e;
  }
}
