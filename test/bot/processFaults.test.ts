/**
 * Faults an operator meets at the process level: a lost or changed store secret, a damaged secret
 * file, a revoked bot token. `src/main.ts` in its own process, the fake Bot API over HTTP, the
 * built-in sandbox.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { DEMO_KEY } from "../../src/sandbox/index.js";
import { FAKE_BOT_TOKEN } from "../support/botInfo.js";
import { makeUser } from "../support/chat.js";
import { FakeBotApi, type FakeServer } from "../support/fakeBotApi.js";

const ROOT = join(import.meta.dirname, "..", "..");
const SECRET_A = "the-first-secret-0123456789";
const SECRET_B = "another-secret-9876543210";

interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

function startMain(env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return { child, output: () => out, exited };
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ppob-secret-"));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function fakeServer(): Promise<{ fake: FakeBotApi; server: FakeServer }> {
  const fake = new FakeBotApi();
  const server = await fake.startServer();
  cleanup.push(() => server.close());
  return { fake, server };
}

/** Exits (code) or starts polling ("polling"), whichever comes first. */
async function exitOrPoll(p: Proc, fake: FakeBotApi): Promise<number | null | "polling"> {
  const seq = fake.nextSeq;
  let code: number | null | undefined;
  void p.exited.then((c) => (code = c));
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    if (fake.calls.some((c) => c.method === "getUpdates" && c.seq >= seq)) return "polling";
    if (code !== undefined) return code;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`neither exited nor polling:\n${p.output()}`);
}

const RELINK = /could not be read|tidak bisa dibaca/;

it("a changed secret stops start-up with what to do; with STORE_SECRET_RESET=1 the chats are asked once to link again and linking works", async () => {
  const { fake, server } = await fakeServer();
  const dir = await tempDir();
  const env = { BOT_TOKEN: FAKE_BOT_TOKEN, TELEGRAM_API_ROOT: server.apiRoot, UPSTREAM_BASE_URL: "sandbox", DATA_DIR: dir };

  // First life: a reseller links the demo key.
  const first = startMain({ ...env, STORE_SECRET: SECRET_A });
  expect(await exitOrPoll(first, fake)).toBe("polling");
  const user = makeUser(null, fake, { languageCode: "en" });
  await user.sendCommand("start");
  await user.sendText(DEMO_KEY);
  await fake.waitFor((c) => c.method === "editMessageText" && String(c.payload.text).includes("API key linked"), 10_000);
  first.child.kill("SIGTERM");
  expect(await first.exited).toBe(0);

  // The secret changed: refused, clearly.
  const refused = startMain({ ...env, STORE_SECRET: SECRET_B });
  expect(await exitOrPoll(refused, fake)).toBe(1);
  expect(refused.output()).toContain("STORE_SECRET");
  expect(refused.output()).toContain("STORE_SECRET_RESET=1");
  expect(refused.output()).toMatch(/1 linked api key/);
  expect(refused.output()).not.toContain(SECRET_A);
  expect(refused.output()).not.toContain(SECRET_B);

  // The operator goes on: the chat is told once, and links again.
  const reset = startMain({ ...env, STORE_SECRET: SECRET_B, STORE_SECRET_RESET: "1" });
  expect(await exitOrPoll(reset, fake)).toBe("polling");
  await fake.waitFor((c) => c.method === "sendMessage" && c.payload.chat_id === user.chatId && RELINK.test(String(c.payload.text)), 10_000);
  await user.sendText(DEMO_KEY);
  await fake.waitFor(
    (c) => c.method === "editMessageText" && c.payload.chat_id === user.chatId && String(c.payload.text).includes("API key linked"),
    10_000,
  );
  const newcomer = makeUser(null, fake, { languageCode: "en" });
  await newcomer.sendCommand("start");
  await newcomer.sendText(DEMO_KEY);
  await fake.waitFor(
    (c) => c.method === "editMessageText" && c.payload.chat_id === newcomer.chatId && String(c.payload.text).includes("API key linked"),
    10_000,
  );
  reset.child.kill("SIGTERM");
  expect(await reset.exited).toBe(0);

  // The new secret is now the store's: it starts without the setting, and nobody is told twice.
  const after = startMain({ ...env, STORE_SECRET: SECRET_B });
  expect(await exitOrPoll(after, fake)).toBe("polling");
  await user.sendCommand("balance");
  await fake.waitFor((c) => c.method === "sendMessage" && c.payload.chat_id === user.chatId && String(c.payload.text).includes("Balance:"), 10_000);
  after.child.kill("SIGTERM");
  expect(await after.exited).toBe(0);
  const relinkNotices = fake.calls.filter((c) => c.method === "sendMessage" && RELINK.test(String(c.payload.text)));
  expect(relinkNotices.map((c) => c.payload.chat_id)).toEqual([user.chatId]);
}, 120_000);

it("a damaged secret file stops start-up with a message naming the file, not a bare EEXIST", async () => {
  const dir = await tempDir();
  await writeFile(join(dir, "store-secret"), "abc\n", { mode: 0o600 });
  const p = startMain({ BOT_TOKEN: FAKE_BOT_TOKEN, UPSTREAM_BASE_URL: "sandbox", DATA_DIR: dir, LOG_LEVEL: "silent" });
  expect(await p.exited).toBe(1);
  expect(p.output()).toContain(join(dir, "store-secret"));
  expect(p.output()).toMatch(/damaged/);
  expect(p.output()).not.toContain("EEXIST");
}, 60_000);

it("a revoked token (401 on getUpdates) exits non-zero with a clear message, after a clean stop, with no unhandled rejection", async () => {
  const { fake, server } = await fakeServer();
  const dir = await tempDir();
  fake.failNext("getUpdates", { error_code: 401, description: "Unauthorized" });
  const p = startMain({ BOT_TOKEN: FAKE_BOT_TOKEN, TELEGRAM_API_ROOT: server.apiRoot, UPSTREAM_BASE_URL: "sandbox", DATA_DIR: dir });
  expect(await p.exited).toBe(1);
  expect(p.output()).toMatch(/Telegram rejected BOT_TOKEN \(401 Unauthorized\).*@BotFather/);
  expect(p.output()).toContain("stopped cleanly");
  expect(p.output()).not.toMatch(/Unhandled|triggerUncaughtException|\[grammY runner\]/);
  expect(p.output()).not.toContain(FAKE_BOT_TOKEN.split(":")[1]);
}, 60_000);
