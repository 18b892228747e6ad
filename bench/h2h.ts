/**
 * The H2H API under load (issue 38, "Done when" benchmark): 100 downline keys calling the bot's
 * `/h2h/transaksi/status` and `/h2h/transaksi/create`, beside a bare node:http server answering a
 * fixed body of the same size, all in one run on 127.0.0.1. Each mode: a closed loop (CONCURRENCY
 * calls in flight, keys taken in turn) for its rate and p99, then status and the bare server paced at
 * PACED_RATE calls a second (open loop: a call is sent on time whether or not the earlier ones were
 * answered) for p99 at that rate. The network is made through the domain (invite, join,
 * wallets.adjust, h2hAccess.enable/newKey/setIps); the app is production's buildApp with the built-in
 * sandbox, in webhook mode (no polling). The calls are made from a worker thread (h2hLoad.ts).
 */
import { createServer } from "node:http";
import { Worker } from "node:worker_threads";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config/env.js";
import { silentLogger } from "../src/logging/logger.js";
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from "../test/support/botInfo.js";
import { FakeBotApi } from "../test/support/fakeBotApi.js";
import { FULL, ms, report, summarize, type BenchRow } from "./lib.js";
import type { LoadJob, LoadResult } from "./h2hLoad.js";

const KEYS = 100;
const CONCURRENCY = 32;
/** Calls per closed-loop mode; the per-key limit (600 a minute) bounds a mode to 60,000 calls a minute. */
const CALLS = FULL ? 20_000 : 1_000;
const PACED_RATE = FULL ? 1_000 : 200;
const PACED_SECONDS = FULL ? 10 : 2;
const OWNER = 950_000;
const DOWNLINE0 = 960_000;
const SECRET = "bench-secret-0123456789";

interface Mode {
  rate: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Runs one job in the caller's thread and sums it up. */
function load(worker: Worker, job: LoadJob): Promise<Mode> {
  return new Promise((resolve, reject) => {
    worker.once("error", reject);
    worker.once("message", (r: LoadResult) => {
      worker.off("error", reject);
      const { p50, p99 } = summarize(r.latencies);
      resolve({ rate: job.calls / r.seconds, p50, p99, errors: r.errors });
    });
    worker.postMessage(job);
  });
}

async function post(url: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
  return { status: res.status, text: await res.text() };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "ppob-bench-h2h-"));
  const fake = new FakeBotApi({ strict: false });
  const ownerKey = { key: "BENCH-H2H-OWNER-KEY", balance: 100_000_000_000 };
  const app = await buildApp(
    loadConfig({
      BOT_TOKEN: FAKE_BOT_TOKEN, UPSTREAM_BASE_URL: "sandbox", DATA_DIR: dir, STORE_SECRET: SECRET,
      HTTP_PORT: "0", TELEGRAM_WEBHOOK_URL: "https://bench.example.com/telegram",
    }),
    silentLogger,
    { bot: { botInfo: FAKE_BOT_INFO, client: { fetch: fake.fetch as never }, rateLimit: false }, sandbox: { keys: [ownerKey], settleMs: 1_000 } },
  );
  const keepAlive = setInterval(() => undefined, 1000);
  const bare = createServer();
  let stopWorker: () => Promise<number> = () => Promise.resolve(0);
  try {
    await app.store.setApiKey(OWNER, ownerKey.key);
    const { network, wallets } = app.deps;
    const keys: string[] = [];
    for (let i = 0; i < KEYS; i++) {
      const chat = DOWNLINE0 + i;
      const invite = await network.invite(OWNER, 1);
      if (typeof invite === "string") throw new Error(`no invitation: ${invite}`);
      const joined = await network.join(invite.token, { chat, name: `Downline ${i}`, ownsKey: false });
      if (typeof joined === "string") throw new Error(`join refused: ${joined}`);
      await wallets.adjust({ ref: `F${i}`, owner: OWNER, wallet: chat, amount: 1_000_000_000, reason: "bench", by: OWNER });
      await app.h2hAccess.enable(OWNER, chat, true);
      const made = await app.h2hAccess.newKey(chat, Date.now());
      if (made === "off") throw new Error("off");
      await app.h2hAccess.setIps(chat, ["127.0.0.1"]);
      keys.push(made.key);
    }
    await app.start();
    const base = `${app.http()!.url}/h2h`;

    // One purchase per key to ask the status of (by the downline's reff_id).
    for (const [i, key] of keys.entries()) {
      const r = await post(`${base}/transaksi/create`, `api_key=${key}&code=S10&reff_id=SEED${i}&target=0812${String(10_000_000 + i)}`);
      if (r.status !== 200 && r.status !== 202) throw new Error(`seed create ${r.status}: ${r.text}`);
    }
    const statusBody = (i: number) => `api_key=${keys[i % KEYS]!}&id=SEED${i % KEYS}&type=prabayar`;
    const sample = await post(`${base}/transaksi/status`, statusBody(0));
    const fixed = sample.text;

    bare.keepAliveTimeout = 5_000;
    bare.on("request", (req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(fixed) }).end(fixed));
    });
    await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/transaksi/status`;

    // Loaded through tsx's API: a worker does not inherit the parent's --import hooks.
    const worker = new Worker(`import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL("./h2hLoad.ts", import.meta.url).href)}); });`, { eval: true });
    stopWorker = () => worker.terminate();
    const app0 = new URL(base);
    const bareAt = new URL(bareUrl);
    const job = (over: Partial<LoadJob> & Pick<LoadJob, "mode" | "calls">): LoadJob => ({
      origin: app0.origin, path: `${app0.pathname}/transaksi/status`, kind: "status", keys, inFlight: CONCURRENCY, rate: PACED_RATE, tag: "B", ...over,
    });
    const bareJob = (over: Pick<LoadJob, "mode" | "calls">) => job({ ...over, origin: bareAt.origin, path: bareAt.pathname });

    // Warm both sides up, then measure.
    await load(worker, bareJob({ mode: "closed", calls: 200 }));
    await load(worker, job({ mode: "closed", calls: 200 }));
    const bareRun = await load(worker, bareJob({ mode: "closed", calls: CALLS }));
    const statusRun = await load(worker, job({ mode: "closed", calls: CALLS }));
    const createCalls = FULL ? 5_000 : 500;
    const createRun = await load(worker, job({ mode: "closed", calls: createCalls, kind: "create", path: `${app0.pathname}/transaksi/create` }));
    const pacedCalls = PACED_RATE * PACED_SECONDS;
    const barePaced = await load(worker, bareJob({ mode: "paced", calls: pacedCalls }));
    const statusPaced = await load(worker, job({ mode: "paced", calls: pacedCalls }));

    const rate = (m: Mode) => `${m.rate.toFixed(0)}/s (p50 ${ms(m.p50)}, p99 ${ms(m.p99)}${m.errors ? `, ${m.errors} not 2xx` : ""})`;
    const ratio = statusRun.rate / bareRun.rate;
    const rows: BenchRow[] = [
      { metric: `bare node:http, ${Buffer.byteLength(fixed)} B body, ${CONCURRENCY} in flight`, value: rate(bareRun) },
      { metric: `/h2h/transaksi/status, ${KEYS} keys, ${CONCURRENCY} in flight`, value: rate(statusRun) },
      { metric: "status rate / bare rate", value: ratio.toFixed(2), target: "≥ 0.3", ok: ratio >= 0.3 },
      { metric: `/h2h/transaksi/create, ${KEYS} keys, ${CONCURRENCY} in flight`, value: rate(createRun) },
      { metric: `bare at ${PACED_RATE}/s for ${PACED_SECONDS} s: p99`, value: ms(barePaced.p99) },
      { metric: `status at ${PACED_RATE}/s for ${PACED_SECONDS} s: p99`, value: ms(statusPaced.p99), target: "≤ 50 ms", ok: statusPaced.p99 <= 50 && statusPaced.errors === 0 },
    ];
    report({
      name: "h2h",
      setup: `Production app (buildApp, built-in sandbox, file store, webhook mode) serving /h2h on 127.0.0.1; ${KEYS} downline keys made through the domain; the caller is a worker thread of its own (undici Pool, keep-alive, one connection per call in flight), the same for every mode.`,
      rows,
      notes: [
        "Closed loop: each of the in-flight slots sends its next call when the last is answered; paced: calls sent on time, latency counted from when each was due.",
        "create: each call a new reff_id, one purchase from the downline's wallet with the owner's key at the sandbox (claim with the hold, one create).",
      ],
    });
  } finally {
    clearInterval(keepAlive);
    await stopWorker();
    bare.close();
    await app.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
