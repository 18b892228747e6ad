/**
 * A chat that blocked the bot (403, or my_chat_member "kicked") is inactive; any update from it,
 * or my_chat_member "member" (unblocked), makes it active again and sends the notices it missed
 * (and any update while some are still owed).
 */
import type { Middleware } from "grammy";
import type { BotContext } from "../context.js";
import { knownChatRecord } from "./chatRecord.js";

export const presence: Middleware<BotContext> = async (ctx, next) => {
  const { store, statusChecker } = ctx.deps;
  const chat = knownChatRecord(ctx); // unknown while the store is unreachable: nothing to note then
  const status = ctx.myChatMember?.new_chat_member.status;
  if (chat && (status === "kicked" || status === "left")) {
    if (!chat.inactive) ctx.chatRecord = await store.updateChat(chat.chatId, { inactive: true });
  } else if (chat?.inactive || chat?.owedNotices) {
    // owedNotices: a return that reached no watcher (a hand-over between processes) is taken up now.
    if (chat.inactive) ctx.chatRecord = await store.updateChat(chat.chatId, { inactive: false });
    statusChecker.chatBack(chat.chatId);
  }
  return next();
};
