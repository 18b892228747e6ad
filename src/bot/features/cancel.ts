/** /batal (/cancel) and the Cancel button: they must work while a flow waits, so they sit before the flows. */
import { Composer } from "grammy";
import { cb, onCallback } from "../buttons.js";
import type { BotContext } from "../context.js";
import { commands } from "../../telegram/commands.js";
import type { FeatureModule } from "../module.js";

export const cancelFeature = new Composer<BotContext>();

cancelFeature.command(commands.batal, async (ctx) => {
  const active = Object.keys(await ctx.conversation.active()).length > 0;
  const chat = ctx.chatRecord;
  await ctx.conversation.exitAll();
  if (chat?.awaitingKey && chat.apiKeyEnc) ctx.chatRecord = await ctx.deps.store.updateChat(chat.chatId, { awaitingKey: false });
  await ctx.reply(ctx.t(active || chat?.awaitingKey ? "cancelled" : "nothing-to-cancel"), {
    reply_markup: { remove_keyboard: true },
  });
});

onCallback(cancelFeature, cb.cancel, async (ctx) => {
  await ctx.conversation.exitAll();
  await ctx.answerCallbackQuery();
  await ctx.editMessageReplyMarkup().catch(() => undefined);
  await ctx.reply(ctx.t("cancelled"));
});

export const cancelModule: FeatureModule = {
  name: "cancel",
  stage: "wayOut",
  composer: cancelFeature,
  commands: { batal: "anyone" },
  buttons: { cancel: "anyone" },
};
