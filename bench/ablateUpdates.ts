/**
 * Where an update's time goes: the bot's middlewares added one group at a time in front of a handler
 * that sends the very answer the bot sends, each stage timed in interleaved rounds.
 * `node --import tsx bench/ablateUpdates.ts`
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Bot, Composer, type Middleware } from "grammy";
import { autoRetry } from "@grammyjs/auto-retry";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config/env.js";
import { silentLogger } from "../src/logging/logger.js";
import { DEMO_KEY } from "../src/sandbox/index.js";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "../test/support/botInfo.js";
import { makeUser } from "../test/support/chat.js";
import { FakeBotApi } from "../test/support/fakeBotApi.js";
import type { BotContext } from "../src/bot/context.js";
import { htmlByDefault } from "../src/telegram/parseMode.js";
import { claimUpdate } from "../src/bot/middlewares/claimUpdate.js";
import { sequentializeChats } from "../src/bot/middlewares/sequentialize.js";
import { WayOuts } from "../src/bot/middlewares/wayOuts.js";
import { storeUnavailable } from "../src/bot/middlewares/storeUnavailable.js";
import { ChatRecordContext, ChatRecords } from "../src/bot/middlewares/chatRecord.js";
import { extras } from "../src/bot/middlewares/extras.js";
import { presence } from "../src/bot/middlewares/presence.js";
import { role } from "../src/bot/middlewares/role.js";
import { roleGate } from "../src/bot/middlewares/roleGate.js";
import { customerGate } from "../src/bot/middlewares/customerGate.js";
import { ownKeyGuard } from "../src/bot/middlewares/ownKeyGuard.js";
import { flows } from "../src/bot/middlewares/conversations.js";
import { forgetButtonsOnCommand } from "../src/bot/middlewares/buttonWait.js";
import { errorHandler } from "../src/bot/handlers/error.js";
import { stageComposers } from "../src/bot/features/index.js";

const N = Number(process.env.N ?? 3_000);
const dir = await mkdtemp(join(tmpdir(), "ppob-abl-upd-"));
const fake = new FakeBotApi({ strict: false });
const app = await buildApp(
  loadConfig({ BOT_TOKEN: FAKE_BOT_TOKEN, UPSTREAM_BASE_URL: "sandbox", DATA_DIR: dir, STORE_SECRET: "bench-secret-0123456789" }),
  silentLogger,
  { bot: { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch as never }, rateLimit: false }, paceAnswers: false },
);
const users = Array.from({ length: 100 }, (_, i) => makeUser(app.bot, fake, { id: 500_000 + i, languageCode: i % 2 ? "en" : "id" }));
for (const u of users) await app.store.setApiKey(u.chatId, DEMO_KEY);
await app.bot.handleUpdate(users[0]!.textUpdate("/harga"));
const ours = fake.calls.findLast((c) => c.method === "sendMessage")!.payload as { text: string; reply_markup: unknown };
const { deps, observers, shared } = app;
const observe = observers.bot;

function stage(level: number): Bot<BotContext> {
  // The bot's own context class at every stage (createBot uses it).
  const bot = new Bot<BotContext>(FAKE_BOT_TOKEN, {
    botInfo: FAKE_BOT_INFO,
    client: { fetch: fake.fetch as never },
    ContextConstructor: ChatRecordContext as unknown as new (...args: ConstructorParameters<typeof ChatRecordContext>) => BotContext,
  });
  if (level >= 1) {
    bot.api.config.use(observe.api);
    bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 60 }));
    bot.api.config.use(htmlByDefault);
  }
  const wayOuts = new WayOuts();
  const chatRecords = new ChatRecords(deps.store);
  const onError = errorHandler(deps, observe.handlerFailed);
  // As createBot: the same list, in the same order.
  const root = new Composer<BotContext>();
  if (level >= 2) {
    root.use(claimUpdate(shared, deps.logger));
    root.use(observe.update as Middleware<BotContext>);
  }
  if (level >= 3) {
    root.use(sequentializeChats());
    root.use(wayOuts.count);
    root.use(storeUnavailable(deps, observe.handlerFailed));
  }
  if (level >= 4) {
    root.use(chatRecords.load as Middleware<BotContext>);
    root.use(role as Middleware<BotContext>);
    root.use(extras(deps) as Middleware<BotContext>);
    root.use(presence);
  }
  if (level >= 5) {
    root.use(roleGate as Middleware<BotContext>);
    root.use(customerGate(onError, stageComposers("shopfront")));
    root.errorBoundary(onError, ...stageComposers("beforeKey"));
    root.use(ownKeyGuard);
    root.use(forgetButtonsOnCommand);
  }
  if (level >= 6) root.use(flows(deps, { chatRecords, wayOuts, maxRetryDelaySeconds: 60 }));
  if (level >= 7) {
    root.use(...stageComposers("wayOut"));
    root.errorBoundary(onError, ...stageComposers("flows"));
    root.errorBoundary(onError, ...stageComposers("main"));
    root.use(...stageComposers("last"));
  } else root.command(["harga"], (ctx) => ctx.reply(ours.text, { reply_markup: ours.reply_markup as never, parse_mode: "HTML" }));
  bot.use(root);
  return bot;
}
const NAMES = ["bare, same answer", "+ api transformers", "+ claim, observe", "+ sequentialize, wayOuts, storeUnavailable", "+ chat record, extras, presence", "+ role gate, customer gate, staff, key guard, buttons", "+ conversations", "+ features (the bot)"];
const bots = NAMES.map((_, i) => stage(i));
for (const b of bots) await b.init();
const rates: number[][] = NAMES.map(() => []);
const clearFake = setInterval(() => fake.clear(), 1000);
for (let round = 0; round < 8; round++) {
  for (let i = 0; i < bots.length; i++) {
    const b = bots[(i + round) % bots.length]!;
    // CPU time, not wall time: other processes on a shared machine take the CPU away unevenly.
    const c0 = process.cpuUsage();
    for (let k = 0; k < N; k++) await b.handleUpdate(users[k % users.length]!.textUpdate("/harga"));
    const c = process.cpuUsage(c0);
    rates[(i + round) % bots.length]!.push(N / ((c.user + c.system) / 1e6));
  }
}
clearInterval(clearFake);
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
for (let i = 0; i < NAMES.length; i++) {
  const r = med(rates[i]!.slice(2));
  console.log(`${NAMES[i]!.padEnd(45)} ${Math.round(r)}/s  ${(1e6 / r).toFixed(0)} µs/update`);
}
await app.stop();
await rm(dir, { recursive: true, force: true });
