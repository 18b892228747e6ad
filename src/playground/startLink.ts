/**
 * A link that starts this bot with a payload, as Telegram reads one: `https://t.me/<bot>?start=<payload>`
 * (t.me, telegram.me, with or without the scheme) or `tg://resolve?domain=<bot>&start=<payload>`.
 * Telegram takes a payload of up to 64 characters of A-Z, a-z, 0-9, _ and -.
 */
const PAYLOAD = /^[A-Za-z0-9_-]{1,64}$/;

/** The payload `url` starts the bot `username` with, or undefined for any other link. */
export function startPayload(url: string, username: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(/^[a-z]+:/i.test(url) ? url : `https://${url}`);
  } catch {
    return undefined;
  }
  const web = /^https?:$/.test(parsed.protocol) && /^(t|telegram)\.me$/i.test(parsed.hostname);
  const bot = web ? parsed.pathname.replace(/^\/|\/$/g, "") : parsed.protocol === "tg:" && parsed.hostname === "resolve" ? parsed.searchParams.get("domain") : null;
  const payload = parsed.searchParams.get("start");
  if (bot === null || bot.toLowerCase() !== username.toLowerCase() || payload === null || !PAYLOAD.test(payload)) return undefined;
  return payload;
}
