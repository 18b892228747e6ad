/**
 * createBot(token, deps, botConfig?) builds the whole bot without starting it: the list of
 * middlewares (src/bot/middlewares/, in the order an update meets them), then the feature modules
 * (features/index.ts), each stage at its point.
 * `deps` is complete (app.ts buildApp makes every part first), so no feature has an "unavailable" branch.
 */
import { Bot, type ApiClientOptions, type Middleware, type Transformer } from "grammy";
import { autoRetry } from "@grammyjs/auto-retry";
import type { UserFromGetMe } from "grammy/types";
import type { BotContext, BotDeps } from "./context.js";
import { htmlByDefault } from "../telegram/parseMode.js";
import type { Shared } from "../cluster/shared.js";
import { claimUpdate } from "./middlewares/claimUpdate.js";
import { callbackInTime } from "./middlewares/callbackInTime.js";
import { sequentializeChats } from "./middlewares/sequentialize.js";
import { WayOuts } from "./middlewares/wayOuts.js";
import { storeUnavailable } from "./middlewares/storeUnavailable.js";
import { ChatRecordContext, ChatRecords } from "./middlewares/chatRecord.js";
import { extras } from "./middlewares/extras.js";
import { role } from "./middlewares/role.js";
import { presence } from "./middlewares/presence.js";
import { rateLimiter, type RateLimit } from "./middlewares/rateLimiter.js";
import { ownKeyGuard } from "./middlewares/ownKeyGuard.js";
import { roleGate } from "./middlewares/roleGate.js";
import { flows } from "./middlewares/conversations.js";
import { forgetButtonsOnCommand } from "./middlewares/buttonWait.js";
import { customerGate } from "./middlewares/customerGate.js";
import { errorHandler } from "./handlers/error.js";
import { stageComposers } from "./features/index.js";

export interface BotConfig {
  botInfo?: UserFromGetMe;
  client?: ApiClientOptions;
  /** Per-user flood limit; `false` turns it off (benchmarks). */
  rateLimit?: RateLimit | false;
  /** How long auto-retry may wait on a 429 before giving up, for interactive replies. */
  maxRetryDelaySeconds?: number;
  /** Observers (metrics, health): every update first, every failed handler, every Bot API request. */
  observe?: { update: Middleware<BotContext>; handlerFailed: () => void; api: Transformer };
  /**
   * What bot processes share (cluster/shared.ts): each update is handled once across them, and the
   * per-user rate limit counts on all of them. Without it: this process alone, counted in memory.
   */
  shared?: Pick<Shared, "claimUpdate" | "hit">;
}

const DEFAULT_RATE_LIMIT: RateLimit = { timeFrameMs: 3000, limit: 8 };

export type AppBot = Bot<BotContext>;

export function createBot(token: string, deps: BotDeps, botConfig: BotConfig = {}): AppBot {
  const bot = new Bot<BotContext>(token, {
    botInfo: botConfig.botInfo,
    client: botConfig.client,
    ContextConstructor: ChatRecordContext as unknown as new (...args: ConstructorParameters<typeof ChatRecordContext>) => BotContext,
  });
  const { observe, shared } = botConfig;
  const maxRetryDelaySeconds = botConfig.maxRetryDelaySeconds ?? 60;
  // Installed before auto-retry, so it sees every request that goes out, 429s included.
  if (observe) bot.api.config.use(observe.api);
  bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: maxRetryDelaySeconds }));
  bot.api.config.use(htmlByDefault);

  const wayOuts = new WayOuts();
  const chatRecords = new ChatRecords(deps.store);
  // First: a tap's time to be answered runs from its arrival, whatever holds it after.
  bot.use(callbackInTime(deps));
  if (shared) bot.use(claimUpdate(shared, deps.logger));
  if (observe) bot.use(observe.update);
  bot.use(sequentializeChats());
  bot.use(wayOuts.count);
  bot.use(storeUnavailable(deps, observe?.handlerFailed));
  bot.use(chatRecords.load as Middleware<BotContext>);
  bot.use(role as Middleware<BotContext>);
  bot.use(extras(deps) as Middleware<BotContext>);
  bot.use(presence);
  bot.use(rateLimiter(botConfig.rateLimit ?? DEFAULT_RATE_LIMIT, shared));
  const onError = errorHandler(deps, observe?.handlerFailed);
  // Who may do what, before any flow or feature sees the update.
  bot.use(roleGate as Middleware<BotContext>);
  // A shop's customer chat reaches the shop only (a staff invitation aside). Then the feature modules
  // (features/index.ts), each stage at its point of the chain (module.ts Stage).
  bot.use(customerGate(onError, stageComposers("shopfront")));
  bot.errorBoundary(onError, ...stageComposers("beforeKey"));
  bot.use(ownKeyGuard);
  bot.use(forgetButtonsOnCommand);
  bot.use(flows(deps, { chatRecords, wayOuts, maxRetryDelaySeconds }));
  bot.use(...stageComposers("wayOut"));
  bot.errorBoundary(onError, ...stageComposers("flows"));
  bot.errorBoundary(onError, ...stageComposers("main"));
  bot.use(...stageComposers("last"));

  bot.catch((err) => deps.logger.error({ err: err.error, update_id: err.ctx.update.update_id }, "unhandled error"));
  return bot;
}
