/**
 * A sign of life while the provider is slow: "typing" at once, and after a moment a short line
 * saying the bot is checking with the provider, removed once the answer is there. The moment is
 * on the injected clock. Nested calls on the same context (a provider read inside a wider wait)
 * add nothing: one wait, one sign.
 */
import type { BaseContext } from "./context.js";

export const SLOW_NOTICE_MS = 1500;

/** Contexts whose signs are already up. */
const signalling = new WeakSet<object>();

/**
 * Runs `work` (which sends the answer itself) with the signs of life around it. `onLine` gets the line's
 * message id once it is shown (a money create saves it: a crash would leave the line behind).
 */
export async function whileAskingProvider<T>(ctx: BaseContext, work: () => Promise<T>, onLine?: (messageId: number) => Promise<void>): Promise<T> {
  const chatId = ctx.chat?.id;
  if (chatId === undefined || signalling.has(ctx)) return work();
  signalling.add(ctx);
  void ctx.api.sendChatAction(chatId, "typing").catch(() => undefined);
  let notice: Promise<number | undefined> | undefined;
  const timer = ctx.deps.clock.setTimeout(() => {
    notice = ctx.api.sendMessage(chatId, ctx.t("provider-checking")).then(
      async (m) => {
        await onLine?.(m.message_id).catch(() => undefined);
        return m.message_id;
      },
      () => undefined,
    );
  }, SLOW_NOTICE_MS);
  try {
    return await work();
  } finally {
    signalling.delete(ctx);
    timer.cancel();
    const id = await notice;
    if (id !== undefined) await ctx.api.deleteMessage(chatId, id).catch(() => undefined);
  }
}
