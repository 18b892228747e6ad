/**
 * A whole bot in one test: the real createBot, a fake Bot API, the sandbox over real HTTP on
 * 127.0.0.1, a store in a temp dir, and one ManualClock driving all of them.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp, type App } from "../../src/app.js";
import { ManualClock } from "../../src/tools/clock.js";
import type { AppBot, BotConfig } from "../../src/bot/index.js";
import type { BotDeps } from "../../src/bot/context.js";
import { loadConfig } from "../../src/config/env.js";
import { silentLogger, type Logger } from "../../src/logging/logger.js";
import { createSandbox, DEMO_KEY, type Sandbox, type SandboxOptions } from "../../src/sandbox/index.js";
import { FileStore, type Store } from "../../src/store/file/fileStore.js";
import { PgStore } from "../../src/store/pg/pgStore.js";
import { vi } from "vitest";
import { LogFile } from "../../src/store/file/kindFiles.js";
import { bringDatabaseBack, giveBackDatabase, onPostgres, takeDatabaseDown, worldDatabase } from "./pg.js";
import type { ChatRecord } from "../../src/store/index.js";
import type { UpstreamClient } from "../../src/upstream/client.js";
import type { StatusWatcher, WatcherOptions } from "../../src/jobs/watcher/watcher.js";
import type { BalanceAlertsOptions } from "../../src/jobs/alerts.js";
import type { Shared } from "../../src/cluster/shared.js";
import { LocalShared } from "../../src/cluster/localShared.js";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "./botInfo.js";
import { makeUser, type FakeUser, type UserOptions } from "./chat.js";
import { FakeBotApi } from "./fakeBotApi.js";
import { openLeadingPgShared } from "./leadingPgShared.js";
import { freezableDatabase } from "./pgFreeze.js";

export const STORE_SECRET = "test-secret-0123456789abcdef";

export interface World {
  clock: ManualClock;
  fake: FakeBotApi;
  sandbox: Sandbox;
  store: Store;
  /** The same store as FileStore, for what only it has (sweep); the world runs on one. */
  fileStore: FileStore;
  upstream: UpstreamClient;
  deps: BotDeps;
  bot: AppBot;
  /** The whole application as buildApp made it (rebuilt by restart()). */
  app: App;
  /** The status watcher, started when `watcher` was asked for (rebuilt and restarted by restart()). */
  watcher: StatusWatcher | undefined;
  dir: string;
  demoKey: string;
  user(opts?: UserOptions): FakeUser;
  /** A private-chat user whose chat is already linked to `key` (default: the demo key). */
  linkedUser(opts?: UserOptions & { key?: string }): Promise<FakeUser>;
  /**
   * The store stops saving, as a user would meet it on either store: the files' folder is replaced
   * by a file (every write fails, like a full or read-only disk); the database refuses connections
   * and its open ones are ended (every call fails, reads too).
   */
  breakStore(): Promise<void>;
  /**
   * PostgreSQL only, in a world made with `freezableStore`: the database stops answering without
   * refusing anything (a stopped process, a cut network): every query and connection just waits.
   */
  freezeStore(): void;
  /** Undoes freezeStore: what waited is answered. */
  thawStore(): void;
  /** Undoes breakStore, then moves the clock until the store reports it can persist again and the world leads. */
  repairStore(): Promise<void>;
  /**
   * The chat as a crash right now would leave it: read from the files on disk at the moment of the
   * call (synchronously), or from the database over a connection of its own (PgStore commits each
   * change before its call resolves).
   */
  savedChat(chatId: number): Promise<ChatRecord | undefined>;
  /**
   * Resolves once the store has answered everything asked of it: no query in flight for a few turns
   * of the event loop. For a test that moves the ManualClock while work it cannot wait for (a call a
   * test holds open) is running: PgStore answers in real time, the file store at once.
   */
  storeSettled(): Promise<void>;
  /** Rebuilds store + bot from the same data dir, as after a restart. */
  restart(): Promise<void>;
  /**
   * File store only: kill -9 once the store has written what it was asked, then a start. The next start
   * finds the data folder as it was then; nothing the dead process would still have done reaches the
   * files or Telegram.
   */
  crash(): Promise<void>;
  close(): Promise<void>;
}

export interface WorldOptions {
  sandbox?: SandboxOptions;
  bot?: BotConfig;
  adminIds?: number[];
  /** Upstream client timeout (ms), short so a held sandbox answer becomes an "outcome unknown". */
  upstreamTimeoutMs?: number;
  fakeStrict?: boolean;
  /** The app's logger (default: silent); a test can capture its lines. */
  logger?: Logger;
  /** Start the status watcher (options override the defaults). Without it, it is built but not started. */
  watcher?: boolean | Partial<WatcherOptions>;
  /** Tuning of the balance alerts (deps.alerts; not started: call start()). */
  alerts?: Partial<Pick<BalanceAlertsOptions, "intervalMs" | "debounceMs" | "concurrency">>;
  /** Tuning of the broadcaster (deps.broadcaster) and of the shared send pacer (default 25/s). */
  broadcast?: { progressEveryMs?: number; perSecond?: number; concurrency?: number };
  /**
   * The bot's answers go through the shared pacer as in production (app.ts paceAnswers). Off by
   * default: the ManualClock stands still unless a test advances it, and a test that gets more
   * answers than the pace allows in one second of clock time would wait forever.
   */
  paceAnswers?: boolean;
  /** More environment for loadConfig (e.g. HTTP_PORT, TELEGRAM_WEBHOOK_URL). */
  env?: Record<string, string>;
  /** What the app shares with other processes, made per build (default: LocalShared, as with the file store). */
  shared?: (clock: ManualClock, dir: string) => Shared | Promise<Shared>;
  /** How long app.stop() lets running handlers finish (default: production's 8 s). */
  stopGraceMs?: number;
  /** PostgreSQL: the app reaches its database through a relay that freezeStore() can freeze. */
  freezableStore?: boolean;
}

export async function makeWorld(opts: WorldOptions = {}): Promise<World> {
  const clock = new ManualClock();
  const dir = await mkdtemp(join(tmpdir(), "ppob-bot-"));
  const db = onPostgres ? await worldDatabase() : undefined;
  const storeUrl = db?.url;
  let journalDown: { mockRestore(): void } | undefined;
  const freezable = storeUrl && opts.freezableStore ? await freezableDatabase(storeUrl) : undefined;
  const appStoreUrl = freezable?.url ?? storeUrl;
  const reader = db?.sql;
  const fake = new FakeBotApi({ clock, strict: opts.fakeStrict ?? true });
  const sandbox = await createSandbox({ clock, settleMs: 5000, seed: 7, ...opts.sandbox });
  const config = loadConfig({
    BOT_TOKEN: FAKE_BOT_TOKEN,
    UPSTREAM_BASE_URL: sandbox.url,
    DATA_DIR: dir,
    STORE_SECRET,
    ADMIN_IDS: (opts.adminIds ?? []).join(","),
    // The "postgres" test project runs the same tests on PgStore, each world on its own database.
    ...(appStoreUrl && { STORE_URL: appStoreUrl }),
    ...opts.env,
  });
  const build = async () => {
    const app = await buildApp(config, opts.logger ?? silentLogger, {
      clock,
      bot: { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch as never }, rateLimit: false, ...opts.bot },
      upstream: { timeoutMs: opts.upstreamTimeoutMs ?? 3000, readRetries: 0 },
      ...(opts.watcher && opts.watcher !== true ? { watcher: opts.watcher } : {}),
      ...(opts.alerts ? { alerts: opts.alerts } : {}),
      // One send at a time unless a test asks for more (production: BROADCAST_CONCURRENCY).
      broadcast: { concurrency: 1, ...opts.broadcast },
      pace: { perSecond: opts.broadcast?.perSecond ?? 25 },
      paceAnswers: opts.paceAnswers ?? false,
      ...(opts.stopGraceMs !== undefined ? { stopGraceMs: opts.stopGraceMs } : {}),
      // As in production: PgShared with PgStore, LocalShared with the files. One process unless a test
      // asks for more, leading from the start (leadingPgShared.ts says why).
      shared: opts.shared
        ? await opts.shared(clock, dir)
        : storeUrl
          ? await openLeadingPgShared(appStoreUrl ?? storeUrl, clock, opts.logger ?? silentLogger)
          : new LocalShared(clock, dir),
    });
    if (opts.watcher) await app.watcher.start();
    return app;
  };
  const stopServices = () => built.stop();
  let givenBack = false;
  let built = await build();
  const world: World = {
    clock,
    fake,
    sandbox,
    dir,
    demoKey: DEMO_KEY,
    get app() {
      return built;
    },
    get store() {
      return built.store;
    },
    get fileStore() {
      if (!(built.store instanceof FileStore)) throw new Error("this test needs the file store");
      return built.store;
    },
    get upstream() {
      return built.upstream;
    },
    get deps() {
      return built.deps;
    },
    get bot() {
      return built.bot;
    },
    get watcher() {
      return opts.watcher ? built.watcher : undefined;
    },
    // Users talk to whichever bot is current, so they survive restart().
    user: (u) => makeUser({ handleUpdate: (update) => world.bot.handleUpdate(update) }, fake, { clock, ...u }),
    async linkedUser(u = {}) {
      const person = world.user(u);
      await world.store.updateChat(person.chatId, { lang: u.languageCode === "en" ? "en" : "id" });
      await world.store.setApiKey(person.chatId, u.key ?? DEMO_KEY);
      return person;
    },
    async breakStore() {
      if (storeUrl) {
        await takeDatabaseDown(new URL(storeUrl).pathname.slice(1));
      } else {
        const folder = join(dir, "store");
        await rename(folder, `${folder}.away`);
        await writeFile(folder, "not a folder");
        // A journal's handle is kept open across the rename; a failing disk refuses its appends too.
        journalDown ??= vi.spyOn(LogFile.prototype, "write").mockRejectedValue(Object.assign(new Error("EIO: i/o error, write"), { code: "EIO" }));
      }
    },
    freezeStore() {
      if (!freezable) throw new Error("this test needs makeWorld({ freezableStore: true }) on PostgreSQL");
      freezable.freeze();
    },
    thawStore() {
      freezable?.thaw();
    },
    async repairStore() {
      if (storeUrl) {
        await bringDatabaseBack(new URL(storeUrl).pathname.slice(1));
      } else {
        const folder = join(dir, "store");
        await rm(folder);
        await rename(`${folder}.away`, folder);
        journalDown?.mockRestore();
        journalDown = undefined;
      }
      // The file store retries its writes, PgStore pings, both on the clock; real time passes for a reconnect.
      // On PostgreSQL the lead's connection was cut too: PgShared tries for it again on the clock, and
      // what the lead starts (polling, the watcher) reads the store before it runs.
      await vi.waitFor(
        async () => {
          await clock.advance(1000);
          if (!world.store.canPersist()) throw new Error("the store cannot persist yet");
          if (!world.app.shared.leadership().isLeader()) throw new Error("the world does not lead again yet");
        },
        { timeout: 15_000, interval: 20 },
      );
      await world.storeSettled();
    },
    async storeSettled() {
      const busy = () => (world.store instanceof PgStore ? world.store.queriesInFlight() > 0 : false);
      for (let quiet = 0; quiet < 3; ) {
        await new Promise((resolve) => setImmediate(resolve));
        quiet = busy() ? 0 : quiet + 1;
      }
    },
    savedChat(chatId) {
      if (reader) {
        return reader<{ data: ChatRecord }[]>`SELECT data FROM chats WHERE chat_id = ${chatId}`.then(([row]) => row?.data);
      }
      const folder = join(dir, "store");
      const chats = readdirSync(folder)
        .filter((f) => /^chats-\d+\.json$/.test(f))
        .flatMap((f) => (JSON.parse(readFileSync(join(folder, f), "utf8")) as { chats: ChatRecord[] }).chats);
      return Promise.resolve(chats.find((c) => c.chatId === chatId));
    },
    async restart() {
      await stopServices();
      built = await build();
    },
    async crash() {
      if (db) throw new Error("crash() needs the file store");
      await world.storeSettled();
      await built.store.flush();
      // The files as the dead process leaves them (its lock goes with it).
      const left = readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && e.name !== "bot.lock")
        .map((e) => ({ path: join(e.parentPath, e.name), bytes: readFileSync(join(e.parentPath, e.name)) }));
      fake.dropNext("*", { times: Number.MAX_SAFE_INTEGER });
      await stopServices().catch(() => undefined);
      fake.endDrops();
      for (const name of readdirSync(dir)) await rm(join(dir, name), { recursive: true, force: true });
      for (const f of left) {
        mkdirSync(join(f.path, ".."), { recursive: true });
        writeFileSync(f.path, f.bytes);
      }
      built = await build();
    },
    async close() {
      journalDown?.mockRestore();
      const stopped = await stopServices().then(
        () => true,
        () => false,
      );
      await freezable?.close();
      // Once: a second close must not empty a database another world took in the meantime. Not after
      // a failed stop either: an app still running could reconnect and write into the next world's data.
      if (db && !givenBack) {
        givenBack = true;
        if (stopped) await giveBackDatabase(db);
        else await db.sql.end();
      }
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return world;
}
