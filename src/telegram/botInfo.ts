/** The bot's identity at start (getMe), with every failure grammY retries silently logged. */
import { Bot, type ApiClientOptions, type Transformer } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { Logger } from "../logging/logger.js";

/**
 * The bot's identity as `bot.init()` gets it, observed like the bot's own calls. grammY retries a network
 * failure or a 5xx for ever (up to 20 min apart) without a word: each failure is logged, so an operator whose
 * server cannot reach Telegram sees why nothing happens.
 */
export async function fetchBotInfo(token: string, client: ApiClientOptions, observe: Transformer, logger: Logger): Promise<UserFromGetMe> {
  const probe = new Bot(token, { client });
  probe.api.config.use(observe);
  const retrying = (reason: unknown) => logger.warn({ reason }, "cannot reach Telegram (getMe failed); retrying: check the network, or TELEGRAM_API_ROOT if set");
  probe.api.config.use(async (prev, method, payload, signal) => {
    let res;
    try {
      res = await prev(method, payload, signal);
    } catch (err) {
      retrying(err instanceof Error ? err.message : String(err)); // a network failure
      throw err;
    }
    // What grammY retries; anything else (a 401: a revoked token) stops the start with its own message.
    if (!res.ok && (res.error_code >= 500 || res.error_code === 429)) retrying(`${res.error_code} ${res.description}`);
    return res;
  });
  await probe.init();
  return probe.botInfo;
}
