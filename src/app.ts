/**
 * buildApp(config, overrides) makes every part of the running application once, in order, with
 * complete dependencies: store, upstream client (or the built-in sandbox), translate, transaction
 * events, the send pacer, balance alerts, broadcaster, status watcher, and last the bot that uses
 * them. main.ts and the tests both build through it; overrides only tune (clock, fetch, timeouts),
 * they never wire differently. `start()` adds what production runs in the background (only while
 * this process leads: leaderWork.ts). Over ~350 lines because it is the one place where every part
 * is made and wired, in order; splitting it would hide that order.
 */
import { Api, type ApiClientOptions } from "grammy";
import { fetchBotInfo } from "./telegram/botInfo.js";
import { withinMs } from "./tools/within.js";
import type { AppConfig } from "./config/env.js";
import { systemClock, type Clock } from "./tools/clock.js";
import { protectSecret, type Logger } from "./logging/logger.js";
import { TxEvents } from "./domain/events.js";
import { forgetBalanceOnChange } from "./domain/freshBalance.js";
import { createTranslate, type Translate } from "./render/i18n.js";
import { htmlByDefault } from "./telegram/parseMode.js";
import { depositProcessingMarkup } from "./bot/keyboards/deposit.js";
import { createBot, type AppBot, type BotConfig } from "./bot/index.js";
import { resendDueInstructions, sendOwedInstructions } from "./bot/money/depositInstructions.js";
import { registerCommands } from "./telegram/roleCommands.js";
import type { BotDeps } from "./bot/context.js";
import type { PollingOptions } from "./telegram/polling.js";
import { LeaderWork, wireHints } from "./jobs/leaderWork.js";
import type { Sandbox, SandboxOptions } from "./sandbox/index.js";
import { resolveStoreSecret, verifyStoreSecret } from "./config/storeSecret.js";
import { openShared } from "./cluster/index.js";
import { openStore } from "./store/index.js";
import { ChatSettings } from "./domain/chatSettings.js";
import { SavedCustomers } from "./domain/savedCustomers.js";
import { ShopSettings } from "./domain/shop/settings.js";
import { Pins } from "./domain/pin.js";
import { Ledger } from "./domain/ledger.js";
import { Wallets } from "./money/wallets.js";
import { tellDepositCredited } from "./jobs/walletNotices.js";
import { MoneyEngine } from "./money/createOnce.js";
import { Staff } from "./domain/staff.js";
import { Network } from "./domain/network.js";
import { H2hAccess } from "./domain/h2hAccess.js";
import { H2hSales } from "./money/h2hSales.js";
import { H2hCallbackSender, type H2hCallbackSenderOptions } from "./jobs/h2hCallbacks/sender.js";
import { madeOverH2h } from "./jobs/h2hCallbacks/outbox.js";
import { H2hDeposits } from "./money/h2hDeposits.js";
import { H2hPayouts } from "./money/h2hPayouts.js";
import { payoutOfferSender } from "./bot/money/payoutRequest.js";
import { ShopOrders, toldByOrder } from "./domain/shop/orders.js";
import { ShopOrderJob } from "./jobs/shop/orderJob.js";
import type { ShopOrderJobOptions } from "./jobs/shop/orderJobDeps.js";
import type { ShopSettingsReader } from "./domain/shop/orderSettings.js";
import { ProviderLink } from "./domain/providerLink.js";
import type { Store } from "./store/index.js";
import { ListCache } from "./upstream/cache.js";
import { UpstreamClient } from "./upstream/client.js";
import { BalanceAlerts, type BalanceAlertsOptions } from "./jobs/alerts.js";
import { BalanceRound } from "./jobs/balanceRound.js";
import { BROADCAST_CONCURRENCY, Broadcaster } from "./jobs/broadcast.js";
import { BULK_PACE, SendPacer, type PaceOptions } from "./telegram/pacer.js";
import { pacedFetch, telegramFetch } from "./telegram/pacedFetch.js";
import { RelinkNotices } from "./jobs/relink.js";
import { Payouts } from "./jobs/payouts.js";
import { StatusWatcher, type WatcherOptions } from "./jobs/watcher/watcher.js";
import { DailySummary } from "./jobs/dailySummary.js";
import { PriceDigest } from "./jobs/priceDigest.js";
import { logPriceChanges } from "./domain/priceChanges.js";
import { Observers } from "./server/observe.js";
import type { HttpServer } from "./server/http.js";
import { webhookHandler } from "./server/webhook.js";
import { lockDataDir } from "./cluster/dataLock.js";
import { connectSandboxCallbacks } from "./server/sandboxCallbacks.js";
import type { Shared } from "./cluster/shared.js";

/** The updates the bot asks Telegram for, in long polling and webhook mode alike. */
const ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"] as const;

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
  /** The opt-in 21.00 WIB daily summary (started by start()). */
  dailySummary: DailySummary;
  priceDigest: PriceDigest;
  /** Metrics and health facts (served by the HTTP server when HTTP_PORT is set). */
  observers: Observers;
  /** What this process shares with other bot processes (the lead, hints, updates once, rate counts). */
  shared: Shared;
  /** Downlines' H2H access (docs/h2h.md): enable, newKey, setIps, setCallbackUrl. */
  h2hAccess: H2hAccess;
  h2hCallbacks: H2hCallbackSender;
  /** The HTTP server once started (only when HTTP_PORT is set). */
  http(): HttpServer | undefined;
  /**
   * Registers the command list and serves HTTP (and the webhook); once this process leads: resumes
   * an unfinished broadcast, starts alerts, polling and the watcher (at once with one process).
   */
  start(): Promise<void>;
  /** Sends what a crash left unsent (deposit instructions); start() runs it first. */
  recover(): Promise<void>;
  /** Stops polling, lets running handlers finish, stops background work, flushes the store, closes connections. */
  stop(): Promise<void>;
  /** Resolves when polling ended on its own for good (401: the token was revoked), after the app stopped. */
  failed: Promise<Error>;
}

/** Of the 10 s a stop may take (Docker's and systemd's default), what running handlers get to finish. */
const STOP_GRACE_MS = 8_000;

/** Tuning for tests and benchmarks. Every part is still made and wired as in production. */
export interface AppOverrides {
  clock?: Clock;
  logger?: Logger;
  bot?: BotConfig;
  upstream?: { timeoutMs?: number; readRetries?: number };
  /** Options of the built-in sandbox (only when the config asks for it). */
  sandbox?: SandboxOptions;
  watcher?: Partial<WatcherOptions>;
  h2hCallbacks?: Partial<H2hCallbackSenderOptions>;
  /** Shop order job tuning (the sweep's period...). */
  shopOrders?: { options?: Partial<ShopOrderJobOptions> };
  alerts?: Partial<Pick<BalanceAlertsOptions, "intervalMs" | "debounceMs" | "concurrency">>;
  broadcast?: { progressEveryMs?: number; concurrency?: number };
  /** The shared pace of all messages, answers and background (default BULK_PACE). */
  pace?: { perSecond: number } & PaceOptions;
  /**
   * The bot's answers take the pacer's slots and wait out 429s (default true). Tests whose clock
   * stands still while many answers go out turn it off (they would wait for time that never comes).
   */
  paceAnswers?: boolean;
  /** Polling waits (back-off cap, wait after a 409) and the long-poll timeout. */
  polling?: Pick<PollingOptions, "maxBackoffMs" | "conflictWaitMs" | "timeoutSeconds">;
  /** What bot processes share (default: from STORE_URL, see openShared). */
  shared?: Shared;
  /** How long stop() lets running handlers finish before it cuts their provider calls (default 8 s). */
  stopGraceMs?: number;
}

export async function buildApp(config: AppConfig, logger: Logger, overrides: AppOverrides = {}): Promise<App> {
  const clock = overrides.clock ?? systemClock;
  protectSecret(config.botToken); // no log line may carry it, whatever shape an error has
  const unlockDataDir = await lockDataDir(config.dataDir);
  let webhookActive = false;
  let started = false;
  const shared = overrides.shared ?? (await openShared({ url: config.storeUrl, dir: config.dataDir, clock, logger }));
  const leadership = shared.leadership();
  const sources = {
    pendingIds: () => store.stats().openTxs,
    broadcast: async () => {
      const p = await broadcaster.progress();
      return p && { running: await broadcaster.isRunning(), sent: p.sent, failed: p.failed, remaining: p.remaining };
    },
  };
  // prom-client loads only when /metrics is served (HTTP_PORT): observe.ts says why.
  const served = config.http ? new (await import("./server/metrics.js")).AppMetrics(sources) : undefined;
  const observers = new Observers({
    ...(served && { metrics: served }),
    clock,
    dataDir: config.dataDir,
    store: () => store,
    updatesLoop: (): boolean => webhookActive || (work.runner?.isRunning() ?? false),
    // A long polling standby takes no updates until it leads: that is no fault.
    updatesLoopExpected: () => !(started && !config.webhookUrl && !leadership.isLeader()),
    role: () => (leadership.isLeader() ? "leader" : "standby"),
    ...sources,
  });
  const source = await resolveStoreSecret(config.storeSecret, config.dataDir);
  const { secret } = source;
  const opening = openStore({
    url: config.storeUrl,
    dir: config.dataDir,
    secret,
    clock,
    onWrite: observers.onWrite,
    onWarning: (message) => logger.warn(message),
    // Money actions refuse meanwhile (store.canPersist); the flusher retries on its own.
    onError: (err) => logger.error({ err }, "store write failed; retrying (money actions refused until it works)"),
  });
  // Parsing the locales overlaps the key derivation the store waits for (scrypt, on the thread pool).
  // getMe goes out now and overlaps the key derivation too: one round trip less before updates are taken.
  // One HTTP client for every Telegram call (answers, bulk sends, polling): undici, as for the provider.
  const client: ApiClientOptions = {
    fetch: telegramFetch as never,
    ...overrides.bot?.client,
    ...(config.telegramApiRoot ? { apiRoot: config.telegramApiRoot } : {}),
  };
  const botInfo = overrides.bot?.botInfo ? Promise.resolve(overrides.bot.botInfo) : fetchBotInfo(config.botToken, client, observers.bot.api, logger);
  botInfo.catch(() => undefined); // awaited below, after the store: its errors are said first
  const translate = createTranslate();
  const store = await opening;
  // A secret that cannot read the stored keys stops start-up here, unless the operator chose to go on.
  await verifyStoreSecret(store, source, { reset: config.storeSecretReset, dataDir: config.dataDir, logger });

  let sandbox: Sandbox | undefined;
  let baseUrl = config.upstreamBaseUrl;
  if (baseUrl === null) {
    // Loaded only in sandbox mode: a production start does not carry the simulated provider.
    const { createSandbox } = await import("./sandbox/index.js");
    sandbox = await createSandbox({ clock, autoPayDepositsAfterMs: 20_000, ...overrides.sandbox });
    baseUrl = sandbox.url;
    logger.warn(
      { url: sandbox.url, demoKey: sandbox.demoKey },
      "SANDBOX MODE: using the built-in simulated reseller API. No real money moves. Link the demo key shown here.",
    );
  }
  const upstream = new UpstreamClient({ baseUrl, clock, logger, onCall: observers.onCall, ...overrides.upstream });
  const inSandbox = sandbox !== undefined;
  const events = new TxEvents(logger);

  // One pacer for every message the app sends (BULK_PACE says why 29/s): background senders
  // (alerts, broadcast, watcher notices) take its slots through deliver() on an Api without
  // auto-retry, the bot's answers through pacedFetch with priority. 429s are waited out on the clock.
  const bulkApi = new Api(config.botToken, client);
  bulkApi.config.use(htmlByDefault);
  bulkApi.config.use(observers.metrics.apiTransformer);
  const pace = overrides.pace ?? BULK_PACE;
  const pacer = new SendPacer(clock, pace.perSecond, pace);
  // Leader-only jobs carry the lead's term: an old leader that has not noticed yet writes and sends nothing.
  const alerts = new BalanceAlerts({ store, upstream, api: bulkApi, clock, logger, translate, pacer, sandbox: inSandbox, fence: shared.fence(), ...overrides.alerts });
  const broadcaster = new Broadcaster({
    store,
    api: bulkApi,
    clock,
    logger,
    translate,
    pacer,
    concurrency: BROADCAST_CONCURRENCY,
    // Only the leading process delivers; a standby saves the broadcast and tells the leader.
    elsewhere: () => !leadership.isLeader() && (shared.notify("broadcast", "new"), true),
    fence: shared.fence(),
    ...overrides.broadcast,
  });
  const ledger = new Ledger(store);
  const money = new MoneyEngine({ ledger, events, logger });
  const wallets = new Wallets({ store, logger, onDepositCredited: tellDepositCredited({ store, api: bulkApi, pacer, translate, logger }) });
  // Every saved outcome settles what it owes a wallet, once (docs/wallets.md).
  events.on("created", (tx) => wallets.settle(tx));
  events.on("changed", (tx) => wallets.settle(tx));
  // A downline's payout: its ending told to the downline with its wallet; unconfirmed ones expire.
  const payouts = new Payouts({ store, ledger, wallets, api: bulkApi, pacer, translate, clock, logger, onH2hQueued: () => h2hCallbacks.poke(), offer: (tx) => offerPayout(tx) });
  events.on("created", (tx) => payouts.changed(tx));
  events.on("changed", (tx) => payouts.changed(tx));
  const shopOrders = new ShopOrders(store);
  const shopOrderJob = new ShopOrderJob({
    store, orders: shopOrders, ledger, money, upstream, api: bulkApi, pacer, translate, clock, logger, events, sandbox: inSandbox,
    hurry: (refId) => void watcher.hurry(refId),
    // The sweep is the leader's; the shop's settings come from the shop feature once the bot has it.
    leading: () => leadership.isLeader(),
    shop: () => (deps as { shop?: ShopSettingsReader }).shop,
    // The same sweep cancels downlines' payout requests left unconfirmed (as it does unconfirmed refunds).
    alsoSweep: () => payouts.expireDue(),
    ...overrides.shopOrders,
  });
  const watcher = new StatusWatcher({
    store,
    upstream,
    api: bulkApi,
    clock,
    logger,
    translate,
    pacer,
    // On the files one process owns the data folder; on PostgreSQL the other process may be mid-create.
    options: { perKeyPerSecond: config.watchCallsPerKey, sandbox: inSandbox, sendingLostAtStart: !config.storeUrl, ...overrides.watcher },
    // A paid deposit's notice offers the instant release right there.
    processingMarkup: (lang, tx) => depositProcessingMarkup(translate, lang, tx),
    onNotice: observers.onNotice,
    // Background writes carry the lead's term: an old leader that has not noticed yet writes nothing.
    fence: shared.fence(),
    // A shop order's deposit and purchase are told by the order; their changes move it on.
    toldElsewhere: (tx) => toldByOrder(tx.refId),
    onChanged: (tx) => {
      shopOrderJob.txChanged(tx);
      if (madeOverH2h(tx)) h2hCallbacks.poke();
      events.emit("changed", tx);
      // A deposit found unpaid after its create's answer was lost: its QR or VA goes out now, once.
      if (tx.kind === "deposit" && tx.status === "pending") {
        sendOwedInstructions(bot.api, deps, tx).catch((err: unknown) => logger.warn({ err, refId: tx.refId }, "could not send a deposit's payment instructions; retried at next start"));
      }
    },
  });
  // Downlines' systems are told of their H2H sales' outcomes by callback (docs/h2h.md "Callbacks").
  const h2hCallbacks = new H2hCallbackSender({ store, clock, logger, ...(overrides.h2hCallbacks && { options: overrides.h2hCallbacks }) });
  const relink = new RelinkNotices({ store, api: bulkApi, pacer, translate, logger, fence: shared.fence() });
  const dailySummary = new DailySummary({ store, api: bulkApi, clock, logger, translate, pacer, sandbox: inSandbox, fence: shared.fence() });
  const priceDigest = new PriceDigest({ store, api: bulkApi, clock, logger, translate, pacer, sandbox: inSandbox, fence: shared.fence() });
  events.on("created", (tx) => watcher.track(tx));
  const lists = new ListCache(upstream, clock);
  forgetBalanceOnChange(events, lists, store);
  const hints = wireHints(shared, events, { watcher, alerts, store, broadcaster });
  observers.watchCreates(events);

  // Downlines' own systems over H2H (docs/h2h.md): served with the HTTP server; the service API for the chat's /h2h.
  const h2hAccess = new H2hAccess(store);
  const deps: BotDeps = {
    h2hAccess,
    store,
    settings: new ChatSettings(store),
    providerLink: new ProviderLink(store),
    ledger,
    money,
    wallets,
    payouts,
    staff: new Staff(store, () => clock.now()),
    pins: new Pins(store, () => clock.now()),
    network: new Network(store, () => clock.now()),
    savedCustomers: new SavedCustomers(store),
    shop: new ShopSettings(store),
    upstream,
    lists,
    clock,
    logger,
    adminIds: config.adminIds,
    sandbox: inSandbox,
    publicUrl: config.publicUrl,
    translate,
    events,
    statusChecker: hints.statusChecker,
    alerts,
    balanceRound: new BalanceRound(alerts),
    broadcaster,
    shopOrders,
    shopOrderJob,
  };
  logPriceChanges(deps.lists, store, logger);
  const h2hSales = new H2hSales({ store, money, upstream, lists, network: deps.network, wallets, logger });
  const h2hDeposits = new H2hDeposits({ store, money, upstream, lists, logger, sales: h2hSales, ledger: deps.ledger, now: () => clock.now() });
  // A payout request over H2H is asked of the owner in Telegram as /tarik's is (the bot's message and buttons).
  const offerPayout = payoutOfferSender({ api: bulkApi, pacer, settings: deps.settings, translate, logger });
  const h2hPayouts = new H2hPayouts({ store, ledger, money, sales: h2hSales, lists, wallets, logger, offerPayout: (tx) => payouts.offer(tx) });
  // The bot's answers share the pacer with the bulk senders and go first (pacedFetch says why at this level).
  const botClient = overrides.paceAnswers === false ? client : { ...client, fetch: pacedFetch({ pacer, clock, fetch: client.fetch as never }) as never };
  const bot = createBot(config.botToken, deps, { observe: observers.bot, shared, ...overrides.bot, botInfo: await botInfo, client: botClient });
  await bot.init();

  let http: HttpServer | undefined;
  // The due instructions go out beside the start, not before polling and the watcher: in a Telegram
  // outage auto-retry retries them without end. A stop cuts them; what was not sent stays due.
  const stopResending = new AbortController();
  let resending: Promise<void> = Promise.resolve();
  const startRecovery = async () => {
    shopOrderJob.start();
    // Successes a stop left between their outcome and their wallet entries.
    await wallets.reconcile().then(
      (n) => void (n > 0 && logger.info({ count: n }, "posted wallet entries a restart had left unposted")),
      (err: unknown) => logger.warn({ err }, "could not settle the wallets' held records; retried at next start"),
    );
    resending = resendDueInstructions(bot.api, deps, stopResending.signal).then(
      (n) => void (n > 0 && logger.info({ count: n }, "sent deposit instructions a restart had left unsent")),
      (err: unknown) => logger.warn({ err }, "could not look for deposit instructions a restart left unsent"),
    );
  };
  const recover = async () => {
    await startRecovery();
    await resending;
  };
  let stopping: Promise<void> | undefined;
  let fail!: (err: Error) => void;
  const failed = new Promise<Error>((resolve) => (fail = resolve));

  const work = new LeaderWork({
    clock,
    logger,
    bot,
    // Polling's Api has no auto-retry: polling backs off itself (polling.ts).
    polling: config.webhookUrl ? undefined : { api: new Api(config.botToken, client), clock, logger, allowedUpdates: [...ALLOWED_UPDATES], onConflict: observers.health.pollingConflict, ...overrides.polling },
    recover: startRecovery, alerts, broadcaster, watcher, relink, dailySummary, priceDigest, h2hCallbacks,
    fence: shared.fence(),
    stopping: () => stopping !== undefined,
    // Say why, stop cleanly, report it.
    pollingFailed: async (error) => {
      logger.fatal({ err: error }, error.message);
      await app.stop().catch((e: unknown) => logger.error({ err: e }, "stop after a polling failure failed"));
      fail(error);
    },
  });
  const app: App = {
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
    dailySummary,
    priceDigest,
    observers,
    shared,
    h2hAccess,
    h2hCallbacks,
    http: () => http,
    recover,
    async start() {
      started = true;
      // Awaited just before updates are taken (with deleteWebhook): one round trip less at start-up.
      const commandsRegistered = registerCommands(bot.api, translate).catch((err) =>
        logger.warn({ err }, "could not register the command list; commands still work"),
      );
      const webhookUrl = config.webhookUrl;
      const callbackDeps = {
        store,
        clock,
        logger,
        hurry: hints.hurry,
        onCallback: (outcome: string) => observers.metrics.providerCallbacks.inc({ outcome }),
      };
      // The same on every process (Telegram sends one secret, to whichever process it reaches).
      const webhookSecret = webhookUrl ? await shared.webhookSecret() : undefined;
      const webhook = webhookUrl ? { path: new URL(webhookUrl).pathname, handler: webhookHandler(bot, webhookSecret!) } : undefined;
      if (config.http) {
        // Loaded only when HTTP_PORT is set: hono stays out of start-up time and memory otherwise.
        const { startHttpServer } = await import("./server/http.js");
        // The provider's callbacks: with PUBLIC_URL (the reseller pastes the URL), and in sandbox mode
        // (the built-in sandbox calls this server itself).
        const providerCallbacks = config.publicUrl !== undefined || sandbox !== undefined ? callbackDeps : undefined;
        const h2h = { access: h2hAccess, sales: h2hSales, deposits: h2hDeposits, payouts: h2hPayouts, store, network: deps.network, wallets, upstream, lists, clock, logger, trustProxy: config.trustProxy };
        http = await startHttpServer({ ...config.http, logger, ...observers, metrics: served!, ...(webhook && { webhook }), ...(providerCallbacks && { providerCallbacks }), h2h });
        logger.info({ url: http.url }, "HTTP server listening (/healthz, /metrics)");
        if (sandbox) connectSandboxCallbacks(sandbox, store, callbackDeps, http.url);
      } else if (sandbox) {
        connectSandboxCallbacks(sandbox, store, callbackDeps);
      }
      if (webhookUrl) {
        // Every process serves the webhook (behind a load balancer); only the background work follows the lead.
        await commandsRegistered;
        await bot.api.setWebhook(webhookUrl, { secret_token: webhookSecret!, allowed_updates: [...ALLOWED_UPDATES] });
        webhookActive = true;
        logger.info({ username: bot.botInfo.username, url: webhookUrl }, "bot receives updates by webhook");
      } else {
        // A webhook left from another deployment makes getUpdates fail with 409.
        await Promise.all([commandsRegistered, bot.api.deleteWebhook()]);
      }
      if (!leadership.isLeader()) await watcher.pause(); // users' own checks still run here
      // With one process the lead comes at once and start() resolves once the work runs.
      let leading: Promise<void> | undefined;
      leadership.run(
        () => (leading = work.lead()),
        (how) => work.lose(how),
      );
      await leading;
    },
    stop: () =>
      (stopping ??= (async () => {
        await leadership.stop();
        stopResending.abort();
        if (work.runner?.isRunning()) await work.runner.stop();
        // Webhook mode: stop accepting, then let handlers already running finish (Telegram resends the rest).
        webhookActive = false;
        await http?.close();
        // Shop orders start nothing more, and a purchase already on its way gets the same grace as a handler:
        // cut, its outcome would be unknown (the order waits half an hour for the provider's word).
        const grace = overrides.stopGraceMs ?? STOP_GRACE_MS;
        await Promise.all([observers.handlersIdle(grace), withinMs(shopOrderJob.stop(), grace)]);
        // A handler still waiting on the provider (a create answered late): its call is cut, so the stop ends
        // in time and the handler saves "outcome unknown" while the store is open (the watcher settles it).
        // From here no provider call goes out (the watcher's checks, a read's retry fail at once).
        await upstream.abortCalls();
        await observers.handlersIdle(1_000);
        await shopOrderJob.stop();
        await resending;
        await watcher.stop();
        await relink.stop();
        await dailySummary.stop();
        await priceDigest.stop();
        await h2hCallbacks.stop();
        await broadcaster.stop();
        await alerts.stop();
        await store.close();
        await shared.close();
        await upstream.close();
        await sandbox?.close();
        await unlockDataDir();
        logger.info("stopped cleanly");
      })()),
    failed,
  };
  return app;
}
