/**
 * The playground: `npm start` with no BOT_TOKEN. The real app (buildApp, the same createBot,
 * flows, watcher and store) talks to the Bot API emulator over HTTP through TELEGRAM_API_ROOT, to
 * the built-in sandbox as its provider, and a page on 127.0.0.1 plays the Telegram app. Nothing
 * here reaches bot/: the bot cannot tell the emulator from Telegram.
 */
import { randomUUID } from "node:crypto";
import { createServer, type AddressInfo } from "node:net";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { buildApp, type App } from "../app.js";
import { loadConfig } from "../config/env.js";
import { createLogger, type Logger } from "../logging/logger.js";
import { ProviderLink } from "../domain/providerLink.js";
import { appendAudit } from "../domain/audit.js";
import { orderRefOfTx } from "../domain/shop/orders.js";
import type { TxRecord } from "../store/index.js";
import { DEMO_KEY } from "../sandbox/index.js";
import { readStateFile, StateFile } from "../sandbox/stateFile.js";
import { systemClock } from "../tools/clock.js";

import { BotApiEmulator, type ClockLike, type FakeServer, type SavedChats } from "./botApi/index.js";
import { FAKE_BOT_TOKEN } from "./botInfo.js";
import { setChatCommands } from "../telegram/roleCommands.js";
import { startWeb, type PendingEntry, type PlaygroundUser, type WebOptions, type WebServer } from "./web.js";

/** Rina's online shop, open from the first start; Sari opens its link as any customer would. */
const RINA = 1001;
const SARI = 1005;
const ANDI = 1006;

/** The chats the page can switch between. The admin's id goes into ADMIN_IDS. */
export const PLAYGROUND_USERS: readonly PlaygroundUser[] = [
  { id: 1001, name: "Rina", role: "reseller", lang: "id" },
  { id: 1002, name: "Budi", role: "newcomer", lang: "id" },
  { id: 1003, name: "Admin", role: "admin", lang: "id" },
  { id: 1004, name: "Dewi", role: "cashier", lang: "id" },
  { id: SARI, name: "Sari", role: "customer", lang: "id" },
  { id: ANDI, name: "Andi", role: "downline", lang: "id" },
];
/** Dewi is Rina's cashier: she sells with Rina's key and balance; Rina reads /staf and /audit. */
const CASHIER_OF: Record<number, number> = { 1004: 1001 };
/** Andi is Rina's downline at level Gold (DEFAULT_LEVELS' index 1), his wallet funded once by this fixed ref. */
const DOWNLINE_OF: Record<number, { owner: number; level: number; funds: number; ref: string }> = {
  [ANDI]: { owner: RINA, level: 1, funds: 50_000, ref: "playground:andi:funds" },
};
/** The key the page tells a newcomer to paste: a small balance, enough for the hint's example sale. */
const NEWCOMER_KEY = "SANDBOX-KEY-NEW";
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

/** The chat windows and the sandbox's state, in the playground's folder beside the bot's store. */
const CHATS_FILE = "playground-chats.json";
const SANDBOX_FILE = "sandbox-state.json";
const GENERATION_FILE = "generation";

/** Which playground the folder holds: made with the folder, so a reset makes a new one (the page reloads its chats). */
async function generationOf(dataDir: string): Promise<string> {
  const file = join(dataDir, GENERATION_FILE);
  const known = (await readFile(file, "utf8").catch(() => "")).trim();
  if (known !== "") return known;
  const made = randomUUID();
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${made}\n`);
  return made;
}

/** Removes the folder; says what went, in one line. */
async function wipe(dataDir: string): Promise<string> {
  const had = await readdir(dataDir).catch(() => [] as string[]);
  await rm(dataDir, { recursive: true, force: true });
  return had.length === 0
    ? `Playground reset: ${dataDir} was already empty.`
    : `Playground reset: wiped ${dataDir} (the chat windows, the sandbox's balances, sales and deposits, and the bot's store: links, languages, history).`;
}

/**
 * Sari becomes a customer of Rina's shop the way a customer does: her chat sends the shop link's
 * `/start <code>` (as Telegram does when a link or QR is opened). Once: a later start finds her a customer.
 */
async function openSarisShop(fake: BotApiEmulator, app: App): Promise<void> {
  if ((await app.store.getChat(SARI))?.customerOf) return;
  const code = (await app.deps.shop.get(RINA)).code;
  const text = `/start ${code}`;
  const from = { id: SARI, is_bot: false, first_name: "Sari", language_code: "id" };
  fake.pushUpdate({
    message: {
      message_id: fake.nextMessageId(SARI),
      from,
      chat: { id: SARI, type: "private", first_name: "Sari" },
      date: Math.floor(Date.now() / 1000),
      text,
      entities: [{ type: "bot_command", offset: 0, length: "/start".length }],
    },
  });
}

/**
 * Joined as the bot joins a downline (a one-person invitation taken at once, with the owner's audit
 * entries), then funded by hand once: the credit's ref is fixed, so a restart posts nothing twice.
 */
async function seedDownlines(app: App, users: readonly PlaygroundUser[]): Promise<void> {
  const { store } = app;
  const { network, wallets } = app.deps;
  for (const u of users) {
    const seed = DOWNLINE_OF[u.id];
    if (seed === undefined) continue;
    let chat = await store.getChat(u.id);
    if (chat?.downlineOf === undefined) {
      if (chat === undefined) await store.updateChat(u.id, { lang: u.lang });
      const invited = await network.invite(seed.owner, seed.level);
      if (typeof invited === "string") continue;
      const level = (await network.levels(seed.owner))[seed.level]?.name ?? "";
      await appendAudit(store, seed.owner, { act: "downline_invited", by: seed.owner, after: level });
      const joined = await network.join(invited.token, { chat: u.id, name: u.name, ownsKey: false });
      if (typeof joined === "string") continue;
      await appendAudit(store, seed.owner, { act: "downline_joined", by: u.id, byName: u.name, after: level });
      chat = await store.getChat(u.id);
    }
    if (chat?.downlineOf?.owner !== seed.owner) continue; // the invitation was refused (Rina's network is full)
    const reason = "saldo awal";
    const adjusted = await wallets.adjust({ ref: seed.ref, owner: seed.owner, wallet: u.id, amount: seed.funds, reason, by: seed.owner });
    if (adjusted.kind === "posted") await appendAudit(store, seed.owner, { act: "wallet_adjusted", by: seed.owner, after: { chat: u.id, amount: seed.funds, reason } });
  }
}

/** The panel's entries, newest first: each names who pays a QR (a shop's customer pays her order's) and who sold. */
async function pendingEntries(app: App, open: readonly TxRecord[]): Promise<PendingEntry[]> {
  const entries: PendingEntry[] = [];
  for (const t of [...open].filter((x) => x.status !== "draft").sort((a, b) => b.createdAt - a.createdAt)) {
    const orderRef = orderRefOfTx(t.refId);
    const order = orderRef === undefined ? undefined : (await app.deps.shopOrders.get(orderRef))?.value;
    entries.push({
      refId: t.refId,
      chatId: t.chatId,
      kind: t.kind,
      status: t.status,
      amount: t.amount,
      ...(t.title !== undefined ? { title: t.title } : {}),
      ...(t.target !== undefined ? { target: t.target } : {}),
      ...(t.kind === "deposit" ? { payer: order?.customer ?? t.chatId } : {}),
      ...(order ? { order: { customer: order.customer, product: order.productName } } : {}),
      ...(t.by !== undefined && t.by !== t.chatId ? { by: t.by } : {}),
    });
  }
  return entries;
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
  /** Where a line for the person at the console goes (what --reset wiped). Default stdout. */
  say?: (line: string) => void;
}

export interface Playground {
  url: string;
  app: App;
  fake: BotApiEmulator;
  stop(): Promise<void>;
}

/** A port free on 127.0.0.1 now (the bot's HTTP server takes it a moment later). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((ok, fail) => probe.once("error", fail).listen(0, "127.0.0.1", ok));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

export async function startPlayground(opts: PlaygroundOptions = {}): Promise<Playground> {
  const dataDir = opts.dataDir ?? ".playground";
  const say = opts.say ?? ((line: string) => void process.stdout.write(`${line}\n`));
  if (opts.reset) say(await wipe(dataDir));
  const logger = opts.logger ?? createLogger("error");
  const fake = createEmulator();
  // The chat windows as they were at the last stop; every change is written soon after.
  const chatsFile = join(dataDir, CHATS_FILE);
  const savedChats = await readStateFile<SavedChats>(chatsFile).catch(() => undefined);
  if (Array.isArray(savedChats?.chats) && savedChats.files !== undefined) fake.restoreChats(savedChats);
  const chats = new StateFile(chatsFile, () => fake.saveChats(), systemClock);
  const unwatchChats = fake.onChange((e) => void (e.type === "message" && chats.soon()));
  let api: FakeServer | undefined;
  let app: App | undefined;
  let web: WebServer | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await web?.close();
      await app?.stop();
      await api?.close();
      unwatchChats();
      await chats.flush();
    })());
  try {
    api = await fake.startServer();
    // The bot's own HTTP server on 127.0.0.1 too, so a downline's /h2h names a URL its key answers on.
    const httpPort = await freePort();
    const config = loadConfig({
      HTTP_PORT: String(httpPort),
      HTTP_HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${httpPort}`,
      BOT_TOKEN: FAKE_BOT_TOKEN,
      TELEGRAM_API_ROOT: api.apiRoot,
      UPSTREAM_BASE_URL: "sandbox",
      DATA_DIR: dataDir,
      ADMIN_IDS: PLAYGROUND_USERS.filter((u) => u.role === "admin").map((u) => u.id).join(","),
    });
    app = await buildApp(config, logger, {
      // Pending long enough to settle it from the panel; deposits pay themselves after a minute.
      // Its balances and records live in the folder too: a restart goes on where it stopped.
      sandbox: { settleMs: opts.settleMs ?? 30_000, autoPayDepositsAfterMs: 60_000, stateFile: join(dataDir, SANDBOX_FILE) },
    });
    const { store } = app;
    const sandbox = app.sandbox!;
    const link = new ProviderLink(store);
    for (const u of PLAYGROUND_USERS) {
      const key = LINKED[u.id];
      if (key === undefined) continue;
      const chat = await store.getChat(u.id);
      if (chat?.apiKeyEnc === undefined) await store.updateChat(u.id, { lang: u.lang });
      // Linked as the bot links a key (the username that signs callbacks, a callback token), so the
      // sandbox's callbacks reach the chat and a settled sale is told at once, not at the next poll.
      if (chat?.apiKeyEnc === undefined || ((chat.providerUsername === undefined || chat.callbackToken === undefined) && (await store.getApiKey(u.id)) === key)) {
        await link.link(u.id, key, sandbox.username(key));
      }
    }
    // Rina's shop is open from the first start (she may turn it off in /toko; a restart keeps her choice).
    if (!(await app.deps.shop.get(RINA)).code) {
      await app.deps.shop.newLink(RINA);
      await app.deps.shop.update(RINA, { enabled: true, contact: "WA 0812-0000-1001" });
      // At cost, a newcomer's first shop order would show "Untung: Rp0" (/markup changes it).
      if (Object.keys(await app.deps.settings.pricing(RINA)).length === 0) await app.deps.settings.setPricing(RINA, { all: { flat: 2_000 } });
    }
    // Joined as the bot joins staff (a one-time invitation taken at once), with the owner's audit entries.
    const staff = app.deps.staff;
    for (const u of PLAYGROUND_USERS) {
      const owner = CASHIER_OF[u.id];
      const chat = await store.getChat(u.id);
      if (owner === undefined || chat?.staffOf !== undefined) continue;
      if (chat === undefined) await store.updateChat(u.id, { lang: u.lang });
      const invited = await staff.invite(owner, "cashier");
      if (invited === "full") continue;
      await appendAudit(store, owner, { act: "staff_invited", by: owner, byName: "Rina", after: "cashier" });
      const joined = await staff.join(invited.token, { chat: u.id, name: u.name, ownsKey: false });
      if (typeof joined !== "string") await appendAudit(store, owner, { act: "staff_joined", by: u.id, byName: u.name, after: "cashier" });
    }
    await seedDownlines(app, PLAYGROUND_USERS);
    const users = [];
    for (const u of PLAYGROUND_USERS) users.push({ ...u, lang: (await store.getChat(u.id))?.lang === "en" ? ("en" as const) : u.lang });
    await app.start();
    // Dewi's Menu is a cashier's, Andi's a downline's, as the bot sets them when one joins (the emulator keeps no Menus across starts).
    for (const u of PLAYGROUND_USERS) {
      const chat = await store.getChat(u.id);
      if (CASHIER_OF[u.id] !== undefined && chat?.staffOf) await setChatCommands(app.bot.api, app.deps.translate, u.id, chat.staffOf.role);
      if (DOWNLINE_OF[u.id] !== undefined && chat?.downlineOf) await setChatCommands(app.bot.api, app.deps.translate, u.id, "downline");
    }
    let latency = 0;
    const open = async (refId: string) => (await store.openTxs()).find((t) => t.refId === refId);
    const webOptions: WebOptions = {
      fake,
      users,
      host: "127.0.0.1",
      port: opts.port ?? 0,
      onLanguage: (id, lang) => void store.updateChat(id, { lang }).catch(() => undefined), // the next page load shows it
      chatState: async (id) => {
        const chat = await store.getChat(id);
        return { ...(chat?.lang === "en" || chat?.lang === "id" ? { lang: chat.lang } : {}), linked: chat?.apiKeyEnc !== undefined };
      },
      newcomerKey: NEWCOMER_KEY,
      generation: await generationOf(dataDir),
      panel: {
        pending: async () => pendingEntries(app!, await store.openTxs()),
        settle: async (refId, outcome) => {
          const tx = await open(refId);
          if (tx === undefined) return false;
          try {
            if (tx.kind !== "deposit") return sandbox.settle(tx.upstreamId ?? refId, outcome);
            // Paid, waiting for the next working day's settlement: the provider settles it now.
            if (outcome !== "success" || tx.status !== "processing" || tx.upstreamId === undefined) return false;
            sandbox.settleDeposit(tx.upstreamId);
            return true;
          } catch {
            return false; // the sandbox never got it (its create failed, or its state file was removed)
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
    await openSarisShop(fake, app);
  } catch (e) {
    await stop().catch(() => undefined);
    throw e;
  }
  return { url: web.url, app, fake, stop };
}
