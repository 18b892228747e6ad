/**
 * Wires the running application: store, upstream client (or the built-in sandbox), bot, long
 * polling. main.ts adds process concerns (env, signals, exit codes); tests call startApp directly.
 */
import { run, type RunnerHandle } from "@grammyjs/runner";
import { Api } from "grammy";
import type { AppConfig } from "./config.js";
import { systemClock, type Clock } from "./clock.js";
import type { Logger } from "./logger.js";
import { depositProcessingMarkup } from "./bot/money/deposit.js";
import { createBot, type AppBot, type BotConfig } from "./bot/index.js";
import type { BotDeps } from "./bot/context.js";
import { registerCommands } from "./bot/commands.js";
import { createSandbox, type Sandbox } from "./sandbox/index.js";
import { resolveStoreSecret } from "./secret.js";
import { Store } from "./store/store.js";
import { ListCache } from "./upstream/cache.js";
import { UpstreamClient } from "./upstream/client.js";
import { BalanceAlerts } from "./watch/alerts.js";
import { BalanceRound } from "./watch/balanceRound.js";
import { BROADCAST_CONCURRENCY, Broadcaster } from "./watch/broadcast.js";
import { BULK_PACE, SendPacer } from "./watch/pacer.js";
import { wireWatcher } from "./watch/watcher.js";

export interface RunningApp {
  bot: AppBot;
  store: Store;
  sandbox?: Sandbox;
  /** Stops polling, lets running handlers finish, flushes the store, closes connections. */
  stop(): Promise<void>;
}

export interface AppOverrides {
  clock?: Clock;
  botConfig?: BotConfig;
}

export async function startApp(config: AppConfig, logger: Logger, overrides: AppOverrides = {}): Promise<RunningApp> {
  const clock = overrides.clock ?? systemClock;
  const { secret, generated, file } = await resolveStoreSecret(config.storeSecret, config.dataDir);
  if (generated) logger.warn({ file }, "STORE_SECRET was not set: generated one into DATA_DIR (keep this file; back it up)");
  const store = await Store.open({ dir: config.dataDir, secret, clock });

  let sandbox: Sandbox | undefined;
  let baseUrl = config.upstreamBaseUrl;
  if (baseUrl === null) {
    sandbox = await createSandbox({ clock, autoPayDepositsAfterMs: 20_000 });
    baseUrl = sandbox.url;
    logger.warn(
      { url: sandbox.url, demoKey: sandbox.demoKey },
      "SANDBOX MODE: using the built-in simulated reseller API. No real money moves. Link the demo key shown here.",
    );
  }
  const upstream = new UpstreamClient({ baseUrl, clock });

  const client = { ...overrides.botConfig?.client, ...(config.telegramApiRoot ? { apiRoot: config.telegramApiRoot } : {}) };
  const deps: BotDeps = { store, upstream, lists: new ListCache(upstream, clock), clock, logger, adminIds: config.adminIds, sandbox: sandbox !== undefined };
  const bot = createBot(config.botToken, deps, { ...overrides.botConfig, client });
  await bot.init();

  // Bulk senders (alerts, broadcast, watcher notices) share one pacer and an Api without auto-retry:
  // they wait out 429s themselves on the injected clock. 29/s spread evenly (slower for a while
  // after a 429) and 8 broadcast sends in flight: the reasons are with BULK_PACE and
  // BROADCAST_CONCURRENCY in watch/pacer.ts and watch/broadcast.ts.
  const bulkApi = new Api(config.botToken, client);
  const pacer = new SendPacer(clock, BULK_PACE.perSecond, BULK_PACE);
  const alerts = new BalanceAlerts({ store, upstream, api: bulkApi, clock, logger, translate: bot.translate, pacer, sandbox: deps.sandbox });
  const broadcaster = new Broadcaster({ store, api: bulkApi, clock, logger, translate: bot.translate, pacer, concurrency: BROADCAST_CONCURRENCY });
  const afterCreate = deps.hooks?.afterCreate;
  deps.hooks = {
    ...deps.hooks,
    afterCreate: (tx) => {
      afterCreate?.(tx);
      alerts.afterCreate(tx);
    },
  };
  deps.alerts = alerts;
  deps.balanceRound = new BalanceRound(alerts);
  deps.broadcaster = broadcaster;
  // The status watcher: hooked before any update is handled, started once the bot polls.
  const watcher = wireWatcher({
    api: bulkApi,
    translate: bot.translate,
    deps,
    pacer,
    options: { perKeyPerSecond: config.watchCallsPerKey },
    // A paid deposit's notice offers the instant release right there.
    processingMarkup: (lang, tx) => depositProcessingMarkup(bot.translate, lang, tx),
  });
  alerts.start();
  if (await broadcaster.resume()) logger.info("resumed an unfinished broadcast");
  await registerCommands(bot.api, bot.translate).catch((err) =>
    logger.warn({ err }, "could not register the command list; commands still work"),
  );

  const runner: RunnerHandle = run(bot, {
    runner: { fetch: { allowed_updates: ["message", "callback_query", "my_chat_member"] } },
  });
  logger.info({ username: bot.botInfo.username }, "bot is polling for updates");
  watcher.start();

  let stopping: Promise<void> | undefined;
  return {
    bot,
    store,
    sandbox,
    stop: () =>
      (stopping ??= (async () => {
        if (runner.isRunning()) await runner.stop();
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
