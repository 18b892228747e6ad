/**
 * Start-up: time from process start to the first answered update, and idle resident memory, for the
 * real bot (`src/main.ts`, as `npm start` runs it, sandbox upstream) beside a bare grammY bot.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeBotApi } from "../test/support/fakeBotApi.js";
import { FAKE_BOT_TOKEN } from "../test/support/botInfo.js";
import { makeUser } from "../test/support/chat.js";
import { FULL, mb, report, summarize } from "./lib.js";

const ROOT = join(import.meta.dirname, "..");
const RUNS = FULL ? 5 : 3;

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) * 1024;
}

async function once(entry: string): Promise<{ firstAnswerMs: number; idleRss: number }> {
  const fake = new FakeBotApi();
  const server = await fake.startServer();
  const dir = await mkdtemp(join(tmpdir(), "ppob-bench-start-"));
  const user = makeUser(null, fake, { languageCode: "id" });
  fake.pushUpdate(user.textUpdate("/start"));
  const t0 = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      BOT_TOKEN: FAKE_BOT_TOKEN,
      TELEGRAM_API_ROOT: server.apiRoot,
      UPSTREAM_BASE_URL: "sandbox",
      DATA_DIR: dir,
      STORE_SECRET: "bench-secret-0123456789",
      LOG_LEVEL: "silent",
    },
    stdio: "ignore",
  });
  try {
    await fake.waitFor("sendMessage", 30_000);
    const firstAnswerMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 2000));
    const idleRss = await rssOf(child.pid!);
    return { firstAnswerMs, idleRss };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function many(entry: string) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once(entry));
  return { start: summarize(runs.map((r) => r.firstAnswerMs)).p50, rss: summarize(runs.map((r) => r.idleRss)).p50 };
}

const bare = await many("bench/bare-bot.ts");
const real = await many("src/main.ts");
report({
  name: "Start-up",
  setup: `median of ${RUNS} cold starts each; both through tsx; the bot with the built-in sandbox and a fresh DATA_DIR`,
  rows: [
    { metric: "process start -> first answered update: bot / bare grammY", value: `${(real.start / bare.start).toFixed(2)}× (${Math.round(real.start)} / ${Math.round(bare.start)} ms)` },
    { metric: "idle resident memory: bot / bare grammY", value: `${mb(real.rss)} / ${mb(bare.rss)}` },
  ],
});
