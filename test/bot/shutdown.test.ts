/** In-process start-up and stop (buildApp, start, stop, as run.ts does) where the provider or Telegram is slow or failing. */
import { createServer, type Server } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, expect, it, vi } from "vitest";
import { buildApp } from "../../src/app.js";
import { loadConfig } from "../../src/config/env.js";
import { createLogger } from "../../src/logging/logger.js";
import { FAKE_BOT_TOKEN } from "../support/botInfo.js";
import { makeUser } from "../support/chat.js";
import { FakeBotApi, TelegramErrors } from "../support/fakeBotApi.js";
import { makeWorld } from "../support/world.js";
import { noticesAbout, run } from "../jobs/support.js";

const KEY = "SLOW-PROVIDER-KEY-0123456789";
let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

/** A provider whose /get_profile answers only when the test lets it. */
async function slowProvider(): Promise<{ url: string; requests: string[]; release: () => void }> {
  const requests: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", async () => {
      requests.push(req.url ?? "");
      if (requests.length > 1) await gate; // the first call links the key; the second waits
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ status: "true", data: { name: "Toko Lambat", username: "u", email: "", phone: "", balance: "75000", status: "active" } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanup.push(() => new Promise((r) => server.close(r)));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, requests, release };
}

it("on stop lets a running handler finish, then flushes the store; the api key never reaches the log", async () => {
  const fake = new FakeBotApi();
  const server = await fake.startServer();
  cleanup.push(() => server.close());
  const provider = await slowProvider();
  const dir = await mkdtemp(join(tmpdir(), "ppob-stop-"));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  let log = "";
  const sink = new Writable({ write: (chunk, _enc, done) => ((log += chunk), done()) });
  const config = loadConfig({
    BOT_TOKEN: FAKE_BOT_TOKEN,
    TELEGRAM_API_ROOT: server.apiRoot,
    UPSTREAM_BASE_URL: provider.url,
    DATA_DIR: dir,
    STORE_SECRET: "0123456789abcdef0123",
  });
  const app = await buildApp(config, createLogger("trace", sink));
  await app.start();
  let stopped = false;
  cleanup.push(() => (stopped ? Promise.resolve() : app.stop()));

  const user = makeUser(null, fake, { languageCode: "en" });
  await user.sendCommand("start");
  await user.sendText(KEY);
  await fake.waitFor((c) => c.method === "editMessageText" && String(c.payload.text).includes("Toko Lambat"));

  await user.sendCommand("balance");
  while (provider.requests.length < 2) await new Promise((r) => setTimeout(r, 10));
  const stopping = app.stop().then(() => (stopped = true));
  await new Promise((r) => setTimeout(r, 100));
  expect(stopped).toBe(false); // still waiting for the /balance handler
  provider.release();
  await stopping;
  expect(fake.sentTo(user.chatId).some((c) => String(c.payload.text).includes("Rp75,000"))).toBe(true);
  expect(log).toContain("stopped cleanly");
  expect(log).not.toContain(KEY);
  expect(log).not.toContain(FAKE_BOT_TOKEN.split(":")[1]);
});

it("stop ends in time while the provider holds a create: the purchase is kept as outcome unknown, and the next start tells its outcome once", async () => {
  let log = "";
  const sink = new Writable({ write: (chunk, _enc, done) => ((log += chunk), done()) });
  const w = await makeWorld({ watcher: true, stopGraceMs: 300, upstreamTimeoutMs: 20_000, logger: createLogger("info", sink) });
  cleanup.push(() => w.close());
  const u = await w.linkedUser({ languageCode: "id" });
  await u.sendCommand("beli", "dana25 0896 1234 5678");
  w.sandbox.setLatency(10_000);
  const confirming = u.pressButton(/Konfirmasi/);
  await vi.waitFor(() => expect(w.sandbox.calls("/transaksi/create")).toHaveLength(1));

  const started = performance.now();
  await w.app.stop();
  expect(performance.now() - started).toBeLessThan(3_000); // the grace, not the provider's 10 s
  await confirming;
  expect(log).not.toMatch(/store is closed/i);
  expect(log).toContain("stopped cleanly");
  // Told the outcome is not known yet and not to repeat it.
  expect(u.replies().join("\n")).toMatch(/ulangi/i);

  w.sandbox.setLatency(0);
  await w.restart();
  const [ref] = (await w.store.listTxByChat(u.chatId, { limit: 5 })).items.map((t) => t.refId);
  expect((await w.store.getTx(ref!))?.status).toBe("unknown"); // saved as such before the store closed, not left "sending"
  await run(w, 30_000);
  // Within the watcher's first check after the start (not the 2 minutes a record left "sending" waits), once.
  expect(noticesAbout(w, u.chatId, ref!).filter((t) => t.includes("Transaksi berhasil"))).toHaveLength(1);
  expect(w.sandbox.calls("/transaksi/create")).toHaveLength(1);
});

it("a start that cannot reach Telegram says so in the log while it retries, then starts once Telegram answers", async () => {
  const fake = new FakeBotApi();
  const server = await fake.startServer();
  cleanup.push(() => server.close());
  fake.failNext("getMe", TelegramErrors.internal(), { times: 2 });
  const dir = await mkdtemp(join(tmpdir(), "ppob-nogetme-"));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  let log = "";
  const sink = new Writable({ write: (chunk, _enc, done) => ((log += chunk), done()) });
  const config = loadConfig({ BOT_TOKEN: FAKE_BOT_TOKEN, TELEGRAM_API_ROOT: server.apiRoot, UPSTREAM_BASE_URL: "sandbox", DATA_DIR: dir, STORE_SECRET: "0123456789abcdef0123" });
  const app = await buildApp(config, createLogger("info", sink));
  cleanup.push(() => app.stop());
  expect(log.split("\n").filter((l) => l.includes("cannot reach Telegram"))).toHaveLength(2);
  expect(log).not.toContain(FAKE_BOT_TOKEN.split(":")[1]);
});
