/** /bahasa (/language): switch between Indonesian and English, stored per chat. */
import { Composer, InlineKeyboard } from "grammy";
import { cb, onCallback } from "../buttons.js";
import type { BotContext } from "../context.js";
import { editOrReply } from "../replies.js";

export const languageFeature = new Composer<BotContext>();

export async function askLanguage(ctx: BotContext): Promise<void> {
  // Each language is named in itself, so the labels read the same in both locale files.
  const keyboard = new InlineKeyboard().text(ctx.t("language-name-id"), cb.language.encode({ lang: "id" }))
    .text(ctx.t("language-name-en"), cb.language.encode({ lang: "en" }));
  await ctx.reply(ctx.t("language-choose"), { reply_markup: keyboard });
}

languageFeature.command(["bahasa", "language"], askLanguage);

onCallback(languageFeature, cb.language, async (ctx, { lang }) => {
  await ctx.deps.store.updateChat(ctx.chat!.id, { lang });
  ctx.lang = lang; // ctx.t reads it, so this reply is already in the new language
  await ctx.answerCallbackQuery();
  await editOrReply(ctx, ctx.t("language-set"));
});
