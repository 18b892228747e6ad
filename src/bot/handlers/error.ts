/** A handler that failed: logged, counted, and the user gets an apology instead of silence. */
import { GrammyError, HttpError, type BotError } from "grammy";
import type { BotContext, BotDeps } from "../context.js";
import { Overtaken } from "../middlewares/wayOuts.js";

export function errorHandler(deps: BotDeps, handlerFailed?: () => void): (err: BotError<BotContext>) => Promise<void> {
  return async (err) => {
    if (err.error instanceof Overtaken) return;
    deps.logger.error({ err: err.error, update_id: err.ctx.update.update_id }, "handler failed");
    handlerFailed?.();
    await replyFailure(err.ctx);
  };
}

async function replyFailure(ctx: BotContext): Promise<void> {
  try {
    if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => undefined);
    if (ctx.chat) await ctx.reply(ctx.t("error-generic"));
  } catch (e) {
    if (!(e instanceof GrammyError || e instanceof HttpError)) throw e;
  }
}
