/**
 * The playground: `npm start` with no BOT_TOKEN. The real app (buildApp, the same createBot,
 * flows, watcher and store) talks to the Bot API emulator over HTTP through TELEGRAM_API_ROOT, to
 * the built-in sandbox as its provider, and a page on 127.0.0.1 plays the Telegram app. Nothing
 * here reaches bot/: the bot cannot tell the emulator from Telegram.
 */
import { rm } from "node:fs/promises";
import { buildApp, type App } from "../app.js";
import { loadConfig } from "../config/env.js";
import { createLogger, type Logger } from "../logging/logger.js";
import { DEMO_KEY } from "../sandbox/index.js";
import { BotApiEmulator, type ClockLike, type FakeServer } from "./botApi/index.js";
import { FAKE_BOT_TOKEN } from "./botInfo.js";
import { startWeb, type PlaygroundUser, type WebOptions, type WebServer } from "./web.js";

/** The chats the page can switch between. The admin's id goes into ADMIN_IDS. */
export const PLAYGROUND_USERS: readonly PlaygroundUser[] = [
  { id: 1001, name: "Rina", role: "reseller (linked, demo key)", lang: "id" },
  { id: 1002, name: "Budi", role: "new user (not linked)", lang: "id" },
  { id: 1003, name: "Admin", role: "admin (ADMIN_IDS)", lang: "id" },
];
const LINKED: Record<number, string> = { 1001: DEMO_KEY, 1003: "SANDBOX-KEY-2" };

/**
 * The emulator as the playground runs it: Telegram's limits (the strict rules, and 429 with
 * retry_after beyond 30 messages a second per bot). It keeps no log of calls: a long session
 * does not grow.
 */
export function createEmulator(clock?: ClockLike): BotApiEmulator {
  const fake = new BotApiEmulator(clock ? { clock } : {});
  fake.limitRate({ perSecond: 30 });
  return fake;
}

export interface PlaygroundOptions {
  /** Where the store lives (default `.playground`). */
  dataDir?: string;
  /** Start from an empty folder. */
  reset?: boolean;
  /** The page's port on 127.0.0.1 (0 = any free one). */
  port?: number;
  logger?: Logger;
  /** How long a purchase stays pending before the sandbox settles it by its rule. */
  settleMs?: number;
}

export interface Playground {
  url: string;
  app: App;
  fake: BotApiEmulator;
  stop(): Promise<void>;
}

export async function startPlayground(opts: PlaygroundOptions = {}): Promise<Playground> {
  const dataDir = opts.dataDir ?? ".playground";
  if (opts.reset) await rm(dataDir, { recursive: true, force: true });
  const logger = opts.logger ?? createLogger("error");
  const fake = createEmulator();
  let api: FakeServer | undefined;
  let app: App | undefined;
  let web: WebServer | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await web?.close();
      await app?.stop();
      await api?.close();
    })());
  try {
    api = await fake.startServer();
    const config = loadConfig({
      BOT_TOKEN: FAKE_BOT_TOKEN,
      TELEGRAM_API_ROOT: api.apiRoot,
      UPSTREAM_BASE_URL: "sandbox",
      DATA_DIR: dataDir,
      ADMIN_IDS: PLAYGROUND_USERS.filter((u) => u.role.startsWith("admin")).map((u) => u.id).join(","),
    });
    app = await buildApp(config, logger, {
      // Pending long enough to settle it from the panel; deposits pay themselves after a minute.
      sandbox: { settleMs: opts.settleMs ?? 30_000, autoPayDepositsAfterMs: 60_000 },
    });
    const { store } = app;
    for (const u of PLAYGROUND_USERS) {
      const key = LINKED[u.id];
      if (key !== undefined && await store.getApiKey(u.id) === undefined) {
        await store.updateChat(u.id, { lang: u.lang });
        await store.setApiKey(u.id, key);
      }
    }
    const users = [];
    for (const u of PLAYGROUND_USERS) users.push({ ...u, lang: (await store.getChat(u.id))?.lang === "en" ? ("en" as const) : u.lang });
    await app.start();
    const sandbox = app.sandbox!;
    let latency = 0;
    const open = async (refId: string) => (await store.openTxs()).find((t) => t.refId === refId);
    const webOptions: WebOptions = {
      fake,
      users,
      host: "127.0.0.1",
      port: opts.port ?? 0,
      onLanguage: (id, lang) => void store.updateChat(id, { lang }).catch(() => undefined), // the next page load shows it
      panel: {
        pending: async () =>
          (await store.openTxs())
            .filter((t) => t.status !== "draft")
            .sort((a, b) => b.createdAt - a.createdAt)
            .map((t) => ({
              refId: t.refId,
              chatId: t.chatId,
              kind: t.kind,
              status: t.status,
              amount: t.amount,
              ...(t.title !== undefined ? { title: t.title } : {}),
              ...(t.target !== undefined ? { target: t.target } : {}),
            })),
        settle: async (refId, outcome) => {
          const tx = await open(refId);
          if (tx === undefined || tx.kind === "deposit") return false;
          try {
            return sandbox.settle(tx.upstreamId ?? refId, outcome);
          } catch {
            return false; // made before a restart: the new sandbox does not know it
          }
        },
        payDeposit: async (refId) => {
          const tx = await open(refId);
          if (tx?.kind !== "deposit" || tx.upstreamId === undefined) return false;
          try {
            sandbox.payDeposit(tx.upstreamId);
            return true;
          } catch {
            return false; // already paid or expired
          }
        },
        latencyMs: () => latency,
        setLatency: (ms) => {
          latency = ms;
          sandbox.setLatency(ms);
        },
      },
    };
    // The usual port when free, else any: a second playground still starts.
    web = await startWeb(webOptions).catch((e: unknown) => {
      if ((e as { code?: string }).code !== "EADDRINUSE" || webOptions.port === 0) throw e;
      return startWeb({ ...webOptions, port: 0 });
    });
  } catch (e) {
    await stop().catch(() => undefined);
    throw e;
  }
  return { url: web.url, app, fake, stop };
}
