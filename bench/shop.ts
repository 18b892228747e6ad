/**
 * Shop: one reseller's shop, 1,000 customers ordering a PLN token at once, all paying at once, through
 * the production app (buildApp, system clock, BULK_PACE, its HTTP server with the provider-callback route).
 *
 * Two processes, like production (as bench/watcher.ts): this one is the bot; a child (this file with
 * --world) is the outside world: the sandbox provider (its HTTP API, its settle timers, its signed
 * callbacks POSTed to the bot's POST /provider/<token>) and the fake Bot API answering 429 past 30
 * messages in any second, both over HTTP on 127.0.0.1. So the bot's CPU and event-loop figures are its own.
 *
 * Measured per order from the moment its QRIS is paid (the world's clock = the machine's): until the
 * order is done with its token saved (the bot's own speed: callbacks, status checks, the purchase, its
 * outcome; not paced by Telegram), and until the customer's receipt reached the fake Telegram (paced
 * with every other message at 29/s). Checked: every order done, exactly one purchase per order,
 * exactly one receipt per customer.
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "node:inspector/promises";
import { writeFile } from "node:fs/promises";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { buildApp } from "../src/app.js";
import type { BotContext } from "../src/bot/context.js";
import { startPayment } from "../src/bot/features/shopPay.js";
import { loadConfig } from "../src/config/env.js";
import { silentLogger } from "../src/logging/logger.js";
import { createSandbox, DEMO_KEY } from "../src/sandbox/index.js";
import { systemClock } from "../src/tools/clock.js";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "../test/support/botInfo.js";
import { FakeBotApi } from "../test/support/fakeBotApi.js";
import { FULL, report, summarize, type BenchRow } from "./lib.js";

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const CUSTOMERS = Number(arg("--customers") ?? (FULL ? 1000 : 200));
/** The watcher's status calls per second per api key (WATCH_CALLS_PER_KEY): one shop is one key. */
const CAP = arg("--cap") ?? "50";
const OWNER = 500_000;
const OWNER_CALLBACK_TOKEN = "benchshopowner0123456789abcdef";
/** How long the sandbox's provider takes to settle a purchase. */
const SETTLE_MS = 1000;
const RECEIPT_CAPTION = "Pesanan Anda berhasil";
/** `--trace`: the orders' states every 2 s of the payment window, on stderr. */
const TRACE = process.argv.includes("--trace");
/** `--cpu-prof <file>`: a CPU profile of the bot's main thread over the payment window (payments -> all done). */
const CPU_PROF = arg("--cpu-prof");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- messages between the bot process and the world process ---------------------------------------

type ToWorld =
  | { type: "callbacks"; url: string }
  | { type: "pay"; deposits: { order: string; upstreamId: string }[] }
  | { type: "progress" }
  | { type: "report" }
  | { type: "close" };

type FromWorld =
  | { type: "ready"; sandboxUrl: string; apiRoot: string; username: string }
  | { type: "callbacksSet" }
  | { type: "paid"; paidAt: Record<string, number> }
  | { type: "progress"; receipts: number }
  | {
      type: "report";
      /** Purchases created per reference id. */
      creates: Record<string, number>;
      receiptAt: Record<number, number>;
      receipts: Record<number, number>;
      messages: number;
      rateLimited: number;
      callbacksSent: number;
      callbacksNot200: number;
      /** The provider's endpoints called by the bot from the payments until every order was done. */
      callsAfterPay: Record<string, number>;
      cpuPct: number;
    };

// ---- the world: sandbox provider + fake Bot API -----------------------------------------------------

async function world(): Promise<void> {
  const send = (m: FromWorld) => process.send!(m);
  const sandbox = await createSandbox({ clock: systemClock, settleMs: SETTLE_MS, autoPayDepositsAfterMs: null });
  sandbox.setBalance(DEMO_KEY, 100_000_000);
  const fake = new FakeBotApi({ strict: false });
  fake.limitRate({ perSecond: 30 });
  const receiptAt = new Map<number, number>();
  const receipts = new Map<number, number>();
  let messages = 0;
  let rateLimited = 0;
  // Counted from the answered calls (a receipt answered 429 is sent again, and counts once), the
  // answered ones then dropped from the log: 1,000 receipt PNGs would otherwise stay in memory.
  const countAnswered = () => {
    const waiting = fake.calls.filter((c) => c.response === undefined);
    for (const c of fake.calls) {
      if (c.response?.ok === true && /^send/.test(c.method)) {
        messages++;
        if (c.method === "sendPhoto" && String(c.payload.caption ?? "").includes(RECEIPT_CAPTION)) {
          const chat = Number(c.payload.chat_id);
          receipts.set(chat, (receipts.get(chat) ?? 0) + 1);
          if (!receiptAt.has(chat)) receiptAt.set(chat, c.at);
        }
      } else if (c.response?.ok === false && c.response.error_code === 429) rateLimited++;
    }
    fake.clear();
    fake.calls.push(...waiting);
  };
  const count = setInterval(countAnswered, 100);
  const server = await fake.startServer();
  const cpu0 = process.cpuUsage();
  const startedAt = Date.now();
  let callsAtPay = 0;
  let callsAfterPay: Record<string, number> | undefined;
  send({ type: "ready", sandboxUrl: sandbox.url, apiRoot: server.apiRoot, username: sandbox.username(DEMO_KEY) });

  process.on("message", (m: ToWorld) => {
    void (async () => {
      switch (m.type) {
        case "callbacks":
          // The provider dashboard's setting: the key's callbacks go to the owner's URL at the bot.
          sandbox.setCallbackTarget(() => [`${m.url}/provider/${OWNER_CALLBACK_TOKEN}`]);
          send({ type: "callbacksSet" });
          break;
        case "pay": {
          const paidAt: Record<string, number> = {};
          callsAtPay = sandbox.calls().length;
          for (const d of m.deposits) {
            paidAt[d.order] = Date.now();
            sandbox.payDeposit(d.upstreamId);
          }
          send({ type: "paid", paidAt });
          break;
        }
        case "progress":
          // Asked first once every order is done: the calls of the payment window.
          if (!callsAfterPay) {
            callsAfterPay = {};
            for (const c of sandbox.calls().slice(callsAtPay)) callsAfterPay[c.path] = (callsAfterPay[c.path] ?? 0) + 1;
          }
          countAnswered();
          send({ type: "progress", receipts: receiptAt.size });
          break;
        case "report": {
          const creates: Record<string, number> = {};
          for (const c of sandbox.calls("/transaksi/create")) {
            const ref = c.body.ref_id ?? c.body.reff_id ?? "";
            creates[ref] = (creates[ref] ?? 0) + 1;
          }
          const sent = sandbox.callbacksSent();
          const cpu = process.cpuUsage(cpu0);
          countAnswered();
          send({
            type: "report",
            creates,
            receiptAt: Object.fromEntries(receiptAt),
            receipts: Object.fromEntries(receipts),
            messages,
            rateLimited,
            callbacksSent: sent.length,
            callbacksNot200: sent.filter((c) => c.answer !== 200).length,
            callsAfterPay: callsAfterPay ?? {},
            cpuPct: (cpu.user + cpu.system) / 10 / (Date.now() - startedAt),
          });
          break;
        }
        case "close":
          clearInterval(count);
          await server.close();
          await sandbox.close();
          process.exit(0);
      }
    })();
  });
}

// ---- the bot ---------------------------------------------------------------------------------------

class WorldLink {
  private readonly waiting = new Map<string, (m: FromWorld) => void>();

  constructor(readonly child: ChildProcess) {
    child.on("message", (m: FromWorld) => {
      const w = this.waiting.get(m.type);
      this.waiting.delete(m.type);
      w?.(m);
    });
  }

  next<T extends FromWorld["type"]>(type: T): Promise<Extract<FromWorld, { type: T }>> {
    return new Promise((resolve) => this.waiting.set(type, resolve as (m: FromWorld) => void));
  }

  async ask<T extends FromWorld["type"]>(msg: ToWorld, reply: T): Promise<Extract<FromWorld, { type: T }>> {
    const p = this.next(reply);
    this.child.send(msg);
    return p;
  }
}

async function bot(): Promise<void> {
  const loadAtStart = loadavg()[0]!;
  const child = fork(import.meta.filename, ["--world"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const link = new WorldLink(child);
  const ready = await link.next("ready");
  const dir = await mkdtemp(join(tmpdir(), "ppob-bench-shop-"));
  // As a production deployment: the provider at its URL, Telegram at its API root, callbacks to
  // PUBLIC_URL/provider/<token> on the bot's HTTP server (PUBLIC_URL turns the route on).
  const app = await buildApp(
    loadConfig({
      BOT_TOKEN: FAKE_BOT_TOKEN,
      UPSTREAM_BASE_URL: ready.sandboxUrl,
      TELEGRAM_API_ROOT: ready.apiRoot,
      HTTP_PORT: "0",
      PUBLIC_URL: "http://127.0.0.1",
      DATA_DIR: dir,
      STORE_SECRET: "bench-secret-0123456789",
      WATCH_CALLS_PER_KEY: CAP,
    }),
    silentLogger,
    { bot: { botInfo: FAKE_BOT_INFO, rateLimit: false } },
  );
  // systemClock's timers are unref'd (they never hold a bot process open): keep this one alive.
  const keepAlive = setInterval(() => undefined, 1000);
  await app.store.setApiKey(OWNER, DEMO_KEY);
  await app.store.updateChat(OWNER, { lang: "id", providerUsername: ready.username, callbackToken: OWNER_CALLBACK_TOKEN });
  // The shop lets 1,000 unpaid QRIS be open in a day (its cap's highest setting).
  (app.deps as { shop?: unknown }).shop = { get: () => Promise.resolve({ dailyUnpaidCap: 1000 }) };
  const customers = Array.from({ length: CUSTOMERS }, (_, i) => 800_000 + i);
  for (const c of customers) await app.store.updateChat(c, { lang: "id", customerOf: { owner: OWNER, code: "BENCHSHOP001" } });
  await app.store.flush();
  await app.start();
  await link.ask({ type: "callbacks", url: app.http()!.url }, "callbacksSet");

  const ctxOf = (chatId: number) =>
    ({
      deps: app.deps,
      lang: "id",
      chat: { id: chatId, type: "private" },
      reply: (text: string, other?: object) => app.bot.api.sendMessage(chatId, text, other),
      replyWithPhoto: (photo: never, other?: object) => app.bot.api.sendPhoto(chatId, photo, other),
    }) as unknown as BotContext;

  // 1. Everyone orders at once and gets a QR.
  const t0 = performance.now();
  await Promise.all(
    customers.map((c, i) =>
      startPayment(ctxOf(c), {
        owner: OWNER,
        customer: c,
        customerName: `Pelanggan ${i}`,
        productCode: "PLN20",
        productName: "PLN 20.000",
        target: `9${String(i).padStart(6, "0")}1234`, // never the sandbox's failing "…0000"
        price: 21_000,
        cost: 20_113,
        fee: 147,
        feePayer: "customer",
        lang: "id",
      }),
    ),
  );
  const orderSeconds = (performance.now() - t0) / 1000;
  // A create whose answer was late (a loaded machine) left its deposit "unknown": the watcher finds it by
  // our reference and the order goes on, or closes it when the status has no QR to show (docs/shop-orders.md).
  // Only an order awaiting payment with its deposit's provider id known can be paid.
  const upstreamIdOf = async (o: { value: { depositRef: string } }) => (await app.store.getTx(o.value.depositRef))?.upstreamId;
  const unknownAtFirst = (await Promise.all((await app.deps.shopOrders.listByOwner(OWNER)).map(upstreamIdOf))).filter((id) => id === undefined).length;
  for (const until = Date.now() + 120_000; Date.now() < until; await sleep(500)) {
    const now = await app.deps.shopOrders.listByOwner(OWNER);
    const ids = await Promise.all(now.map(upstreamIdOf));
    if (now.every((o, i) => ids[i] !== undefined || o.state !== "draft")) break;
  }
  const all = await app.deps.shopOrders.listByOwner(OWNER);
  const payable = await Promise.all(all.map(upstreamIdOf));
  const orders = all.filter((o, i) => payable[i] !== undefined && o.state === "awaiting_payment");

  // 2. Everyone pays at once (at the provider, in the world process); the bot is watched from here.
  const deposits: { order: string; upstreamId: string }[] = orders.map((o) => ({ order: o.id, upstreamId: payable[all.indexOf(o)]! }));
  const profiler = CPU_PROF ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.setSamplingInterval", { interval: 500 });
    await profiler.post("Profiler.start");
  }
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const payStart = Date.now();
  const { paidAt } = await link.ask({ type: "pay", deposits }, "paid");

  // 3. Until every order is done and every receipt is out (bounded).
  const doneAt = new Map<string, number>();
  let cpu: NodeJS.CpuUsage | undefined;
  let windowMs = 0;
  const deadline = Date.now() + (FULL ? 600_000 : 240_000);
  let tracedAt = 0;
  while (Date.now() < deadline) {
    for (const d of await app.deps.shopOrders.listByOwner(OWNER, ["done"])) if (!doneAt.has(d.id)) doneAt.set(d.id, Date.now());
    if (TRACE && Date.now() - tracedAt >= 2000) {
      // Where the orders are: their states every 2 s (stderr, --trace only).
      tracedAt = Date.now();
      const states: Record<string, number> = {};
      for (const d of await app.deps.shopOrders.listByOwner(OWNER)) states[d.state] = (states[d.state] ?? 0) + 1;
      console.error(`+${((tracedAt - payStart) / 1000).toFixed(1)} s`, JSON.stringify(states));
    }
    if (doneAt.size === orders.length) {
      // The bot's share of the work, from the payments until every order was done.
      if (!cpu) {
        cpu = process.cpuUsage(cpu0);
        windowMs = Math.max(1, Date.now() - payStart);
        loop.disable();
        if (profiler) {
          const { profile } = await profiler.post("Profiler.stop");
          await writeFile(CPU_PROF!, JSON.stringify(profile));
          profiler.disconnect();
        }
      }
      if ((await link.ask({ type: "progress" }, "progress")).receipts === orders.length) break;
    }
    await sleep(50);
  }
  if (!cpu) {
    cpu = process.cpuUsage(cpu0);
    windowMs = Math.max(1, Date.now() - payStart);
    loop.disable();
  }
  // The bot's CPU until every receipt was out too (what the window above leaves for later, e.g. paced sends).
  const cpuAll = process.cpuUsage(cpu0);
  await sleep(2000); // anything repeated late would show now
  const w = await link.ask({ type: "report" }, "report");
  const purchasesPerOrder = orders.map((o) => Object.entries(w.creates).filter(([ref]) => ref.slice(2, 16) === o.id.slice(2)).reduce((n, [, k]) => n + k, 0));
  const notDone = orders.length - doneAt.size;
  if (notDone > 0) {
    const stuck = (await app.deps.shopOrders.listByOwner(OWNER)).filter((d) => !doneAt.has(d.id));
    for (const d of stuck.slice(0, 5)) console.error("not done:", d.id, d.state, JSON.stringify(d.value.notices), (await app.store.getTx(d.value.depositRef))?.status);
  }
  const notOnce = purchasesPerOrder.filter((n) => n !== 1).length;
  if (notOnce > 0) console.error("not bought exactly once:", orders.filter((_, i) => purchasesPerOrder[i] !== 1).slice(0, 5).map((o, i) => `${o.id} x${purchasesPerOrder[i]}`).join(", "));
  const receiptsNotOnce = orders.filter((o) => w.receipts[o.value.customer] !== 1).length;
  const toDone = summarize(orders.filter((o) => doneAt.has(o.id)).map((o) => doneAt.get(o.id)! - paidAt[o.id]!));
  const toReceipt = summarize(orders.filter((o) => w.receiptAt[o.value.customer] !== undefined).map((o) => w.receiptAt[o.value.customer]! - paidAt[o.id]!));
  // How often the store rewrote the orders' file (each move is flushed before its provider call).
  const storeStats = app.store.stats() as { writes?: number; writesByFile?: Record<string, number> };
  const orderFileWrites = storeStats.writesByFile?.["docs/shop_order.json"];
  clearInterval(keepAlive);
  await app.stop();
  child.send({ type: "close" } satisfies ToWorld);
  await rm(dir, { recursive: true, force: true });

  const s = (v: number) => `${(v / 1000).toFixed(2)} s`;
  const rows: BenchRow[] = [
    { metric: "QRIS creates answered late (deposit unknown at first) / orders not payable (closed: no QR)", value: `${unknownAtFirst} / ${all.length - orders.length}` },
    { metric: `orders (of ${orders.length} paid) not done`, value: String(notDone), target: "0", ok: notDone === 0 },
    { metric: "orders not bought exactly once", value: String(notOnce), target: "0", ok: notOnce === 0 },
    { metric: "customers without exactly one receipt", value: String(receiptsNotOnce), target: "0", ok: receiptsNotOnce === 0 },
    { metric: "payment -> token saved (order done) p50 / p95", value: `${s(toDone.p50)} / ${s(toDone.p95)}`, target: "p95 ≤ 3 s", ok: toDone.p95 <= 3000 },
    { metric: "payment -> receipt at Telegram p50 / p95 (paced, 29/s shared)", value: `${s(toReceipt.p50)} / ${s(toReceipt.p95)}` },
    { metric: "all orders placed, QR sent", value: `${orderSeconds.toFixed(1)} s` },
    { metric: "messages sent / 429 answers", value: `${w.messages} / ${w.rateLimited}` },
    { metric: "provider callbacks POSTed to the bot / not answered 200", value: `${w.callbacksSent} / ${w.callbacksNot200}` },
    {
      metric: "bot process CPU (% of one core) / longest event-loop stall, from the payments until every order was done",
      value: `${(((cpu.user + cpu.system) / 1000 / windowMs) * 100).toFixed(0)}% / ${(loop.max / 1e6).toFixed(0)} ms (over ${s(windowMs)})`,
    },
    {
      metric: "bot process CPU per paid order: payments -> all done / -> all receipts at Telegram",
      value: `${((cpu.user + cpu.system) / 1000 / Math.max(1, orders.length)).toFixed(2)} ms / ${((cpuAll.user + cpuAll.system) / 1000 / Math.max(1, orders.length)).toFixed(2)} ms`,
    },
    {
      metric: "provider calls by the bot from the payments until every order was done, per paid order",
      value: Object.entries(w.callsAfterPay).map(([path, n]) => `${path} ${(n / Math.max(1, orders.length)).toFixed(2)}`).join(", "),
    },
    { metric: "world process CPU (sandbox provider + fake Telegram), whole run", value: `${w.cpuPct.toFixed(0)}%` },
    { metric: "store file writes: the orders' file / all files", value: `${orderFileWrites ?? "-"} / ${storeStats.writes ?? "-"}` },
    // The machine is shared: the same run gives other figures under other load.
    { metric: "load average (1 min) at start / end", value: `${loadAtStart.toFixed(1)} / ${loadavg()[0]!.toFixed(1)}` },
  ];

  report({
    name: "Shop",
    setup:
      `Production app (buildApp, system clock, BULK_PACE, its HTTP server) in this process; in a second process, as in production, the sandbox provider ` +
      `(its HTTP API, settle timers, signed callbacks POSTed to the bot's POST /provider/<token>) and a fake Bot API answering 429 past 30 messages in any second, both over HTTP on 127.0.0.1; ` +
      `one shop, ${CUSTOMERS} customers order a PLN 20.000 token at once (startPayment), then all pay at once (the provider's payDeposit); the provider settles a purchase ${SETTLE_MS} ms after its create`,
    rows,
    notes: [
      "Token saved: from the payment to the order's `done` state (the deposit's signed callback over HTTP -> its status, checked at once -> paid -> the purchase with limit_price -> its signed callback -> its status -> done), read every 50 ms. This is the goal's figure, unpaced by Telegram: the receipt is rendered and handed to the sender after it.",
      "Receipt at Telegram: when the receipt photo reached the fake. Each order sends a receipt and an owner's notice, and the QRs of all orders went out before: all share the one 29/s pacer, so this grows with the shop's size (Telegram's limit, not the bot's speed).",
    ],
  });
}

if (process.argv.includes("--world")) await world();
else await bot();
