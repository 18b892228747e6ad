/**
 * Wires the running application: store, upstream client (or the built-in sandbox), bot, long
 * polling. main.ts adds process concerns (env, signals, exit codes); tests call startApp directly.
 */
import { run, type RunnerHandle } from "@grammyjs/runner";
import type { AppConfig } from "./config.js";
import { systemClock, type Clock } from "./clock.js";
import type { Logger } from "./logger.js";
import { createBot, type AppBot, type BotConfig } from "./bot/index.js";
import { registerCommands } from "./bot/commands.js";
import { createSandbox, type Sandbox } from "./sandbox/index.js";
import { resolveStoreSecret } from "./secret.js";
import { Store } from "./store/store.js";
import { ListCache } from "./upstream/cache.js";
import { UpstreamClient } from "./upstream/client.js";

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

  const bot = createBot(
    config.botToken,
    { store, upstream, lists: new ListCache(upstream, clock), clock, logger, adminIds: config.adminIds, sandbox: sandbox !== undefined },
    {
      ...overrides.botConfig,
      client: { ...overrides.botConfig?.client, ...(config.telegramApiRoot ? { apiRoot: config.telegramApiRoot } : {}) },
    },
  );
  await bot.init();
  await registerCommands(bot.api, bot.translate).catch((err) =>
    logger.warn({ err }, "could not register the command list; commands still work"),
  );

  const runner: RunnerHandle = run(bot, {
    runner: { fetch: { allowed_updates: ["message", "callback_query", "my_chat_member"] } },
  });
  logger.info({ username: bot.botInfo.username }, "bot is polling for updates");

  let stopping: Promise<void> | undefined;
  return {
    bot,
    store,
    sandbox,
    stop: () =>
      (stopping ??= (async () => {
        if (runner.isRunning()) await runner.stop();
        await store.close();
        await upstream.close();
        await sandbox?.close();
        logger.info("stopped cleanly");
      })()),
  };
}
