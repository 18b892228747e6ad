/**
 * buildApp(config, overrides) makes every part of the running application once, in order, with
 * complete dependencies: store, upstream client (or the built-in sandbox), translate, transaction
 * events, the send pacer, balance alerts, broadcaster, status watcher, and last the bot that uses
 * them. main.ts and the tests both build through it; overrides only tune (clock, fetch, timeouts),
 * they never wire differently. `start()` adds what production runs in the background.
 */
import { run, type RunnerHandle } from "@grammyjs/runner";
import { Api } from "grammy";
import type { AppConfig } from "./config.js";
import { systemClock, type Clock } from "./clock.js";
import type { Logger } from "./logger.js";
import { TxEvents } from "./domain/events.js";
import { createTranslate, type Translate } from "./render/i18n.js";
import { htmlByDefault } from "./render/parseMode.js";
import { depositProcessingMarkup } from "./bot/money/deposit.js";
import { createBot, type AppBot, type BotConfig } from "./bot/index.js";
import { resendDueInstructions } from "./bot/money/deposit.js";
import { registerCommands } from "./bot/commands.js";
import type { BotDeps } from "./bot/context.js";
import { createSandbox, type Sandbox, type SandboxOptions } from "./sandbox/index.js";
import { resolveStoreSecret } from "./secret.js";
import { Store } from "./store/store.js";
import { ListCache } from "./upstream/cache.js";
import { UpstreamClient } from "./upstream/client.js";
import { BalanceAlerts, type BalanceAlertsOptions } from "./watch/alerts.js";
import { BalanceRound } from "./watch/balanceRound.js";
import { BROADCAST_CONCURRENCY, Broadcaster } from "./watch/broadcast.js";
import { BULK_PACE, SendPacer, type PaceOptions } from "./watch/pacer.js";
import { StatusWatcher, type WatcherOptions } from "./watch/watcher.js";

export interface App {
  config: AppConfig;
  clock: Clock;
  logger: Logger;
  store: Store;
  upstream: UpstreamClient;
  /** The built-in sandbox, when `UPSTREAM_BASE_URL=sandbox`. */
  sandbox?: Sandbox;
  translate: Translate;
  events: TxEvents;
  /** What the bot was given (tests reach the parts through it). */
  deps: BotDeps;
  bot: AppBot;
  watcher: StatusWatcher;
  alerts: BalanceAlerts;
  broadcaster: Broadcaster;
  /** Registers the command list, resumes an unfinished broadcast, starts alerts, polling and the watcher. */
  start(): Promise<void>;
  /** Sends what a crash left unsent (deposit instructions); start() runs it first. */
  recover(): Promise<void>;
  /** Stops polling, lets running handlers finish, stops background work, flushes the store, closes connections. */
  stop(): Promise<void>;
}

/** Tuning for tests and benchmarks. Every part is still made and wired as in production. */
export interface AppOverrides {
  clock?: Clock;
  logger?: Logger;
  bot?: BotConfig;
  upstream?: { timeoutMs?: number; readRetries?: number };
  /** Options of the built-in sandbox (only when the config asks for it). */
  sandbox?: SandboxOptions;
  watcher?: Partial<WatcherOptions>;
  alerts?: Partial<Pick<BalanceAlertsOptions, "intervalMs" | "debounceMs" | "concurrency">>;
  broadcast?: { progressEveryMs?: number; concurrency?: number };
  /** The shared pace of background messages (default BULK_PACE). */
  pace?: { perSecond: number } & PaceOptions;
}

export async function buildApp(config: AppConfig, logger: Logger, overrides: AppOverrides = {}): Promise<App> {
  const clock = overrides.clock ?? systemClock;
  const { secret, generated, file } = await resolveStoreSecret(config.storeSecret, config.dataDir);
  if (generated) logger.warn({ file }, "STORE_SECRET was not set: generated one into DATA_DIR (keep this file; back it up)");
  const store = await Store.open({ dir: config.dataDir, secret, clock });

  let sandbox: Sandbox | undefined;
  let baseUrl = config.upstreamBaseUrl;
  if (baseUrl === null) {
    sandbox = await createSandbox({ clock, autoPayDepositsAfterMs: 20_000, ...overrides.sandbox });
    baseUrl = sandbox.url;
    logger.warn(
      { url: sandbox.url, demoKey: sandbox.demoKey },
      "SANDBOX MODE: using the built-in simulated reseller API. No real money moves. Link the demo key shown here.",
    );
  }
  const upstream = new UpstreamClient({ baseUrl, clock, ...overrides.upstream });
  const inSandbox = sandbox !== undefined;
  const translate = createTranslate();
  const events = new TxEvents(logger);

  // Background senders (alerts, broadcast, watcher notices) share one pacer and an Api without
  // auto-retry: they wait out 429s themselves on the injected clock (BULK_PACE says why 29/s).
  const client = { ...overrides.bot?.client, ...(config.telegramApiRoot ? { apiRoot: config.telegramApiRoot } : {}) };
  const bulkApi = new Api(config.botToken, client);
  bulkApi.config.use(htmlByDefault);
  const pace = overrides.pace ?? BULK_PACE;
  const pacer = new SendPacer(clock, pace.perSecond, pace);
  const alerts = new BalanceAlerts({ store, upstream, api: bulkApi, clock, logger, translate, pacer, sandbox: inSandbox, ...overrides.alerts });
  const broadcaster = new Broadcaster({
    store,
    api: bulkApi,
    clock,
    logger,
    translate,
    pacer,
    concurrency: BROADCAST_CONCURRENCY,
    ...overrides.broadcast,
  });
  const watcher = new StatusWatcher({
    store,
    upstream,
    api: bulkApi,
    clock,
    logger,
    translate,
    pacer,
    options: { perKeyPerSecond: config.watchCallsPerKey, sandbox: inSandbox, ...overrides.watcher },
    // A paid deposit's notice offers the instant release right there.
    processingMarkup: (lang, tx) => depositProcessingMarkup(translate, lang, tx),
  });
  events.on("created", (tx) => watcher.track(tx));
  events.on("created", (tx) => alerts.afterCreate(tx));

  const deps: BotDeps = {
    store,
    upstream,
    lists: new ListCache(upstream, clock),
    clock,
    logger,
    adminIds: config.adminIds,
    sandbox: inSandbox,
    translate,
    events,
    statusChecker: watcher,
    alerts,
    balanceRound: new BalanceRound(alerts),
    broadcaster,
  };
  const bot = createBot(config.botToken, deps, { ...overrides.bot, client });
  await bot.init();

  const recover = async () => {
    const n = await resendDueInstructions(bot.api, deps);
    if (n > 0) logger.info({ count: n }, "sent deposit instructions a restart had left unsent");
  };
  let runner: RunnerHandle | undefined;
  let stopping: Promise<void> | undefined;
  return {
    config,
    clock,
    logger,
    store,
    upstream,
    sandbox,
    translate,
    events,
    deps,
    bot,
    watcher,
    alerts,
    broadcaster,
    recover,
    async start() {
      await recover();
      alerts.start();
      if (await broadcaster.resume()) logger.info("resumed an unfinished broadcast");
      await registerCommands(bot.api, translate).catch((err) =>
        logger.warn({ err }, "could not register the command list; commands still work"),
      );
      runner = run(bot, { runner: { fetch: { allowed_updates: ["message", "callback_query", "my_chat_member"] } } });
      logger.info({ username: bot.botInfo.username }, "bot is polling for updates");
      watcher.start();
    },
    stop: () =>
      (stopping ??= (async () => {
        if (runner?.isRunning()) await runner.stop();
        await watcher.stop();
        await broadcaster.stop();
        await alerts.stop();
        await store.close();
        await upstream.close();
        await sandbox?.close();
        logger.info("stopped cleanly");
      })()),
  };
}
