/**
 * The chaos run's world: test/support/world.ts's file-store world (the real app, the fake Bot API, the
 * sandbox over HTTP on 127.0.0.1, one ManualClock), without vitest, so bench/chaos.ts runs it with tsx
 * too (world.ts reaches PostgreSQL's test server through vitest's inject; here the caller hands a
 * database's URL in).
 *
 * The provider's signed callbacks are on, as a reseller who pasted /webhook's URL has them: every
 * change the sandbox makes (on the clock) is POSTed over HTTP to each linked chat's URL on the app's
 * own server (its port changes with each restart; while the app is down a callback is lost, as it
 * would be). `callbacks.fault` loses the callbacks sent meanwhile, or holds them until it ends.
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
import { callbackUrl } from "../../src/domain/providerCallbacks.js";
import { ManualClock } from "../../src/tools/clock.js";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "../support/botInfo.js";
import { makeUser, type FakeUser } from "../support/chat.js";
import { FakeBotApi } from "../support/fakeBotApi.js";

/** What happens to the provider's callbacks sent now: delivered, lost, or held until `release()`. */
export interface CallbackLine {
  fault: "lost" | "late" | undefined;
  /** Delivers the held callbacks (late ones, in the order sent). */
  release(): void;
  /** Resolves once every callback sent so far was answered (held ones aside). */
  idle(): Promise<void>;
  /** Callbacks the app's route answered, lost, and held (then delivered). */
  readonly counts: { delivered: number; lost: number; late: number };
  /** References whose callback a `lost` fault took (not the ones lost while the app restarted). */
  readonly lostRefs: Set<string>;
}

export interface ChaosWorld {
  clock: ManualClock;
  callbacks: CallbackLine;
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
    // The app's own HTTP server takes the provider's callbacks (forged ones too).
    HTTP_PORT: "0",
    PUBLIC_URL: PUBLIC_ORIGIN,
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
  const callbacks = callbackLine(sandbox, () => app);
  const world: ChaosWorld = {
    clock,
    callbacks,
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
      sandbox.setCallbackTarget(undefined);
      await app.stop().catch(() => undefined);
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return world;
}

/** The origin the provider's dashboard holds (the chaos run's PUBLIC_URL); each request goes to the current app's port. */
const PUBLIC_ORIGIN = "http://127.0.0.1:9";

/** Connects the sandbox's callbacks to the current app's route (see the header). */
function callbackLine(sandbox: Sandbox, current: () => App): CallbackLine {
  const delivering = new Set<Promise<unknown>>();
  let held: (() => void)[] = [];
  const counts = { delivered: 0, lost: 0, late: 0 };
  const lostRefs = new Set<string>();
  // Only the fault's losses are noted: one while the app restarts is the bot's to make up for (it can
  // know it was down), so its wait counts as any other, from the restart.
  const lose = (init: RequestInit, byFault: boolean): Promise<never> => {
    counts.lost++;
    const data = (JSON.parse(String(init.body)) as { data?: { reff_id?: string; ref_id?: string } }).data;
    const ref = data?.reff_id ?? data?.ref_id;
    if (ref && byFault) lostRefs.add(ref);
    return Promise.reject(new Error("callback lost"));
  };
  const deliver = (url: string, init: RequestInit): Promise<Response> => {
    // PUBLIC_URL stays while the process behind it changes: the request goes to whichever app runs now.
    const http = current().http();
    if (!http) return lose(init, false);
    // No real-time abort: a held callback may wait longer than the sandbox's 10 s of real time.
    const p = fetch(url.replace(PUBLIC_ORIGIN, http.url), { ...init, signal: null }).then(async (res) => {
      counts.delivered++;
      await res.arrayBuffer();
      return new Response(null, { status: res.status });
    });
    delivering.add(p);
    void p.catch(() => undefined).finally(() => delivering.delete(p));
    return p;
  };
  const line: CallbackLine = {
    fault: undefined,
    counts,
    lostRefs,
    release() {
      const due = held;
      held = [];
      for (const send of due) send();
    },
    async idle() {
      await sandbox.callbacksIdle();
      while (delivering.size > 0) await Promise.allSettled([...delivering]);
    },
  };
  sandbox.setCallbackTarget(
    async (apiKey) => {
      const store = current().store;
      const urls: string[] = [];
      // Every chat linked with the key, also one that blocked the bot (linkedChats() leaves those out):
      // the provider calls the URL it was given whatever the chat did in Telegram.
      for (const chat of await store.allChats()) {
        if (chat.callbackToken !== undefined && chat.apiKeyEnc !== undefined && store.apiKeyOf(chat) === apiKey) urls.push(callbackUrl(PUBLIC_ORIGIN, chat.callbackToken));
      }
      return urls;
    },
    (url, init) => {
      if (line.fault === "lost") return lose(init, true);
      if (line.fault === "late") {
        counts.late++;
        // The sender is answered at once; the request reaches the app when the fault ends.
        held.push(() => void deliver(url, init).catch(() => undefined));
        return new Response(null, { status: 200 });
      }
      return deliver(url, init);
    },
  );
  return line;
}
