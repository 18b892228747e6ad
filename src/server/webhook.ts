/**
 * Telegram webhook mode: grammY's handler for Hono, checking the secret token Telegram sends back in
 * X-Telegram-Bot-Api-Secret-Token (grammY answers 401 without it). An update is acknowledged after a
 * few seconds even if its handler still runs (a provider call may take 20 s), so Telegram does not
 * resend it meanwhile. A body that is no update (malformed JSON, empty, null, no update_id) gets
 * 400 before grammY sees it: it is the sender's fault, not an error of the bot.
 */
import { timingSafeEqual } from "node:crypto";
import { webhookCallback, type Bot, type Context as BotContext } from "grammy";
import type { Context } from "hono";

const SECRET_HEADER = "x-telegram-bot-api-secret-token";

function sameSecret(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

function isUpdate(body: unknown): boolean {
  return typeof body === "object" && body !== null && !Array.isArray(body) && Number.isSafeInteger((body as { update_id?: unknown }).update_id);
}

export function webhookHandler<C extends BotContext>(bot: Bot<C>, secretToken: string): (c: Context) => Promise<Response> {
  const handle = webhookCallback(bot, "hono", { secretToken, onTimeout: "return", timeoutMilliseconds: 5_000 });
  return async (c) => {
    // Without the right secret grammY answers (401), whatever the body.
    if (!sameSecret(c.req.header(SECRET_HEADER), secretToken)) return handle(c);
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      body = undefined;
    }
    if (!isUpdate(body)) return c.json({ error: "not a Telegram update" }, 400);
    return handle(c); // Hono keeps the body read above for grammY's c.req.json()
  };
}
