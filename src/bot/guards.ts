/** Gates for money commands: private chats only, and a linked api key. */
import { InlineKeyboard } from "grammy";
import type { BaseContext } from "./context.js";

export function isPrivate(ctx: BaseContext): boolean {
  return ctx.chat?.type === "private";
}

/** "Private chat only", with a button that opens the private chat with the bot (t.me link). */
export async function replyPrivateOnly(ctx: BaseContext, key = "private-only"): Promise<void> {
  const username = ctx.me?.username;
  const markup = username ? { reply_markup: new InlineKeyboard().url(ctx.t("button-open-private"), `https://t.me/${username}`) } : {};
  await ctx.reply(ctx.t(key), markup);
}

/**
 * Returns the chat's api key, or tells the user why there is none (group chat, not linked) and
 * returns undefined. The key is decrypted per use and never kept on the context.
 */
export async function requireKey(ctx: BaseContext): Promise<string | undefined> {
  if (!ctx.chat) return undefined;
  if (!isPrivate(ctx)) {
    await replyPrivateOnly(ctx);
    return undefined;
  }
  const key = ctx.deps.store.getApiKey(ctx.chat.id);
  if (!key) {
    await ctx.reply(ctx.t("not-linked"));
    return undefined;
  }
  return key;
}
