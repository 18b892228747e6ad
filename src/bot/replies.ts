/** Small reply helpers shared by features: the sandbox banner, upstream error text, edit or reply. */
import type { InlineKeyboard } from "grammy";
import type { UpstreamError } from "../upstream/errors.js";
import { isNotModified } from "../telegram/delivery.js";
import type { BaseContext } from "./context.js";
import { withSandboxBanner } from "../render/sandboxBanner.js";
import { failureOf, failureText } from "./provider.js";

/** Every money message starts with the sandbox banner when the bot runs against the sandbox. */
export function moneyText(ctx: BaseContext, text: string): string {
  return withSandboxBanner(ctx.translate, ctx.lang, ctx.deps.sandbox, text);
}

/** What a user is told about an upstream failure, in their language. */
export function upstreamErrorText(ctx: BaseContext, err: UpstreamError): string {
  return failureText(ctx, failureOf(err));
}

/**
 * Shows `text` in place of the text message whose button was pressed (when `edit`), else as a new
 * message; also when Telegram refuses the edit (the message is too old, deleted). An edit that
 * changes nothing (a double tap) is done already: no second message.
 */
export async function editOrReply(
  ctx: BaseContext,
  text: string,
  other: { reply_markup?: InlineKeyboard } = {},
  edit = true,
): Promise<number> {
  const pressed = ctx.callbackQuery?.message;
  if (edit && pressed && "text" in pressed && pressed.text !== undefined) {
    try {
      await ctx.editMessageText(text, other);
      return pressed.message_id;
    } catch (err) {
      if (isNotModified(err)) return pressed.message_id;
    }
  }
  return (await ctx.reply(text, other)).message_id;
}
