/** /bahasa (/language): switch to any language of locales/, stored per chat. */
import { Composer } from "grammy";
import { languageKeyboard } from "../keyboards/language.js";
import { cb, onCallback } from "../buttons.js";
import type { BotContext } from "../context.js";
import { editOrReply } from "../replies.js";
import { commands } from "../../telegram/commands.js";
import type { FeatureModule } from "../module.js";

export const languageFeature = new Composer<BotContext>();

export async function askLanguage(ctx: BotContext): Promise<void> {
  // Each language is named in itself, whatever the chat's language.
  await ctx.reply(ctx.t("language-choose"), { reply_markup: languageKeyboard(ctx.translate) });
}

languageFeature.command(commands.bahasa, askLanguage);

onCallback(languageFeature, cb.language, async (ctx, { lang }) => {
  // A language this start did not load (its file was removed): the button has expired.
  if (!ctx.translate.langs.includes(lang)) return ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
  ctx.chatRecord = await ctx.deps.store.updateChat(ctx.chat!.id, { lang });
  ctx.lang = lang; // ctx.t reads it, so this reply is already in the new language
  await ctx.answerCallbackQuery();
  await editOrReply(ctx, ctx.t("language-set"));
});

export const languageModule: FeatureModule = {
  name: "language",
  composer: languageFeature,
  commands: { bahasa: "anyone" },
  buttons: { language: "anyone" },
  menu: { language: askLanguage },
};
