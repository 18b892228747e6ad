/**
 * A tap gets its answer while Telegram still takes one. Telegram refuses a callback query's answer
 * a few seconds after the tap ("query is too old"; clients give up on the spinner about then too),
 * and a tap can wait longer than that in its chat's queue (sequentialize.ts) behind a slow update.
 *
 * So each callback query is answered plainly once it has waited CALLBACK_ANSWER_BY_MS unanswered,
 * and the handler's own answer, when it comes, is turned into what still reaches the user: its text
 * (a toast or an alert about the outcome) as a message in the chat, nothing when it had no text.
 * An answer Telegram refuses as too old (a burst that held the update before it reached us) is the
 * same case, not a failed handler: logged at debug, its text sent as a message.
 *
 * Installed on the update's own Api (grammY makes one per update), so it sees every answer the
 * update's handlers and flows give, and only theirs.
 */
import { GrammyError, type MiddlewareFn, type Transformer } from "grammy";
import type { BotContext, BotDeps } from "../context.js";
import { html } from "../../tools/html.js";

/**
 * 5 s after the update reached us. Telegram documents no figure; answers are refused from about
 * 10-15 s after the tap, and the update itself can reach us seconds after the tap (a long poll's
 * round trip, a webhook's retry, a busy process); the plain answer then still has the flood-control
 * pacer and a retry to get through. Handlers answer in well under a second, so a tap that is not
 * queued keeps its toast.
 */
export const CALLBACK_ANSWER_BY_MS = 5_000;

const TOO_OLD = /query is too old|query id is invalid/i;

export function isQueryTooOld(err: unknown): boolean {
  return err instanceof GrammyError && err.error_code === 400 && TOO_OLD.test(err.description);
}

export function callbackInTime(deps: Pick<BotDeps, "clock" | "logger">): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const query = ctx.update.callback_query;
    if (!query) return next();
    const updateId = ctx.update.update_id;
    const chatId = query.message?.chat.id ?? query.from.id;
    let answered = false;

    /** The handler's text reaches the chat as a message once a toast can no longer show it. */
    const tellInChat = async (prev: Parameters<Transformer>[0], payload: unknown, signal: Parameters<Transformer>[3]): Promise<void> => {
      const text = (payload as { text?: unknown }).text;
      if (typeof text !== "string" || text === "") return;
      const sent = await prev("sendMessage", { chat_id: chatId, text: html(text) }, signal).catch(() => undefined);
      if (!sent?.ok) deps.logger.debug({ update_id: updateId }, "late callback answer not delivered as a message");
    };

    ctx.api.config.use(async (prev, method, payload, signal) => {
      const p = payload as { callback_query_id?: unknown };
      if (method !== "answerCallbackQuery" || p.callback_query_id !== query.id) return prev(method, payload, signal);
      // answerCallbackQuery's result is `true`: the handler carries on as if its toast was shown.
      const taken = { ok: true, result: true } as Awaited<ReturnType<typeof prev<typeof method>>>;
      if (answered) return tellInChat(prev, payload, signal).then(() => taken);
      answered = true;
      const res = await prev(method, payload, signal);
      if (res.ok || res.error_code !== 400 || !TOO_OLD.test(res.description)) return res;
      deps.logger.debug({ update_id: updateId }, "callback query too old to answer; its text sent as a message");
      return tellInChat(prev, payload, signal).then(() => taken);
    });

    const timer = deps.clock.setTimeout(() => {
      if (answered) return;
      deps.logger.debug({ update_id: updateId }, "callback query still queued: answered plainly");
      ctx.answerCallbackQuery().catch((err: unknown) => {
        deps.logger.debug({ err, update_id: updateId }, "plain callback answer not taken");
      });
    }, CALLBACK_ANSWER_BY_MS);
    try {
      await next();
    } finally {
      timer.cancel();
    }
  };
}
