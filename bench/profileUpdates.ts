/**
 * A driver for profiling the update path alone: `node --cpu-prof --import tsx bench/profileUpdates.ts
 * [bare|same]` (N=updates per round; COUNT=1 counts the store calls per update). The same app, users
 * and fake as updates.ts, one kind of bot ("same": a bare grammY bot sending the very answer ours
 * sends), many cached price pages; prints the rate and the process's CPU time per update.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Bot, InlineKeyboard } from "grammy";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config/env.js";
import { silentLogger } from "../src/logging/logger.js";
import { DEMO_KEY } from "../src/sandbox/index.js";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "../test/support/botInfo.js";
import { makeUser } from "../test/support/chat.js";
import { FakeBotApi } from "../test/support/fakeBotApi.js";

const N = Number(process.env.N ?? 20_000);
const dir = await mkdtemp(join(tmpdir(), "ppob-prof-upd-"));
const fake = new FakeBotApi({ strict: false });
const app = await buildApp(
  loadConfig({ BOT_TOKEN: FAKE_BOT_TOKEN, UPSTREAM_BASE_URL: "sandbox", DATA_DIR: dir, STORE_SECRET: "bench-secret-0123456789" }),
  silentLogger,
  { bot: { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch as never }, rateLimit: false }, paceAnswers: false },
);
const users = Array.from({ length: 100 }, (_, i) => makeUser(app.bot, fake, { id: 500_000 + i, languageCode: i % 2 ? "en" : "id" }));
for (const u of users) await app.store.setApiKey(u.chatId, DEMO_KEY);
const bare = new Bot(FAKE_BOT_TOKEN, { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch as never } });
const page = new InlineKeyboard();
for (const c of ["Pulsa", "Data", "PLN", "Games", "E-Money"]) page.text(c, `pr:h:g:${c}:0`).row();
bare.command(["harga", "saldo"], (ctx) => ctx.reply("📋 Harga", { reply_markup: page }));
// The bare bot answering with the very message ours sends (same text and keyboard).
await app.bot.handleUpdate(users[0]!.textUpdate("/harga"));
const ours = fake.calls.findLast((c) => c.method === "sendMessage")!.payload as { text: string; reply_markup: unknown };
const same = new Bot(FAKE_BOT_TOKEN, { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch as never } });
same.command(["harga", "saldo"], (ctx) => ctx.reply(ours.text, { reply_markup: ours.reply_markup as never, parse_mode: "HTML" }));
console.log(JSON.stringify(ours).length, "bytes of payload");
const target = process.argv.includes("bare") ? bare : process.argv.includes("same") ? same : app.bot;
const counts = new Map<string, number>();
if (process.env.COUNT) {
  const st = app.store as unknown as Record<string, unknown>;
  for (const k of Object.getOwnPropertyNames(Object.getPrototypeOf(st))) {
    const f = st[k];
    if (typeof f !== "function" || k === "constructor") continue;
    st[k] = function (this: unknown, ...a: unknown[]) {
      counts.set(k, (counts.get(k) ?? 0) + 1);
      return (f as (...x: unknown[]) => unknown).apply(this, a);
    };
  }
}
const clearFake = setInterval(() => fake.clear(), 1000);
for (let round = 0; round < 2; round++) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await target.handleUpdate(users[i % users.length]!.textUpdate("/harga"));
  const c = process.cpuUsage(c0);
  console.log(`round ${round}: ${Math.round(N / ((performance.now() - t0) / 1000))} updates/s wall, ${((c.user + c.system) / N).toFixed(1)} µs CPU per update`);
}
clearInterval(clearFake);
if (process.env.COUNT) console.log(Object.fromEntries([...counts].map(([k, v]) => [k, v / (2 * N)])));
await app.stop();
await rm(dir, { recursive: true, force: true });
