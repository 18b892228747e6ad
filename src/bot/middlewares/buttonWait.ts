/**
 * Screens of buttons outside a guided flow (the menu, the product browser): a text typed while one
 * is the newest answer is pointed back to its buttons instead of "not understood". Kept in memory
 * for ten minutes on the injected clock: a restart only loses a hint. Any command forgets it.
 */
import type { Middleware } from "grammy";
import type { BaseContext, BotContext } from "../context.js";

const WAIT_MS = 10 * 60_000;
const MAX_CHATS = 10_000;

/** How the screen can also be answered by typing: "beli" = /beli CODE TARGET. */
export type ButtonWaitHint = "plain" | "beli";

const waiting = new Map<number, { until: number; hint: ButtonWaitHint }>();

/** The chat's newest answer is a screen of buttons. */
export function buttonsShown(ctx: BaseContext, hint: ButtonWaitHint = "plain"): void {
  const chatId = ctx.chat?.id;
  if (chatId === undefined) return;
  waiting.delete(chatId);
  waiting.set(chatId, { until: ctx.deps.clock.now() + WAIT_MS, hint });
  if (waiting.size > MAX_CHATS) waiting.delete(waiting.keys().next().value!);
}

/** The hint of a screen of buttons still waiting in this chat, if any. */
export function buttonsWaiting(ctx: BaseContext): ButtonWaitHint | undefined {
  const chatId = ctx.chat?.id;
  const wait = chatId === undefined ? undefined : waiting.get(chatId);
  if (!wait) return undefined;
  if (wait.until > ctx.deps.clock.now()) return wait.hint;
  waiting.delete(chatId!);
  return undefined;
}

/** A command answers with a screen of its own: the earlier one no longer waits. */
export const forgetButtonsOnCommand: Middleware<BotContext> = (ctx, next) => {
  if (ctx.chat && ctx.message?.text?.startsWith("/")) waiting.delete(ctx.chat.id);
  return next();
};
