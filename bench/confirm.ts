/**
 * Confirm to create: from the Confirm press (the callback update reaching the bot) to the provider
 * receiving the create call, on the file store and on PgStore. On that path the confirm engine
 * (src/bot/money/confirm.ts) reads the draft and the key, moves draft -> sending with a
 * compare-and-set and awaits flush() before the call, so the store's durable write is in every one.
 *
 * The production app (buildApp, built-in sandbox as the provider, system clock), fed updates
 * directly like bench/updates.ts through the in-process fake Bot API. Each purchase goes
 * /harga tsel 10 -> product -> Beli -> a new target -> confirm screen, then the press is timed. The
 * provider's side is timed where its HTTP server receives the request (the 'request' event of the
 * sandbox's server, before it reads the body). Runs: presses one after another, then batches of
 * presses at the same moment from different chats.
 */
import { Server } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config/env.js";
import { silentLogger } from "../src/logging/logger.js";
import { ENDPOINTS } from "../src/upstream/endpoints.js";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "../test/support/botInfo.js";
import { makeUser, type FakeUser } from "../test/support/chat.js";
import { FakeBotApi } from "../test/support/fakeBotApi.js";
import { FULL, ms, report, summarize, type BenchRow } from "./lib.js";
import { NO_PG_NOTE, openBenchPg } from "./pg.js";

const SEQUENTIAL = FULL ? 1_000 : 200;
const BATCH = 10;
const BATCHES = FULL ? 50 : 15;
const WARMUP = 20;
const USERS = 20;
const SECRET = "bench-secret-0123456789";
const CONFIRM = /^✅ Konfirmasi/;

// When the provider's server received each create call (this process hosts the built-in sandbox).
let arrivals: number[] = [];
/** Store calls made from the press until the create call arrived (one press at a time only). */
let counting: Map<string, number> | undefined;
const emit = Server.prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
  if (event === "request" && (args[0] as { url?: string }).url?.startsWith(ENDPOINTS.createTransaction)) {
    arrivals.push(performance.now());
    counting = undefined;
  }
  return emit.call(this, event, ...args);
} as typeof Server.prototype.emit;

let targetSeq = 0;

/** Draft + confirm screen for one purchase (not timed). */
async function toConfirmScreen(u: FakeUser): Promise<void> {
  await u.sendCommand("harga", "tsel 10");
  await u.pressButton(/^Telkomsel 10\.000 ·/);
  await u.pressButton("🛒 Beli");
  // A new target each time: the same one would be asked about as a repeat purchase first.
  await u.sendText(`0812${(20_000_000 + targetSeq++).toString()}`);
  if (!u.findButton(CONFIRM)) throw new Error(`no confirm screen: ${u.lastReply() ?? "(no reply)"}`);
}

/** The Store calls a confirm can make; PgStore's getApiKey counts its own getChat too (its query). */
const STORE_CALLS = ["getChat", "updateChat", "getApiKey", "getTx", "updateTx", "transitionTx", "flush", "listTxByChat", "findTx", "findHotTx", "getMeta", "setMeta"] as const;

/** Counts calls to the app's store (the one object every part holds) while `counting` is set. */
function countStoreCalls(store: object): Map<string, number> {
  const total = new Map<string, number>();
  const target = store as Record<string, (...a: unknown[]) => unknown>;
  for (const name of STORE_CALLS) {
    const fn = target[name]!.bind(store);
    target[name] = (...a: unknown[]) => {
      if (counting) {
        counting.set(name, (counting.get(name) ?? 0) + 1);
        total.set(name, (total.get(name) ?? 0) + 1);
      }
      return fn(...a);
    };
  }
  return total;
}

interface Figures {
  storeCalls: Map<string, number>;
  sequential: number[];
  concurrent: number[];
  creates: number;
  presses: number;
}

async function measure(storeUrl: string | undefined): Promise<Figures> {
  const dir = await mkdtemp(join(tmpdir(), "ppob-bench-confirm-"));
  const fake = new FakeBotApi({ strict: false });
  const keys = Array.from({ length: USERS }, (_, i) => ({ key: `BENCH-CONFIRM-KEY-${i}`, balance: 1_000_000_000 }));
  const app = await buildApp(
    loadConfig({ BOT_TOKEN: FAKE_BOT_TOKEN, UPSTREAM_BASE_URL: "sandbox", DATA_DIR: dir, STORE_SECRET: SECRET, ...(storeUrl ? { STORE_URL: storeUrl } : {}) }),
    silentLogger,
    // Answers unpaced: the answer and the "sending" edit before the create call would otherwise wait
    // for the shared 29/s pacer (Telegram's budget), which is not what this compares.
    { bot: { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch as never }, rateLimit: false }, paceAnswers: false, sandbox: { keys, settleMs: 3_600_000 } },
  );
  const clearFake = setInterval(() => fake.clear(), 1000);
  try {
    const users = keys.map((k, i) => makeUser(app.bot, fake, { id: 900_000 + i }));
    for (const [i, u] of users.entries()) await app.store.setApiKey(u.chatId, keys[i]!.key);
    await app.store.flush();
    const total = countStoreCalls(app.store);
    let measuring = false;
    const pressOne = async (u: FakeUser): Promise<number> => {
      await toConfirmScreen(u);
      const before = arrivals.length;
      if (measuring) counting = new Map();
      const t0 = performance.now();
      await u.pressButton(CONFIRM);
      if (arrivals.length !== before + 1) throw new Error(`expected one create call, got ${arrivals.length - before}`);
      return arrivals[before]! - t0;
    };
    for (let i = 0; i < WARMUP; i++) await pressOne(users[i % USERS]!);
    arrivals = [];
    const created0 = app.sandbox!.calls(ENDPOINTS.createTransaction).length;

    const sequential: number[] = [];
    measuring = true;
    for (let i = 0; i < SEQUENTIAL; i++) sequential.push(await pressOne(users[i % USERS]!));

    // BATCH chats have their confirm screens ready and press at the same moment.
    const concurrent: number[] = [];
    measuring = false;
    for (let b = 0; b < BATCHES; b++) {
      const batch = users.slice(0, BATCH);
      for (const u of batch) await toConfirmScreen(u);
      const before = arrivals.length;
      const t0 = performance.now();
      await Promise.all(batch.map((u) => u.pressButton(CONFIRM)));
      const got = arrivals.slice(before);
      if (got.length !== BATCH) throw new Error(`expected ${BATCH} create calls, got ${got.length}`);
      concurrent.push(...got.map((t) => t - t0));
    }
    const creates = app.sandbox!.calls(ENDPOINTS.createTransaction).length - created0;
    return { storeCalls: total, sequential, concurrent, creates, presses: SEQUENTIAL + BATCH * BATCHES };
  } finally {
    clearInterval(clearFake);
    await app.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function rows(label: string, f: Figures): BenchRow[] {
  const s = summarize(f.sequential);
  const c = summarize(f.concurrent);
  return [
    { metric: `${label}: confirm → create, one press at a time, p50 / p99`, value: `${ms(s.p50)} / ${ms(s.p99)} (${f.sequential.length} presses)` },
    { metric: `${label}: confirm → create, ${BATCH} chats pressing at once, p50 / p99`, value: `${ms(c.p50)} / ${ms(c.p99)} (${BATCHES} batches)` },
    {
      metric: `${label}: store calls from press to create (per press, one at a time)`,
      value: [...f.storeCalls].map(([name, n]) => `${name} ${(n / f.sequential.length).toFixed(1)}`).join(", "),
    },
    { metric: `${label}: create calls per press`, value: (f.creates / f.presses).toFixed(2), target: "1.00", ok: f.creates === f.presses },
  ];
}

const files = await measure(undefined);
const pg = await openBenchPg();
let pgRows: BenchRow[] = [];
try {
  if (pg) pgRows = rows("PostgreSQL (PgStore)", await measure(await pg.database()));
} finally {
  await pg?.stop();
}
report({
  name: "Confirm to create",
  setup:
    `Production app (buildApp, built-in sandbox, system clock) fed updates directly, fake Bot API in-process; ${USERS} linked chats buying Telkomsel 10.000 (/harga tsel 10 → Beli → target → confirm); ` +
    `${SEQUENTIAL.toLocaleString("en")} presses one at a time, then ${BATCHES} batches of ${BATCH} chats pressing at once, after ${WARMUP} warm-up purchases; file store in a temporary folder` +
    (pg ? `; ${pg.label}` : ""),
  rows: [...rows("file store (lowdb)", files), ...pgRows],
  notes: [
    "Measured from the press (the callback update handed to the bot) to the provider's HTTP server receiving the create request. On that path: the draft and the api key are read, draft → sending is a compare-and-set, the store flushes (file store: the shard written and renamed; PgStore: the UPDATE committed, fsync'd), the press is answered and the confirm screen edited (fake Bot API in-process, answers not paced), then the create request goes out.",
    "In production the answer and the edit before the create call also take slots of the shared 29/s SendPacer; here they do not, so the figures are the bot's and the store's own work.",
    ...(pg ? [] : [NO_PG_NOTE]),
  ],
});
