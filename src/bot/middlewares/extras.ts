/**
 * What every handler finds on the context: the dependencies, the chat's language and `t`. Runs inside
 * conversations too (they rebuild their context on every replay), after the chat record.
 */
import type { Middleware } from "grammy";
import { langFromTelegram } from "../../render/i18n.js";
import type { BaseContext, BotDeps } from "../context.js";
import { ChatRecordContext, knownChatRecord } from "./chatRecord.js";

export function extras(deps: BotDeps): Middleware<BaseContext> {
  const { translate } = deps;
  return (ctx, next) => {
    // A record the store could not read: Telegram's language, as for a new chat.
    const stored = knownChatRecord(ctx)?.lang;
    ctx.deps = deps;
    ctx.translate = translate;
    // A stored language whose file is gone reads as none: Telegram's is taken instead.
    ctx.lang = stored !== undefined && translate.langs.includes(stored) ? stored : langFromTelegram(translate.langs, ctx.from?.language_code);
    // The bot's own context class has `t` as a method; a flow's context gets one here.
    if (!(ctx instanceof ChatRecordContext)) ctx.t = (key, vars) => translate(ctx.lang, key, vars);
    return next();
  };
}
