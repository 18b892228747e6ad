/**
 * Every money-out and security change is told to the owner at once, in a message of its own, with a
 * "Bukan saya" button (docs/pin.md): a thief in the chat may delete it, but the owner's other device
 * has seen it. A failed send never stops the act.
 */
import type { BaseContext } from "../context.js";
import type { TranslateVars } from "../../render/i18n.js";
import { ledgerChat } from "../middlewares/roleGate.js";
import { notMeKeyboard } from "../keyboards/pin.js";

export async function announceSecurity(ctx: BaseContext, key: string, vars?: TranslateVars): Promise<void> {
  const owner = ledgerChat(ctx);
  const lang = owner === ctx.chat?.id ? ctx.lang : ((await ctx.deps.settings.language(owner)) ?? ctx.lang);
  const tr = { t: (k: string, v?: TranslateVars) => ctx.translate(lang, k, v) };
  await ctx.api
    .sendMessage(owner, `${tr.t(key, vars)}\n\n${tr.t("pin-not-you")}`, { reply_markup: notMeKeyboard(tr) })
    .catch((err: unknown) => ctx.deps.logger.warn({ err, chatId: owner }, "security notice not delivered"));
}
