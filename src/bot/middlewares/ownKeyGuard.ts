/**
 * The chat's own linked key anywhere in a private message, also while a flow waits for an answer:
 * deleted and answered before any flow or feature sees it. Only the exact own key is matched here,
 * so a flow's ordinary answers that merely look like keys (a transfer note) pass untouched.
 */
import type { Middleware } from "grammy";
import type { BotContext } from "../context.js";
import { deleteKeyMessage, resetsPin } from "../features/link.js";
import { apiKeyOf } from "./chatRecord.js";

export const ownKeyGuard: Middleware<BotContext> = async (ctx, next) => {
  // A broken client can send null or a number where Telegram documents a string.
  const message = ctx.message;
  const text = typeof message?.text === "string" ? message.text : typeof message?.caption === "string" ? message.caption : undefined;
  if (text === undefined || ctx.chat?.type !== "private") return next();
  const own = await apiKeyOf(ctx).catch(() => undefined); // unreadable (store secret): not matched
  if (own === undefined || !text.includes(own)) return next();
  await deleteKeyMessage(ctx);
  // The key alone, sent by its owner with a PIN set: the forgotten PIN is reset (docs/pin.md).
  if (text.trim() === own && ctx.role.kind === "owner" && (await resetsPin(ctx))) return;
  await ctx.reply(ctx.t("key-already-linked"));
};
