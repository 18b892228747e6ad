/** Very first: Telegram resends a webhook update that timed out, maybe to the other process; one of them handles it. */
import type { Middleware } from "grammy";
import type { Shared } from "../../cluster/shared.js";
import type { Logger } from "../../logging/logger.js";
import type { BotContext } from "../context.js";

export function claimUpdate(shared: Pick<Shared, "claimUpdate">, logger: Logger): Middleware<BotContext> {
  // Then-callbacks, not an async function around `next`: one promise fewer on every update's path.
  return (ctx, next) =>
    shared.claimUpdate(ctx.update.update_id).then(
      (claimed) => {
        if (claimed) return next();
        logger.debug({ update_id: ctx.update.update_id }, "update already handled (a resend); skipped");
      },
      (err: unknown) => {
        // Handled rather than dropped: the store-unavailable answer follows, and money actions refuse anyway.
        logger.warn({ err, update_id: ctx.update.update_id }, "could not claim the update; handling it here");
        return next();
      },
    );
}
