/**
 * Start-up: time from process start to the first answered update, and idle resident memory, for the
 * real bot (compiled `dist/main.js`, as `npm start` runs it) beside a bare grammY bot (plain JavaScript).
 * The bot runs with a fresh DATA_DIR and with 1,000 linked chats in the store. Its provider is the
 * sandbox in its own process, started once before the runs: a production bot's provider is another
 * server that is already up, so starting the simulated one is not the bot's start-up.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeBotApi } from "../test/support/fakeBotApi.js";
import { FAKE_BOT_TOKEN } from "../test/support/botInfo.js";
import { makeUser } from "../test/support/chat.js";
import { FileStore } from "../src/store/file/fileStore.js";
import { FULL, mb, report, summarize } from "./lib.js";

const ROOT = join(import.meta.dirname, "..");
// Cold starts per figure, interleaved bot/bare so that the shared machine's load hits both alike
// (with 3, a figure moved by ±0.3× between runs).
const RUNS = FULL ? 11 : 7;
const SECRET = "bench-secret-0123456789";
const LINKED = 1000;
/** Goals of issue 12. */
const MAX_RATIO = 1.5;
const MAX_RSS = 90 * 1024 * 1024;

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) * 1024;
}

/** `linked` chats with an api key in the store, written through the Store API before the bot starts. */
async function seed(dir: string, linked: number): Promise<void> {
  if (linked === 0) return;
  const store = await FileStore.open({ dir, secret: SECRET });
  for (let i = 0; i < linked; i++) await store.setApiKey(1_000_000 + i, `bench-key-${String(i).padStart(6, "0")}-abcdefghijklmnop`);
  await store.close();
}

/** `npm run sandbox` as its own process on a free port; resolves with its URL once it listens. */
async function startSandbox(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "src/sandbox/cli.ts"), "0"], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`sandbox exited (${code}) before listening: ${out}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

async function once(entry: string, linked: number): Promise<{ firstAnswerMs: number; idleRss: number }> {
  const fake = new FakeBotApi();
  const server = await fake.startServer();
  const dir = await mkdtemp(join(tmpdir(), "ppob-bench-start-"));
  await seed(dir, linked);
  const user = makeUser(null, fake, { languageCode: "id" });
  fake.pushUpdate(user.textUpdate("/start"));
  const t0 = performance.now();
  // As `npm start` runs it; the bare bot is plain JavaScript.
  const args = [entry];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      BOT_TOKEN: FAKE_BOT_TOKEN,
      TELEGRAM_API_ROOT: server.apiRoot,
      UPSTREAM_BASE_URL: provider.url,
      DATA_DIR: dir,
      STORE_SECRET: SECRET,
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

const median = (runs: { firstAnswerMs: number; idleRss: number }[]) => ({
  start: summarize(runs.map((r) => r.firstAnswerMs)).p50,
  rss: summarize(runs.map((r) => r.idleRss)).p50,
});

// Build first, as `npm start` does (incremental: quick when dist/ is current).
execFileSync(process.execPath, [join(ROOT, "scripts/build.mjs")], { cwd: ROOT, stdio: "inherit" });
const provider = await startSandbox();
const runs: Record<"bare" | "fresh" | "linked", Awaited<ReturnType<typeof once>>[]> = { bare: [], fresh: [], linked: [] };
for (let i = 0; i < RUNS; i++) {
  runs.bare.push(await once("bench/bare-bot.mjs", 0));
  runs.fresh.push(await once("dist/main.js", 0));
  runs.linked.push(await once("dist/main.js", LINKED));
}
const bare = median(runs.bare);
const fresh = median(runs.fresh);
const linked = median(runs.linked);
await provider.stop();
const ratio = (r: { start: number }) => r.start / bare.start;
const startRow = (label: string, r: { start: number }) => ({
  metric: `process start -> first answered update, ${label}: bot / bare grammY`,
  value: `${ratio(r).toFixed(2)}× (${Math.round(r.start)} / ${Math.round(bare.start)} ms)`,
  target: `≤ ${MAX_RATIO}×`,
  ok: ratio(r) <= MAX_RATIO,
});
report({
  name: "Start-up",
  setup: `median of ${RUNS} cold starts each, interleaved (bare, fresh, ${LINKED.toLocaleString("en")} chats, bare...); the bot built as npm start builds it (type-checked, bundled by esbuild into dist/bot.cjs, V8 code cache written by the build) and run as it runs it (node dist/main.js loads the bundle with that cache, src/launch.ts; logged stacks mapped to src/ on first use, src/stackMap.ts), the bare grammY bot as plain JavaScript; the provider is the sandbox in its own process, already running (as a real provider is another server); a fresh DATA_DIR, and one with ${LINKED.toLocaleString("en")} linked chats`,
  rows: [
    startRow("fresh DATA_DIR", fresh),
    startRow(`${LINKED.toLocaleString("en")} linked chats`, linked),
    { metric: "idle resident memory, fresh DATA_DIR: bot / bare grammY", value: `${mb(fresh.rss)} / ${mb(bare.rss)}` },
    {
      metric: `idle resident memory, ${LINKED.toLocaleString("en")} linked chats`,
      value: mb(linked.rss),
      target: `≤ ${mb(MAX_RSS)}`,
      ok: linked.rss <= MAX_RSS,
    },
  ],
});
