/**
 * A whole bot in one test: the real createBot, a fake Bot API, the sandbox over real HTTP on
 * 127.0.0.1, a store in a temp dir, and one ManualClock driving all of them.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { Api } from "grammy";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock } from "../../src/clock.js";
import { createBot, type AppBot, type BotConfig } from "../../src/bot/index.js";
import type { BotDeps } from "../../src/bot/context.js";
import { silentLogger } from "../../src/logger.js";
import { createSandbox, DEMO_KEY, type Sandbox, type SandboxOptions } from "../../src/sandbox/index.js";
import { Store } from "../../src/store/store.js";
import { ListCache } from "../../src/upstream/cache.js";
import { UpstreamClient } from "../../src/upstream/client.js";
import { wireWatcher, type StatusWatcher, type WatcherOptions } from "../../src/watch/watcher.js";
import { BalanceAlerts, type BalanceAlertsOptions } from "../../src/watch/alerts.js";
import { BalanceRound } from "../../src/watch/balanceRound.js";
import { Broadcaster } from "../../src/watch/broadcast.js";
import { SendPacer } from "../../src/watch/pacer.js";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "./botInfo.js";
import { makeUser, type FakeUser, type UserOptions } from "./chat.js";
import { FakeBotApi } from "./fakeBotApi.js";

export const STORE_SECRET = "test-secret-0123456789abcdef";

export interface World {
  clock: ManualClock;
  fake: FakeBotApi;
  sandbox: Sandbox;
  store: Store;
  upstream: UpstreamClient;
  deps: BotDeps;
  bot: AppBot;
  /** The status watcher, when `watcher` was asked for (rebuilt and restarted by restart()). */
  watcher: StatusWatcher | undefined;
  dir: string;
  demoKey: string;
  user(opts?: UserOptions): FakeUser;
  /** A private-chat user whose chat is already linked to `key` (default: the demo key). */
  linkedUser(opts?: UserOptions & { key?: string }): Promise<FakeUser>;
  /** Rebuilds store + bot from the same data dir, as after a restart. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface WorldOptions {
  sandbox?: SandboxOptions;
  bot?: BotConfig;
  adminIds?: number[];
  /** Upstream client timeout (ms), short so a held sandbox answer becomes an "outcome unknown". */
  upstreamTimeoutMs?: number;
  fakeStrict?: boolean;
  /** Start a status watcher wired to the bot (options override the defaults). */
  watcher?: boolean | Partial<WatcherOptions>;
  /** Tuning of the balance alerts every world builds (deps.alerts; not started: call start()). */
  alerts?: Partial<Pick<BalanceAlertsOptions, "intervalMs" | "debounceMs" | "concurrency">>;
  /** Tuning of the broadcaster every world builds (deps.broadcaster) and of the shared send pacer. */
  broadcast?: { progressEveryMs?: number; perSecond?: number; concurrency?: number };
}

export async function makeWorld(opts: WorldOptions = {}): Promise<World> {
  const clock = new ManualClock();
  const dir = await mkdtemp(join(tmpdir(), "ppob-bot-"));
  const fake = new FakeBotApi({ clock, strict: opts.fakeStrict ?? true });
  const sandbox = await createSandbox({ clock, settleMs: 5000, seed: 7, ...opts.sandbox });
  const upstream = new UpstreamClient({
    baseUrl: sandbox.url,
    clock,
    timeoutMs: opts.upstreamTimeoutMs ?? 3000,
    readRetries: 0,
  });
  const build = async () => {
    const store = await Store.open({ dir, secret: STORE_SECRET, clock });
    const deps: BotDeps = {
      store,
      upstream,
      lists: new ListCache(upstream, clock),
      clock,
      logger: silentLogger,
      adminIds: opts.adminIds ?? [],
      sandbox: false,
    };
    const bot = createBot(FAKE_BOT_TOKEN, deps, {
      botInfo: FAKE_BOT_INFO,
      client: { fetch: fake.fetch as never },
      rateLimit: false,
      ...opts.bot,
    });
    // Background senders get an Api without auto-retry: they wait out 429s on the ManualClock.
    const api = new Api(FAKE_BOT_TOKEN, { fetch: fake.fetch as never });
    const pacer = new SendPacer(clock, opts.broadcast?.perSecond);
    const common = { store, api, clock, logger: silentLogger, translate: bot.translate, pacer };
    deps.alerts = new BalanceAlerts({ ...common, upstream, ...opts.alerts });
    deps.balanceRound = new BalanceRound(deps.alerts);
    deps.broadcaster = new Broadcaster({ ...common, ...opts.broadcast });
    const prior = deps.hooks?.afterCreate;
    deps.hooks = {
      ...deps.hooks,
      afterCreate: (tx) => {
        prior?.(tx);
        deps.alerts?.afterCreate(tx);
      },
    };
    let watcher: StatusWatcher | undefined;
    if (opts.watcher) {
      // Like app.ts: an Api without auto-retry (its waits would be real time, not the ManualClock).
      const watchApi = new Api(FAKE_BOT_TOKEN, { fetch: fake.fetch as never });
      watcher = wireWatcher({ api: watchApi, translate: bot.translate, deps, options: opts.watcher === true ? {} : opts.watcher });
      watcher.start();
    }
    return { store, deps, bot, watcher };
  };
  const stopServices = async () => {
    await built.watcher?.stop();
    await built.deps.broadcaster?.stop();
    await built.deps.alerts?.stop();
  };
  let built = await build();
  const world: World = {
    clock,
    fake,
    sandbox,
    upstream,
    dir,
    demoKey: DEMO_KEY,
    get store() {
      return built.store;
    },
    get deps() {
      return built.deps;
    },
    get bot() {
      return built.bot;
    },
    get watcher() {
      return built.watcher;
    },
    // Users talk to whichever bot is current, so they survive restart().
    user: (u) => makeUser({ handleUpdate: (update) => world.bot.handleUpdate(update) }, fake, { clock, ...u }),
    async linkedUser(u = {}) {
      const person = world.user(u);
      world.store.updateChat(person.chatId, { lang: u.languageCode === "en" ? "en" : "id" });
      world.store.setApiKey(person.chatId, u.key ?? DEMO_KEY);
      return person;
    },
    async restart() {
      await stopServices();
      await built.store.close();
      built = await build();
    },
    async close() {
      await stopServices();
      await built.store.close().catch(() => undefined);
      await upstream.close();
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return world;
}
