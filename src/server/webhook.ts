/**
 * Telegram webhook mode: a secret token generated once into DATA_DIR (Telegram sends it back in
 * X-Telegram-Bot-Api-Secret-Token; grammY answers 401 to a request without it and does not handle it),
 * and grammY's handler for Hono. An update is acknowledged after a few seconds even if its handler
 * still runs (a provider call may take 20 s), so Telegram does not resend it meanwhile.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { webhookCallback, type Bot, type Context as BotContext } from "grammy";
import type { Context } from "hono";

export const WEBHOOK_SECRET_FILE = "webhook-secret";

export async function resolveWebhookSecret(dataDir: string): Promise<string> {
  const file = join(dataDir, WEBHOOK_SECRET_FILE);
  try {
    const existing = (await readFile(file, "utf8")).trim();
    if (/^[A-Za-z0-9_-]{32,256}$/.test(existing)) return existing;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  await mkdir(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return secret;
}

export function webhookHandler<C extends BotContext>(bot: Bot<C>, secretToken: string): (c: Context) => Promise<Response> {
  return webhookCallback(bot, "hono", { secretToken, onTimeout: "return", timeoutMilliseconds: 5_000 });
}
