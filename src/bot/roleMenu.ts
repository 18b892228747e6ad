/**
 * A chat's role changed (it joined or left the staff, its staff role changed, it opened a shop): its
 * Telegram Menu becomes the new role's (telegram/roleCommands.ts). Only the Menu: a chat whose Menu
 * cannot be set (it blocked the bot) keeps its old one, whose other commands the role gate refuses,
 * and the change itself stands.
 */
import { roleOf, type Role } from "../domain/roles.js";
import { menuRoleOf, setChatCommands } from "../telegram/roleCommands.js";
import type { BaseContext } from "./context.js";

/** Sets `chatId`'s Menu for `role` (default: the role its record names now). Never throws. */
export async function roleChanged(ctx: BaseContext, chatId: number, role?: Role): Promise<void> {
  try {
    const now = role ?? roleOf(await ctx.deps.store.getChat(chatId));
    await setChatCommands(ctx.api, ctx.translate, chatId, menuRoleOf(now));
  } catch (err) {
    ctx.deps.logger.warn({ err, chatId }, "chat's command menu not set");
  }
}
