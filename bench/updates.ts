/**
 * Update handling: N updates through the full bot (a cached price page; /saldo against the
 * sandbox) beside a bare grammY bot answering the same updates through the same fake Bot API.
 * Updates are handled one after another (`bot.handleUpdate`), so latency is the bot's own work.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Bot, InlineKeyboard } from "grammy";
import type { Update } from "grammy/types";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config/env.js";
import { silentLogger } from "../src/logging/logger.js";
import { DEMO_KEY } from "../src/sandbox/index.js";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "../test/support/botInfo.js";
import { makeUser, type FakeUser } from "../test/support/chat.js";
import { FakeBotApi } from "../test/support/fakeBotApi.js";
import { FULL, ms, percentile, report, summarize } from "./lib.js";

const PAGES = FULL ? 20_000 : 6_000;
const BALANCES = FULL ? 1_000 : 300;
const USERS = 100;

interface Handler {
  handleUpdate(u: Update): Promise<void>;
}

async function drive(bot: Handler, updates: Update[]): Promise<{ rate: number; cpuRate: number; p50: number; p99: number; lat: number[] }> {
  const lat: number[] = [];
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (const u of updates) {
    const s = performance.now();
    await bot.handleUpdate(u);
    lat.push(performance.now() - s);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  const p = summarize(lat);
  return { rate: updates.length / seconds, cpuRate: updates.length / ((cpu.user + cpu.system) / 1e6), p50: p.p50, p99: p.p99, lat };
}

function commandUpdates(users: FakeUser[], text: string, n: number): Update[] {
  return Array.from({ length: n }, (_, i) => users[i % users.length]!.textUpdate(text));
}

const dir = await mkdtemp(join(tmpdir(), "ppob-bench-upd-"));
// The fake is non-strict and forgets calls, so its own bookkeeping does not grow over the run.
const fake = new FakeBotApi({ strict: false });
// The production app (built-in sandbox as the provider), not started: updates are fed directly.
const app = await buildApp(
  loadConfig({ BOT_TOKEN: FAKE_BOT_TOKEN, UPSTREAM_BASE_URL: "sandbox", DATA_DIR: dir, STORE_SECRET: "bench-secret-0123456789" }),
  silentLogger,
  // Answers unpaced: this measures the handlers' own cost. In production every answer also waits for
  // the shared 29/s pacer (Telegram's flood limit), which caps sends, not update handling.
  { bot: { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch as never }, rateLimit: false }, paceAnswers: false },
);
const { bot, store } = app;
const users = Array.from({ length: USERS }, (_, i) => makeUser(bot, fake, { id: 500_000 + i, languageCode: i % 2 ? "en" : "id" }));
for (const u of users) await store.setApiKey(u.chatId, DEMO_KEY);

// The bare bot: same replies (a keyboard page, a balance line), no plugins, no store, no upstream.
const bare = new Bot(FAKE_BOT_TOKEN, { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch as never } });
const page = new InlineKeyboard();
for (const c of ["Pulsa", "Data", "PLN", "Games", "E-Money"]) page.text(c, `pr:h:g:${c}:0`).row();
bare.command(["harga", "saldo"], (ctx) => ctx.reply("📋 Harga", { reply_markup: page }));

const clearFake = setInterval(() => fake.clear(), 1000);
// Warm both equally to a steady state: alternate rounds (bare, ours) until neither rate moves by more
// than 5% from its previous round (JIT tiers settle; the price list is cached by the first round).
const WARM_ROUND = 1_000;
const warmRates: { bare: number[]; bot: number[] } = { bare: [], bot: [] };
const steady = (r: number[]) => r.length >= 3 && Math.abs(r[r.length - 1]! / r[r.length - 2]! - 1) < 0.05;
for (let round = 0; round < 30 && !(steady(warmRates.bare) && steady(warmRates.bot)); round++) {
  warmRates.bare.push((await drive(bare, commandUpdates(users, "/harga", WARM_ROUND))).rate);
  warmRates.bot.push((await drive(bot, commandUpdates(users, "/harga", WARM_ROUND))).rate);
}

// Interleaved blocks: bare then ours, ours then bare, ... so a machine that speeds up or slows down
// during the run weighs on both alike. Each pair gives one ratio.
const BLOCKS = FULL ? 10 : 6;
const BLOCK = PAGES / BLOCKS;
const ratios: number[] = [];
const cpuRatios: number[] = [];
const botLat: number[] = [];
const bareLat: number[] = [];
let botRateSum = 0;
let bareRateSum = 0;
for (let b = 0; b < BLOCKS; b++) {
  const order = b % 2 === 0 ? (["bare", "bot"] as const) : (["bot", "bare"] as const);
  const got: Record<"bare" | "bot", Awaited<ReturnType<typeof drive>>> = {} as never;
  for (const who of order) got[who] = await drive(who === "bare" ? bare : bot, commandUpdates(users, "/harga", BLOCK));
  ratios.push(got.bot.rate / got.bare.rate);
  cpuRatios.push(got.bot.cpuRate / got.bare.cpuRate);
  botLat.push(...got.bot.lat);
  bareLat.push(...got.bare.lat);
  botRateSum += got.bot.rate;
  bareRateSum += got.bare.rate;
}
const bareSaldo = await drive(bare, commandUpdates(users, "/saldo", BALANCES));
const botSaldo = await drive(bot, commandUpdates(users, "/saldo", BALANCES));
clearInterval(clearFake);

const sortedRatios = [...ratios].sort((a, b) => a - b);
const median = percentile(sortedRatios, 50);
const sortedCpu = [...cpuRatios].sort((a, b) => a - b);
const spread = (r: number[]) => `${percentile(r, 50).toFixed(2)} (${r[0]!.toFixed(2)}–${r[r.length - 1]!.toFixed(2)})`;
const botP = summarize(botLat);
const bareP = summarize(bareLat);
report({
  name: "Update handling",
  setup: `${PAGES.toLocaleString("en")} cached price-page updates each in ${BLOCKS} interleaved blocks (bare grammY, ours, then ours, bare, ...) after both were warmed alike to a steady rate (${warmRates.bot.length} rounds of ${WARM_ROUND.toLocaleString("en")}), and ${BALANCES.toLocaleString("en")} /saldo updates (sandbox over HTTP), from ${USERS} users, one at a time, fake Bot API in-process`,
  rows: [
    {
      metric: "price page: bot / bare grammY rate, median (min–max) over the blocks",
      value: `${spread(sortedRatios)}; mean rates ${Math.round(botRateSum / BLOCKS)} / ${Math.round(bareRateSum / BLOCKS)} updates/s`,
      target: "≥ 0.6",
      ok: median >= 0.6,
    },
    {
      metric: "price page: the same ratio by CPU time (updates per CPU-second of the process), median (min–max)",
      value: spread(sortedCpu),
    },
    { metric: "price page latency p50 / p99: bot", value: `${ms(botP.p50)} / ${ms(botP.p99)}` },
    { metric: "price page latency p50 / p99: bare grammY", value: `${ms(bareP.p50)} / ${ms(bareP.p99)}` },
    { metric: "warm-up rates, last round: bot / bare", value: `${Math.round(warmRates.bot.at(-1)!)} / ${Math.round(warmRates.bare.at(-1)!)} updates/s` },
    { metric: "/saldo (provider call): bot rate / bare rate", value: `${(botSaldo.rate / bareSaldo.rate).toFixed(2)} (${Math.round(botSaldo.rate)} / ${Math.round(bareSaldo.rate)} updates/s)` },
    { metric: "/saldo latency p50 / p99: bot", value: `${ms(botSaldo.p50)} / ${ms(botSaldo.p99)}` },
  ],
  notes: [
    "The bare bot answers /saldo with a static reply: the difference is the provider round trip over HTTP.",
    `Ratios per block (wall / CPU): ${ratios.map((r, i) => `${r.toFixed(2)} / ${cpuRatios[i]!.toFixed(2)}`).join(", ")}. The CPU-time ratio counts only the process's own CPU, so other work on a shared machine moves it less than the wall-time one; a load average of ${loadavg()[0]!.toFixed(1)} at the end of this run.`,
  ],
});
await app.stop();
await rm(dir, { recursive: true, force: true });
