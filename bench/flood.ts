/**
 * Flood: 200 users at once against a fake Bot API that answers 429 (retry_after) past 30
 * messages in any second. 100 link their api key (/start, then the key) and 100 linked users
 * create a QRIS deposit (/deposit, QRIS, amount, confirm -> QR photo), all concurrently, through
 * the production app (buildApp, built-in sandbox, system clock, BULK_PACE).
 *
 * Runs: now (the bot's answers through the shared pacer, pacedFetch) and before (answers straight
 * out with auto-retry's 3 tries, app.ts `paceAnswers: false`). Lost answer = a user whose steps did
 * not all get their answer (the link never confirmed, or a deposit step without its reply);
 * lost QR photo = a deposit user without a delivered sendPhoto.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config/env.js";
import { silentLogger } from "../src/logging/logger.js";
import { DEMO_KEY } from "../src/sandbox/index.js";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "../test/support/botInfo.js";
import { makeUser, type FakeUser } from "../test/support/chat.js";
import { FakeBotApi } from "../test/support/fakeBotApi.js";
import { report, type BenchRow } from "./lib.js";

const LINKING = 100;
const DEPOSITING = 100;

interface Outcome {
  label: string;
  seconds: number;
  lostAnswers: number;
  lostPhotos: number;
  deletedUnlinked: number;
  rateLimited: number;
  messages: number;
}

async function run(label: string, paceAnswers: boolean): Promise<Outcome> {
  const dir = await mkdtemp(join(tmpdir(), "ppob-bench-flood-"));
  const fake = new FakeBotApi({ strict: false });
  fake.limitRate({ perSecond: 30 });
  const app = await buildApp(
    loadConfig({ BOT_TOKEN: FAKE_BOT_TOKEN, UPSTREAM_BASE_URL: "sandbox", DATA_DIR: dir, STORE_SECRET: "bench-secret-0123456789" }),
    silentLogger,
    { bot: { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch as never }, rateLimit: false }, paceAnswers },
  );
  const { bot, store } = app;
  const linking = Array.from({ length: LINKING }, (_, i) => makeUser(bot, fake, { id: 600_000 + i }));
  const depositing = Array.from({ length: DEPOSITING }, (_, i) => makeUser(bot, fake, { id: 700_000 + i }));
  for (const u of depositing) await store.setApiKey(u.chatId, DEMO_KEY);
  await store.flush();
  // A key message deleted while its chat is not linked: the failure the issue saw.
  let deletedUnlinked = 0;
  // The file store reads its memory when called, so each check sees the chat as it was at the delete.
  const checks: Promise<void>[] = [];
  fake.setResponder((method, payload) => {
    if (method === "deleteMessage") {
      checks.push(store.getApiKey(payload.chat_id as number).then((key) => void (key === undefined && deletedUnlinked++)));
    }
    return undefined;
  });

  const link = async (u: FakeUser): Promise<boolean> => {
    await u.sendCommand("start");
    await u.sendText(DEMO_KEY);
    return (u.lastReply() ?? "").includes("API key terhubung") && await store.getApiKey(u.chatId) === DEMO_KEY;
  };
  const deposit = async (u: FakeUser): Promise<boolean> => {
    await u.sendCommand("deposit");
    for (let page = 0; page < 5 && !u.findButton(/^QRIS · /); page++) await u.pressButton(/Berikutnya|Next/);
    await u.pressButton(/^QRIS · /);
    await u.sendText("50rb");
    await u.pressButton("✅ Konfirmasi");
    return true;
  };
  // A step whose answer never came leaves no button to press next: that user lost an answer.
  const attempt = (p: Promise<boolean>) => p.catch(() => false);

  const t0 = performance.now();
  const results = await Promise.all([...linking.map((u) => attempt(link(u))), ...depositing.map((u) => attempt(deposit(u)))]);
  const seconds = (performance.now() - t0) / 1000;
  await Promise.all(checks);

  const photos = (u: FakeUser) => fake.sentTo(u.chatId).filter((c) => c.method === "sendPhoto" && c.response?.ok === true).length;
  const outcome: Outcome = {
    label,
    seconds,
    lostAnswers: results.filter((ok) => !ok).length,
    lostPhotos: depositing.filter((u) => photos(u) === 0).length,
    deletedUnlinked,
    rateLimited: fake.calls.filter((c) => c.response?.ok === false && c.response.error_code === 429).length,
    messages: fake.calls.filter((c) => c.response?.ok === true && /^send/.test(c.method)).length,
  };
  await app.stop();
  await rm(dir, { recursive: true, force: true });
  return outcome;
}

// systemClock's timers are unref'd (they never hold a bot process open): keep this one alive.
const keepAlive = setInterval(() => undefined, 1000);
const now = await run("now", true);
const before = await run("before", false);
clearInterval(keepAlive);

const line = (o: Outcome) =>
  `lost answers ${o.lostAnswers}, lost QR photos ${o.lostPhotos}, key messages deleted unlinked ${o.deletedUnlinked}; ${o.messages} messages in ${o.seconds.toFixed(1)} s, ${o.rateLimited} 429s`;
const rows: BenchRow[] = [
  {
    metric: `now: users (of ${LINKING + DEPOSITING}) with a lost answer`,
    value: String(now.lostAnswers),
    target: "0",
    ok: now.lostAnswers === 0,
  },
  { metric: `now: deposit users (of ${DEPOSITING}) without their QR photo`, value: String(now.lostPhotos), target: "0", ok: now.lostPhotos === 0 },
  { metric: "now: key messages deleted while the chat was not linked", value: String(now.deletedUnlinked), target: "0", ok: now.deletedUnlinked === 0 },
  { metric: "now: time until every user had every answer", value: `${now.seconds.toFixed(1)} s (${now.messages} messages, ${(now.messages / now.seconds).toFixed(1)}/s; Telegram limit 30)` },
  { metric: "now: 429 answers from the fake", value: String(now.rateLimited) },
  { metric: "before (answers unpaced, auto-retry 3 tries)", value: line(before) },
];

report({
  name: "Flood",
  setup: `Production app (buildApp, built-in sandbox, system clock, BULK_PACE) on an in-process fake Bot API answering 429 (retry_after) past 30 messages in any second; ${LINKING} users link their key and ${DEPOSITING} linked users create a QRIS deposit, all at once; fresh store and fake per run`,
  rows,
  notes: [
    "Now: every message the bot sends takes a slot of the one SendPacer (29/s, spread evenly), answers ahead of bulk sends, and a 429 pauses everyone and sends the same request again (src/telegram/pacedFetch.ts). The link is saved (store flush) before the key message is deleted.",
    "Before: the bot's answers go straight out (app.ts paceAnswers: false) and auto-retry gives up after 3 tries: answers and QR photos are lost. The link order (save, then delete the key message) is the new one in both runs, so 'deleted unlinked' stays 0 there; the old order deleted every key message first (test/flows/flood.test.ts failed on it for all 100 linking users).",
    "Time to finish: the 600 messages over the 29/s pace would take ~21 s; the rest is the flows' own work (sandbox calls, store flushes) and timers firing late on a shared machine (2 cores, load ~19 during this run).",
  ],
});
