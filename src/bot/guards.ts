/** Gates for money commands: private chats only, a linked api key, a store that can save. */
import { openPrivateKeyboard } from "./keyboards/guards.js";
import type { BaseContext } from "./context.js";
import { apiKeyOf } from "./middlewares/chatRecord.js";

export function isPrivate(ctx: BaseContext): boolean {
  return ctx.chat?.type === "private";
}

/** "Private chat only", with a button that opens the private chat with the bot (t.me link). */
export async function replyPrivateOnly(ctx: BaseContext, key = "private-only"): Promise<void> {
  const username = ctx.me?.username;
  const markup = username ? { reply_markup: openPrivateKeyboard(ctx, username) } : {};
  await ctx.reply(ctx.t(key), markup);
}

/** No key to work with: the owner is asked to link one; staff (who cannot) to ask their owner. */
export function notLinkedText(ctx: BaseContext): string {
  return ctx.t(ctx.role.kind === "staff" ? "not-linked-staff" : "not-linked");
}

/**
 * Returns the chat's api key, or tells the user why there is none (group chat, not linked) and
 * returns undefined. The key is decrypted once per update (apiKeyOf) and never kept on the context.
 */
export async function requireKey(ctx: BaseContext): Promise<string | undefined> {
  if (!ctx.chat) return undefined;
  if (!isPrivate(ctx)) {
    await replyPrivateOnly(ctx);
    return undefined;
  }
  const key = await apiKeyOf(ctx);
  if (!key) {
    await ctx.reply(notLinkedText(ctx));
    return undefined;
  }
  return key;
}

/**
 * Money actions start only while the store can save: a write that failed (disk full, read-only)
 * means the reference id or the "sending" mark might not reach the disk. Tells the user and returns false.
 */
export async function requireStorage(ctx: BaseContext): Promise<boolean> {
  if (ctx.deps.store.canPersist()) return true;
  const text = ctx.t("store-unavailable");
  // A message, not only an alert: some buttons answered their query before they got here.
  if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => undefined);
  await ctx.reply(text);
  return false;
}

/** `requireKey` for actions that move money: also refuses while the store cannot save. */
export async function requireMoneyKey(ctx: BaseContext): Promise<string | undefined> {
  const key = await requireKey(ctx);
  if (key === undefined || !(await requireStorage(ctx))) return undefined;
  return key;
}
