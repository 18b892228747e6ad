/** While the store cannot be reached (PgStore: reads fail too) the user hears so, not silence. */
import type { Middleware } from "grammy";
import { langFromTelegram } from "../../render/i18n.js";
import type { BotContext, BotDeps } from "../context.js";

export function storeUnavailable(deps: BotDeps, handlerFailed?: () => void): Middleware<BotContext> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (deps.store.canPersist() || !ctx.chat) throw err;
      deps.logger.error({ err, update_id: ctx.update.update_id }, "store unavailable: update not handled");
      handlerFailed?.();
      if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => undefined);
      // The chat's language is in the store: Telegram's is the best guess now.
      const lang = langFromTelegram(deps.translate.langs, ctx.from?.language_code);
      await ctx.reply(deps.translate(lang, "store-unavailable")).catch(() => undefined);
    }
  };
}
