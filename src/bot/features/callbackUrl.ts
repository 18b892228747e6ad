/**
 * /webhook: the chat's own provider callback URL (PUBLIC_URL/provider/<token>), how to paste it into
 * the provider's dashboard, whether callbacks arrive, and a button for a new URL (the old one stops
 * working at once). Without PUBLIC_URL: callbacks are off, status comes by polling (in sandbox
 * mode the sandbox calls back by itself).
 */
import { Composer } from "grammy";
import type { BaseContext, BotContext } from "../context.js";
import { cb, onCallback } from "../buttons.js";
import { html, wibClock } from "../../render/format.js";
import { callbackUrl, newCallbackToken } from "../../domain/providerCallbacks.js";
import { requireKey } from "../guards.js";
import { commands } from "../../telegram/commands.js";
import type { FeatureModule } from "../module.js";

export const callbackUrlFeature = new Composer<BotContext>();

/** "Callbacks: working, last at 14.05 WIB" once one arrived; undefined before. */
export async function callbacksLine(ctx: BaseContext): Promise<string | undefined> {
  const at = ctx.chatRecord?.callbacksLastAt;
  return at === undefined || at === null ? undefined : ctx.t("webhook-working", { at: wibClock(at, ctx.lang) });
}

async function screen(ctx: BaseContext, token: string): Promise<{ text: string; markup: { inline_keyboard: { text: string; callback_data: string }[][] } }> {
  const url = callbackUrl(ctx.deps.publicUrl!, token);
  const text = ctx.t("webhook-show", { url: html(url), state: await callbacksLine(ctx) ?? ctx.t("webhook-none-yet") });
  return { text, markup: { inline_keyboard: [[{ text: ctx.t("webhook-new-button"), callback_data: cb.webhookRenew.encode({}) }]] } };
}

callbackUrlFeature.command(commands.webhook, async (ctx) => {
  if (!(await requireKey(ctx))) return;
  if (ctx.deps.publicUrl === undefined) {
    // The built-in sandbox calls back by itself (app.ts): nothing to paste anywhere.
    const text = ctx.deps.sandbox
      ? ctx.t("webhook-sandbox", { state: await callbacksLine(ctx) ?? ctx.t("webhook-none-yet") })
      : ctx.t("webhook-off");
    await ctx.reply(text);
    return;
  }
  const { text, markup } = await screen(ctx, await ctx.deps.providerLink.callbackToken(ctx.chat.id));
  await ctx.reply(text, { reply_markup: markup, link_preview_options: { is_disabled: true } });
});

onCallback(callbackUrlFeature, cb.webhookRenew, async (ctx) => {
  const chatId = ctx.chat?.id;
  if (chatId === undefined || ctx.deps.publicUrl === undefined || !(await ctx.deps.providerLink.isLinked(chatId))) {
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    return;
  }
  const token = newCallbackToken();
  await ctx.deps.providerLink.renewCallbackToken(chatId, token);
  ctx.deps.logger.info({ chatId }, "provider callback URL renewed");
  await ctx.answerCallbackQuery({ text: ctx.t("webhook-renewed") });
  const { text, markup } = await screen(ctx, token);
  await ctx
    .editMessageText(text, { reply_markup: markup, link_preview_options: { is_disabled: true } })
    .catch(() => ctx.reply(text, { reply_markup: markup, link_preview_options: { is_disabled: true } }));
});

export const callbackUrlModule: FeatureModule = {
  name: "callbackUrl",
  composer: callbackUrlFeature,
  commands: { webhook: "owner" },
  buttons: { webhookRenew: "owner" },
};
