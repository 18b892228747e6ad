/**
 * The chaos run's world: test/support/world.ts's file-store world (the real app, the fake Bot API, the
 * sandbox over HTTP on 127.0.0.1, one ManualClock), without vitest, so bench/chaos.ts runs it with tsx
 * too (world.ts reaches PostgreSQL's test server through vitest's inject; here the caller hands a
 * database's URL in).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp, type App } from "../../src/app.js";
import { LocalShared } from "../../src/cluster/localShared.js";
import { openLeadingPgShared } from "../support/leadingPgShared.js";
import { loadConfig } from "../../src/config/env.js";
import type { Logger } from "../../src/logging/logger.js";
import { createSandbox, type Sandbox, type SandboxOptions } from "../../src/sandbox/index.js";
import { ManualClock } from "../../src/tools/clock.js";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "../support/botInfo.js";
import { makeUser, type FakeUser } from "../support/chat.js";
import { FakeBotApi } from "../support/fakeBotApi.js";

export interface ChaosWorld {
  clock: ManualClock;
  fake: FakeBotApi;
  sandbox: Sandbox;
  /** The app as last built (restart() builds another on the same data). */
  readonly app: App;
  readonly store: App["store"];
  readonly upstream: App["upstream"];
  readonly watcher: App["watcher"];
  /** A private-chat reseller whose chat is linked to `key`. */
  linkedUser(key: string): Promise<FakeUser>;
  /** Stops the app and builds a new one on the same data folder, as a new process would; started again. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface ChaosWorldOptions {
  sandbox: SandboxOptions;
  logger: Logger;
  upstreamTimeoutMs: number;
  env: Record<string, string>;
  /** PostgreSQL instead of the files: the store and what processes share (the lead) in this database. */
  storeUrl?: string;
}

export async function makeChaosWorld(opts: ChaosWorldOptions): Promise<ChaosWorld> {
  const clock = new ManualClock();
  const dir = await mkdtemp(join(tmpdir(), "ppob-chaos-"));
  const fake = new FakeBotApi({ clock, strict: true });
  const sandbox = await createSandbox({ clock, ...opts.sandbox });
  const config = loadConfig({
    BOT_TOKEN: FAKE_BOT_TOKEN,
    UPSTREAM_BASE_URL: sandbox.url,
    DATA_DIR: dir,
    STORE_SECRET: "chaos-secret-0123456789abcdef",
    ...(opts.storeUrl ? { STORE_URL: opts.storeUrl } : {}),
    ...opts.env,
  });
  const build = async () => {
    const app = await buildApp(config, opts.logger, {
      clock,
      bot: { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch as never }, rateLimit: false },
      upstream: { timeoutMs: opts.upstreamTimeoutMs, readRetries: 0 },
      broadcast: { concurrency: 1 },
      pace: { perSecond: 25 },
      paceAnswers: false,
      // As in production: PgShared with PgStore (leading from the start, as test worlds do), LocalShared with the files.
      shared: opts.storeUrl ? await openLeadingPgShared(opts.storeUrl, clock, opts.logger) : new LocalShared(clock, dir),
    });
    await app.start();
    return app;
  };
  let app = await build();
  const world: ChaosWorld = {
    clock,
    fake,
    sandbox,
    get app() {
      return app;
    },
    get store() {
      return app.store;
    },
    get upstream() {
      return app.upstream;
    },
    get watcher() {
      return app.watcher;
    },
    async linkedUser(key) {
      // Users talk to whichever app is current, so they survive restart().
      const u = makeUser({ handleUpdate: (update) => world.app.bot.handleUpdate(update) }, fake, { clock, languageCode: "id" });
      await app.store.updateChat(u.chatId, { lang: "id" });
      await app.store.setApiKey(u.chatId, key);
      return u;
    },
    async restart() {
      await app.stop();
      app = await build();
    },
    async close() {
      await app.stop().catch(() => undefined);
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return world;
}
