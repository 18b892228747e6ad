/**
 * Telegram webhook mode: grammY's handler for Hono, checking the secret token Telegram sends back in
 * X-Telegram-Bot-Api-Secret-Token (grammY answers 401 without it). An update is acknowledged after a
 * few seconds even if its handler still runs (a provider call may take 20 s), so Telegram does not
 * resend it meanwhile.
 */
import { webhookCallback, type Bot, type Context as BotContext } from "grammy";
import type { Context } from "hono";

export function webhookHandler<C extends BotContext>(bot: Bot<C>, secretToken: string): (c: Context) => Promise<Response> {
  return webhookCallback(bot, "hono", { secretToken, onTimeout: "return", timeoutMilliseconds: 5_000 });
}
