/** Gates for money commands: private chats only, and a linked api key. */
import type { BaseContext } from "./context.js";

export function isPrivate(ctx: BaseContext): boolean {
  return ctx.chat?.type === "private";
}

/**
 * Returns the chat's api key, or tells the user why there is none (group chat, not linked) and
 * returns undefined. The key is decrypted per use and never kept on the context.
 */
export async function requireKey(ctx: BaseContext): Promise<string | undefined> {
  if (!ctx.chat) return undefined;
  if (!isPrivate(ctx)) {
    await ctx.reply(ctx.t("private-only"));
    return undefined;
  }
  const key = ctx.deps.store.getApiKey(ctx.chat.id);
  if (!key) {
    await ctx.reply(ctx.t("not-linked"));
    return undefined;
  }
  return key;
}
