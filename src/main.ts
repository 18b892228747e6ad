/**
 * The process entry (`npm start` runs its bundle, dist/main.js; tests and development run it with tsx):
 * reads the environment, builds and starts the app, stops it on SIGINT/SIGTERM.
 */
import { ConfigError, loadConfig, playgroundConfig, type PlaygroundConfig } from "./config/env.js";
import { createLogger, scrubSecrets } from "./logging/logger.js";
import { buildApp } from "./app.js";
import { StoreCorruptError } from "./store/index.js";
import { DataDirLockedError } from "./cluster/dataLock.js";
import { StoreSecretError } from "./config/storeSecret.js";

async function main(): Promise<void> {
  // A .env beside package.json is optional; real environment variables win over it.
  try {
    process.loadEnvFile();
  } catch {
    // no .env: the environment alone configures the bot
  }
  let config;
  try {
    const pg = playgroundConfig();
    if (pg) return await playground(pg);
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  const logger = createLogger(config.logLevel);
  let app;
  try {
    app = await buildApp(config, logger);
  } catch (e) {
    if (e instanceof StoreCorruptError || e instanceof StoreSecretError || e instanceof DataDirLockedError) {
      logger.fatal(e.message);
      process.stderr.write(`${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  await app.start();
  // The token was revoked (401): the app stopped itself, the store is flushed.
  void app.failed.then((err) => {
    process.stderr.write(`${scrubSecrets(err.message)}\n`);
    process.exit(1);
  });
  let signalled = false;
  const shutdown = (signal: string) => {
    if (signalled) return;
    signalled = true;
    logger.info({ signal }, "shutting down: finishing running handlers");
    app.stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

/** No BOT_TOKEN: the bot with Telegram simulated, on a page at 127.0.0.1 (src/playground). */
async function playground(c: PlaygroundConfig): Promise<void> {
  // Loaded only here: it finds its page's files in the checkout, which a production image does not hold.
  const { startPlayground } = await import("./playground/index.js");
  const pg = await startPlayground({ dataDir: c.dataDir, reset: c.reset, port: c.port, logger: createLogger(c.logLevel) });
  process.stdout.write(`Playground: open ${pg.url} (Telegram simulated; set BOT_TOKEN to run it on Telegram)\n`);
  // Ctrl-C said nothing while the page went dead: say it stops and that the chats stay for the next start.
  const shutdown = (signal: string) => {
    if (signal === "SIGINT") process.stdout.write(`\nPlayground: stopping; the chats are kept in ${c.dataDir} for the next npm start.\n`);
    void pg.stop().then(() => process.exit(0), () => process.exit(1));
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

// Runs the bot until a signal stops it; a failed start is said on stderr and exits 1.
main().catch((err) => {
  process.stderr.write(`Start-up failed: ${scrubSecrets(err instanceof Error ? err.message : String(err))}\n`);
  process.exit(1);
});
