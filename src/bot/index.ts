/**
 * createBot(token, deps, botConfig?) builds the whole bot without starting it. `deps` is complete
 * (app.ts buildApp makes every part first), so no feature has an "unavailable" branch.
 */
import { Bot, GrammyError, type BotError, HttpError, type ApiClientOptions, type Middleware, type Transformer } from "grammy";
import { autoRetry } from "@grammyjs/auto-retry";
import { conversations, createConversation } from "@grammyjs/conversations";
import { limit } from "@grammyjs/ratelimiter";
import { sequentialize } from "@grammyjs/runner";
import type { Update, UserFromGetMe } from "grammy/types";
import { cb, onCallback, type MenuName } from "./buttons.js";
import type { BaseContext, BotContext, BotConversation, BotDeps, ConvContext } from "./context.js";
import { replaySafeRetry } from "./flows/retry.js";
import { langFromTelegram } from "../render/i18n.js";
import { htmlByDefault } from "../telegram/parseMode.js";
import { balanceFeature, showBalance } from "./features/balance.js";
import { askLanguage, languageFeature } from "./features/language.js";
import { linkFeature, ownKeyGuard } from "./features/link.js";
import { webhookFeature } from "./features/webhook.js";
import { menuFeature } from "./features/menu.js";
import { adminModule } from "./features/admin.js";
import { alertsModule } from "./features/alerts.js";
import { billModule } from "./features/bill.js";
import { customersModule } from "./features/customers.js";
import { depositModule } from "./features/deposit.js";
import { historyModule } from "./features/history.js";
import { shopModule } from "./features/shop.js";
import { reportModule } from "./features/report.js";
import { markupModule } from "./features/markup.js";
import { statusModule } from "./features/status.js";
import { topupModule } from "./features/topup.js";
import { transferModule } from "./features/transfer.js";
import { confirmFeature } from "./money/confirm.js";
import { correctionFeature } from "./features/correction.js";
import type { FeatureModule, MenuAction } from "./module.js";
import { FLOW_STATE_VERSION, flowStorage } from "./flowStorage.js";
import type { Shared } from "../cluster/shared.js";

export interface BotConfig {
  botInfo?: UserFromGetMe;
  client?: ApiClientOptions;
  /** Per-user flood limit; `false` turns it off (benchmarks). */
  rateLimit?: { timeFrameMs: number; limit: number } | false;
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

const DEFAULT_RATE_LIMIT = { timeFrameMs: 3000, limit: 8 };

export type AppBot = Bot<BotContext>;

export function createBot(token: string, deps: BotDeps, botConfig: BotConfig = {}): AppBot {
  const bot = new Bot<BotContext>(token, { botInfo: botConfig.botInfo, client: botConfig.client });
  const maxDelaySeconds = botConfig.maxRetryDelaySeconds ?? 60;
  // Installed before auto-retry, so it sees every request that goes out, 429s included.
  if (botConfig.observe) bot.api.config.use(botConfig.observe.api);
  bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds }));
  bot.api.config.use(htmlByDefault);

  const { translate } = deps;

  // Conversations rebuild their context on every replay: these run there too.
  const extras: Middleware<BaseContext> = async (ctx, next) => {
    const chatId = ctx.chat?.id;
    const stored = chatId === undefined ? undefined : (await deps.store.getChat(chatId))?.lang;
    const c = ctx as BaseContext;
    c.deps = deps;
    c.translate = translate;
    c.lang = stored ?? langFromTelegram(ctx.from?.language_code);
    c.t = (key, vars) => translate(c.lang, key, vars);
    return next();
  };
  // Inside a flow every API answer is in the replay log: the retry waits are logged too (through
  // `external`), so a later replay of the flow does not wait out an old 429 again.
  const retryInside = (conversation: BotConversation): Middleware<BaseContext> => (ctx, next) => {
    ctx.api.config.use(replaySafeRetry(conversation, { maxRetryAttempts: 3, maxDelaySeconds }));
    ctx.api.config.use(htmlByDefault);
    // The user left (/batal, /menu, Cancel) while this flow waited on the provider: end it quietly.
    ctx.api.config.use((prev, method, payload, signal) => {
      if (FLOW_SENDS.has(method) && overtaken(ctx)) throw new Overtaken();
      return prev(method, payload, signal);
    });
    return next();
  };

  // Very first: Telegram resends a webhook update that timed out, maybe to the other process.
  const shared = botConfig.shared;
  if (shared) {
    bot.use(async (ctx, next) => {
      const claimed = await shared.claimUpdate(ctx.update.update_id).catch((err: unknown) => {
        // Handled rather than dropped: the store-unavailable answer follows, and money actions refuse anyway.
        deps.logger.warn({ err, update_id: ctx.update.update_id }, "could not claim the update; handling it here");
        return true;
      });
      if (claimed) return next();
      deps.logger.debug({ update_id: ctx.update.update_id }, "update already handled (a resend); skipped");
    });
  }
  if (botConfig.observe) bot.use(botConfig.observe.update);
  // The runner processes updates concurrently; one chat's updates still run one after another,
  // except the ways out (/batal, /menu, Cancel): they must get through while a slow read holds the chat.
  const cancelData = cb.cancel.encode({});
  bot.use(sequentialize((ctx) => (isWayOut(ctx.update, cancelData) ? undefined : (ctx.chat?.id.toString() ?? ctx.from?.id.toString()))));
  // A way out counts per chat; an update that was overtaken by one does not add a "did not understand".
  // A flow overtaken by one stops at its next message instead of talking on (see retryInside).
  const wayOuts = new Map<number, number>();
  const seenWayOuts = new Map<number, number>(); // update_id -> the chat's count when it started
  bot.use(async (ctx, next) => {
    const id = ctx.chat?.id;
    if (id === undefined) return next();
    if (isWayOut(ctx.update, cancelData)) wayOuts.set(id, (wayOuts.get(id) ?? 0) + 1);
    seenWayOuts.set(ctx.update.update_id, wayOuts.get(id) ?? 0);
    try {
      await next();
    } finally {
      seenWayOuts.delete(ctx.update.update_id);
    }
  });
  const overtaken = (ctx: { chat?: { id: number } | undefined; update: Update }) =>
    ctx.chat !== undefined && seenWayOuts.has(ctx.update.update_id) && (wayOuts.get(ctx.chat.id) ?? 0) !== seenWayOuts.get(ctx.update.update_id);
  // While the store cannot be reached (PgStore: reads fail too) the user hears so, not silence.
  bot.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (deps.store.canPersist() || !ctx.chat) throw err;
      deps.logger.error({ err, update_id: ctx.update.update_id }, "store unavailable: update not handled");
      botConfig.observe?.handlerFailed();
      if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => undefined);
      // The chat's language is in the store: Telegram's is the best guess now.
      await ctx.reply(translate(langFromTelegram(ctx.from?.language_code), "store-unavailable")).catch(() => undefined);
    }
  });
  bot.use(extras as Middleware<BotContext>);
  bot.use(presence(deps));
  bot.use(rateLimiter(botConfig.rateLimit ?? DEFAULT_RATE_LIMIT, shared));

  const onError = async (err: BotError<BotContext>) => {
    if (err.error instanceof Overtaken) return;
    deps.logger.error({ err: err.error, update_id: err.ctx.update.update_id }, "handler failed");
    botConfig.observe?.handlerFailed();
    await replyFailure(err.ctx);
  };

  // The chat's own key pasted mid-flow must not become a flow's answer (or be echoed by it).
  bot.use(ownKeyGuard);
  bot.use(
    conversations<BotContext, ConvContext>({
      plugins: (conversation) => [extras, retryInside(conversation)],
      storage: { type: "context", version: FLOW_STATE_VERSION, adapter: flowStorage(deps.store) },
    }),
  );
  // /batal and Cancel buttons must work while a flow waits, so they sit before the flows.
  bot.command(["batal", "cancel"], async (ctx) => {
    const active = Object.keys(await ctx.conversation.active()).length > 0;
    const chat = ctx.chat && await deps.store.getChat(ctx.chat.id);
    await ctx.conversation.exitAll();
    if (chat?.awaitingKey && chat.apiKeyEnc) await deps.store.updateChat(chat.chatId, { awaitingKey: false });
    await ctx.reply(ctx.t(active || chat?.awaitingKey ? "cancelled" : "nothing-to-cancel"), {
      reply_markup: { remove_keyboard: true },
    });
  });
  onCallback(bot, cb.cancel, async (ctx) => {
    await ctx.conversation.exitAll();
    await ctx.answerCallbackQuery();
    await ctx.editMessageReplyMarkup().catch(() => undefined);
    await ctx.reply(ctx.t("cancelled"));
  });

  const modules: FeatureModule[] = [
    topupModule,
    billModule,
    transferModule,
    depositModule,
    statusModule,
    historyModule,
    shopModule,
    reportModule,
    alertsModule,
    adminModule,
    customersModule,
    markupModule,
  ];
  for (const m of modules) {
    for (const flow of m.flows ?? []) {
      bot.errorBoundary(onError, createConversation<BotContext, ConvContext>(flow.builder, flow.id));
    }
  }
  const actions = new Map<MenuName, MenuAction>([
    ["balance", showBalance],
    ["language", askLanguage],
    ["help", (ctx) => ctx.reply(ctx.t("help"))],
  ]);
  for (const m of modules) {
    for (const [name, action] of Object.entries(m.menu ?? {}) as [MenuName, MenuAction][]) actions.set(name, action);
  }
  const features = [
    linkFeature,
    balanceFeature,
    webhookFeature,
    languageFeature,
    menuFeature(actions),
    confirmFeature(modules.flatMap((m) => m.kinds ?? [])),
    ...modules.map((m) => m.composer),
    // Last: only text nothing else took (and no flow waited for) reaches it.
    correctionFeature,
  ];
  bot.errorBoundary(onError, ...features);

  // A private message nothing else handled gets a way forward instead of silence.
  bot.chatType("private").on("message", (ctx) => ctx.reply(ctx.t(ctx.flowLost ? "flow-lost-after-update" : "fallback-hint")));
  // Every callback query is answered, even for buttons of flows that ended or a restart forgot.
  bot.on("callback_query", (ctx) =>
    ctx.answerCallbackQuery({ text: ctx.t("button-expired") }).catch((err: unknown) => {
      // A query too old or unknown to Telegram has nobody waiting for its answer.
      if (!(err instanceof GrammyError && err.error_code === 400 && /query is too old|query id is invalid/i.test(err.description))) throw err;
      deps.logger.debug({ update_id: ctx.update.update_id }, "callback query too old to answer; ignored");
    }),
  );

  bot.catch((err) => deps.logger.error({ err: err.error, update_id: err.ctx.update.update_id }, "unhandled error"));
  return bot;
}

/**
 * A chat that blocked the bot (403, or my_chat_member "kicked") is inactive; any update from it,
 * or my_chat_member "member" (unblocked), makes it active again and sends the notices it missed
 * (and any update while some are still owed).
 */
function presence(deps: BotDeps): Middleware<BotContext> {
  return async (ctx, next) => {
    const chat = ctx.chat && await deps.store.getChat(ctx.chat.id);
    const status = ctx.myChatMember?.new_chat_member.status;
    if (chat && (status === "kicked" || status === "left")) {
      if (!chat.inactive) await deps.store.updateChat(chat.chatId, { inactive: true });
    } else if (chat?.inactive || chat?.owedNotices) {
      // owedNotices: a return that reached no watcher (a hand-over between processes) is taken up now.
      if (chat.inactive) await deps.store.updateChat(chat.chatId, { inactive: false });
      deps.statusChecker.chatBack(chat.chatId);
    }
    return next();
  };
}

async function replyFailure(ctx: BotContext): Promise<void> {
  try {
    if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => undefined);
    // A write that failed is why, when the store can no longer save: money steps save before any provider call.
    if (ctx.chat) await ctx.reply(ctx.t(ctx.deps.store.canPersist() ? "error-generic" : "store-write-failed"));
  } catch (e) {
    if (!(e instanceof GrammyError || e instanceof HttpError)) throw e;
  }
}

function rateLimiter(opts: BotConfig["rateLimit"], shared?: Pick<Shared, "hit">): Middleware<BotContext> {
  if (!opts) return (_ctx, next) => next();
  // The limiter's Redis-style storage over the shared counter: `hit` counts in a fixed window of
  // its own, so the expiry the limiter asks for is already done. A counter that cannot be reached
  // lets the update through: a database hiccup must not silence every user.
  const storageClient = shared && {
    incr: (key: string) => shared.hit(key, opts.timeFrameMs).catch(() => 1),
    pexpire: async () => 1,
  };
  const limiter = limit<BotContext, NonNullable<typeof storageClient>>({
    timeFrame: opts.timeFrameMs,
    limit: opts.limit,
    ...(storageClient && { storageClient }),
    // One notice per window; buttons are answered below on every limited press.
    onLimitExceeded: async (ctx) => {
      if (!ctx.callbackQuery && ctx.chat) await ctx.reply(ctx.t("rate-limited"));
    },
    keyGenerator: (ctx) => ctx.from?.id.toString(),
  });
  return async (ctx, next) => {
    let passed = false;
    await limiter(ctx, async () => {
      passed = true;
      await next();
    });
    if (!passed && ctx.callbackQuery) {
      await ctx.answerCallbackQuery({ text: ctx.t("rate-limited") }).catch(() => undefined);
    }
  };
}

const WAY_OUT = /^\/(batal|cancel|menu)(@\w+)?(\s|$)/i;

/** /batal, /cancel, /menu or the Cancel button: handled outside the per-chat sequence. */
function isWayOut(update: Update, cancelData: string): boolean {
  const text = update.message?.text;
  if (text !== undefined) return WAY_OUT.test(text);
  return update.callback_query?.data === cancelData;
}

const FLOW_SENDS: ReadonlySet<string> = new Set(["sendMessage", "sendPhoto", "editMessageText"]);

/** Thrown into a flow that a way out overtook: it ends the flow without an apology. */
class Overtaken extends Error {
  constructor() {
    super("flow overtaken by /batal, /menu or Cancel");
  }
}
