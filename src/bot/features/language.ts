/** /bahasa (/language): switch between Indonesian and English, stored per chat. */
import { Composer, InlineKeyboard } from "grammy";
import type { BotContext } from "../context.js";
import type { Lang } from "../../store/types.js";

export const languageFeature = new Composer<BotContext>();

const LABELS: Record<Lang, string> = { id: "🇮🇩 Bahasa Indonesia", en: "🇬🇧 English" };

export async function askLanguage(ctx: BotContext): Promise<void> {
  const keyboard = new InlineKeyboard().text(LABELS.id, "lang:id").text(LABELS.en, "lang:en");
  await ctx.reply(ctx.t("language-choose"), { reply_markup: keyboard });
}

languageFeature.command(["bahasa", "language"], askLanguage);

languageFeature.callbackQuery(/^lang:(id|en)$/, async (ctx) => {
  const lang = ctx.match[1] as Lang;
  ctx.deps.store.updateChat(ctx.chat!.id, { lang });
  ctx.lang = lang; // ctx.t reads it, so this reply is already in the new language
  await ctx.answerCallbackQuery();
  await ctx.editMessageText(ctx.t("language-set")).catch(() => ctx.reply(ctx.t("language-set")));
});
