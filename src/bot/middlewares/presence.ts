/**
 * A chat that blocked the bot (403, or my_chat_member "kicked") is inactive; any update from it,
 * or my_chat_member "member" (unblocked), makes it active again and sends the notices it missed
 * (and any update while some are still owed).
 */
import type { Middleware } from "grammy";
import type { BotContext } from "../context.js";
import { knownChatRecord } from "./chatRecord.js";
import type { ChatRecord } from "../../store/index.js";

export const presence: Middleware<BotContext> = (ctx, next) => {
  const chat = knownChatRecord(ctx); // unknown while the store is unreachable: nothing to note then
  const status = ctx.myChatMember?.new_chat_member.status;
  const leaves = status === "kicked" || status === "left";
  // Most updates: an active chat owed nothing, passed on with no promise of its own.
  if (chat === undefined || (leaves ? chat.inactive : !chat.inactive && !chat.owedNotices)) return next();
  return note(ctx, chat, leaves).then(next);
};

async function note(ctx: BotContext, chat: Readonly<ChatRecord>, leaves: boolean): Promise<void> {
  const { store, statusChecker } = ctx.deps;
  if (leaves) {
    ctx.chatRecord = await store.updateChat(chat.chatId, { inactive: true });
    return;
  }
  // owedNotices: a return that reached no watcher (a hand-over between processes) is taken up now.
  if (chat.inactive) ctx.chatRecord = await store.updateChat(chat.chatId, { inactive: false });
  statusChecker.chatBack(chat.chatId);
}
