/** Last: what no feature or flow took still gets an answer. */
import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import { buttonsWaiting } from "../middlewares/buttonWait.js";
import { isQueryTooOld } from "../middlewares/callbackInTime.js";
import type { FeatureModule } from "../module.js";

export const unhandledFeature = new Composer<BotContext>();

// A private message nothing else handled gets a way forward instead of silence.
unhandledFeature.chatType("private").on("message", (ctx) => {
  if (ctx.flowLost) return ctx.reply(ctx.t("flow-lost-after-update"));
  const wait = buttonsWaiting(ctx);
  if (wait === undefined) return ctx.reply(ctx.t("fallback-hint"));
  return ctx.reply(ctx.t(wait === "beli" ? "flow-tap-a-button-or-beli" : "flow-tap-a-button"));
});
// Every callback query is answered, even for buttons of flows that ended or a restart forgot.
unhandledFeature.on("callback_query", (ctx) =>
  ctx.answerCallbackQuery({ text: ctx.t("button-expired") }).catch((err: unknown) => {
    // A query too old or unknown to Telegram has nobody waiting for its answer.
    if (!isQueryTooOld(err)) throw err;
    ctx.deps.logger.debug({ update_id: ctx.update.update_id }, "callback query too old to answer; ignored");
  }),
);

export const unhandledModule: FeatureModule = { name: "unhandled", stage: "last", composer: unhandledFeature };
