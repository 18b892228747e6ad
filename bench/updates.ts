/**
 * Update handling: N updates through the full bot (a cached price page; /saldo against the sandbox)
 * through a fake Bot API. Updates are handled one after another (`bot.handleUpdate`), so latency is
 * the bot's own work. The bound is absolute: CPU per price-page update (a user cannot feel a
 * fraction of a millisecond, and Telegram's 30 messages/s bound the bot long before its CPU does).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
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

async function drive(bot: Handler, updates: Update[]): Promise<{ rate: number; cpuMs: number; p50: number; p99: number; lat: number[] }> {
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
  return { rate: updates.length / seconds, cpuMs: (cpu.user + cpu.system) / 1000 / updates.length, p50: p.p50, p99: p.p99, lat };
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

const clearFake = setInterval(() => fake.clear(), 1000);
// Warm to a steady state: rounds until the rate moves by less than 5% (JIT tiers settle; the price
// list is cached by the first round).
const WARM_ROUND = 1_000;
const warmRates: number[] = [];
const steady = (r: number[]) => r.length >= 3 && Math.abs(r[r.length - 1]! / r[r.length - 2]! - 1) < 0.05;
for (let round = 0; round < 30 && !steady(warmRates); round++) warmRates.push((await drive(bot, commandUpdates(users, "/harga", WARM_ROUND))).rate);

// Blocks, so one slow stretch of a shared machine shows as one block, not as the figure.
const BLOCKS = FULL ? 10 : 6;
const BLOCK = PAGES / BLOCKS;
const cpuMs: number[] = [];
const lat: number[] = [];
let rateSum = 0;
for (let b = 0; b < BLOCKS; b++) {
  const got = await drive(bot, commandUpdates(users, "/harga", BLOCK));
  cpuMs.push(got.cpuMs);
  lat.push(...got.lat);
  rateSum += got.rate;
}
const saldo = await drive(bot, commandUpdates(users, "/saldo", BALANCES));
clearInterval(clearFake);

const sorted = [...cpuMs].sort((a, b) => a - b);
const median = percentile(sorted, 50);
const p = summarize(lat);
report({
  name: "Update handling",
  setup: `${PAGES.toLocaleString("en")} cached price-page updates in ${BLOCKS} blocks after warming to a steady rate (${warmRates.length} rounds of ${WARM_ROUND.toLocaleString("en")}), and ${BALANCES.toLocaleString("en")} /saldo updates (sandbox over HTTP), from ${USERS} users, one at a time, fake Bot API in-process`,
  rows: [
    {
      metric: "price page: CPU per update (the process's user + system time), median (min–max) over the blocks",
      value: `${ms(median)} (${ms(sorted[0]!)}–${ms(sorted.at(-1)!)}); mean rate ${Math.round(rateSum / BLOCKS)} updates/s`,
      target: "≤ 1 ms",
      ok: median <= 1,
    },
    { metric: "price page latency p50 / p99", value: `${ms(p.p50)} / ${ms(p.p99)}` },
    { metric: "/saldo (provider call over HTTP): rate, latency p50 / p99", value: `${Math.round(saldo.rate)} updates/s, ${ms(saldo.p50)} / ${ms(saldo.p99)}` },
  ],
  notes: [`CPU counts only this process's own time, so other work on a shared machine moves it less than wall time; a load average of ${loadavg()[0]!.toFixed(1)} at the end of this run.`],
});
await app.stop();
await rm(dir, { recursive: true, force: true });
