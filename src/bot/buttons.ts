/**
 * Binds the callback data shapes (src/telegram/buttonData.ts) to handlers: the handler runs only for
 * data its shape decodes and gets the typed fields. Anything no shape decodes falls through to the
 * bot's last handler, which answers "button expired".
 */
import type { Composer, Context, Filter } from "grammy";
import type { CallbackShape } from "../telegram/buttonData.js";

export * from "../telegram/buttonData.js";

/** The context of a callback query with data. */
export type CallbackContext<C extends Context> = Filter<C, "callback_query:data">;

export function onCallback<C extends Context, F>(
  composer: Composer<C>,
  shape: CallbackShape<F>,
  handler: (ctx: CallbackContext<C>, fields: F) => unknown,
): void {
  composer.on("callback_query:data", (ctx, next) => {
    const fields = shape.decode(ctx.callbackQuery.data);
    return fields === undefined ? next() : handler(ctx, fields);
  });
}
