/**
 * The bot as a newcomer runs it: built like `npm start` does (bundled by esbuild into dist/, then
 * `node --enable-source-maps dist/main.js`) in its own process, talking to a fake Bot API over HTTP via
 * TELEGRAM_API_ROOT, with the built-in sandbox upstream.
 */
import { mkdtemp, readFile, rm, writeFile, mkdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEY } from "../../src/sandbox/index.js";
import { FAKE_BOT_TOKEN } from "../support/botInfo.js";
import { makeUser } from "../support/chat.js";
import { FakeBotApi, type FakeServer } from "../support/fakeBotApi.js";
import { alive, buildDist, descendants, ROOT, startMain, startNpmStart } from "../support/mainProcess.js";

beforeAll(buildDist, 180_000);

/** The node options `npm start` runs dist/main.js with (package.json). */
async function startNodeArgs(): Promise<string[]> {
  const start = (JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;
  const args = /\bnode((?: --[\w-]+)*) dist\/main\.js$/.exec(start);
  expect(args, start).not.toBeNull();
  return args![1]!.trim().split(" ").filter(Boolean);
}

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ppob-main-"));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe("the bot process", () => {
  it("without BOT_TOKEN in production prints one clear line and exits non-zero", async () => {
    const p = startMain({ DATA_DIR: await tempDir(), NODE_ENV: "production" });
    expect(await p.exited).toBe(1);
    expect(p.output().trim()).toBe("Configuration error: BOT_TOKEN is required: the token @BotFather gave you");
  });

  it("without BOT_TOKEN starts the playground: one line with the page's URL, the page answers, Ctrl-C stops it and says so", async () => {
    const dir = await tempDir();
    const p = startMain({ PLAYGROUND_DIR: dir, PLAYGROUND_PORT: "0" });
    cleanup.push(async () => {
      p.child.kill("SIGKILL");
      await p.exited;
    });
    await expect.poll(() => p.output(), { timeout: 15_000 }).toMatch(/\n/);
    const line = p.output().trim();
    expect(line).toMatch(/^Playground: open http:\/\/127\.0\.0\.1:\d+\/ \(Telegram simulated; set BOT_TOKEN to run it on Telegram\)$/);
    const url = /http:\S+\//.exec(line)![0];
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("PPOB bot playground");
    await fetch(new URL("api/chat/1001/send", url), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: "/saldo" }) });
    // The real bot answers through the emulator, from the sandbox's demo account.
    await expect
      .poll(async () => JSON.stringify(await (await fetch(new URL("api/chat/1001", url))).json()), { timeout: 10_000 })
      .toContain("Rp1.000.000");
    // Ctrl-C in the terminal: one line says it stops and where the chats stay; no log noise.
    p.child.kill("SIGINT");
    expect(await p.exited).toBe(0);
    expect(p.output().trim().split("\n")).toEqual([line, "", `Playground: stopping; the chats are kept in ${dir} for the next npm start.`]);
  });

  it("`npm start` stopped by its own pid (kill <pid>, a process manager's SIGTERM) stops the bot and frees the data folder", async () => {
    const dir = await tempDir();
    const npm = startNpmStart({ PLAYGROUND_DIR: dir, PLAYGROUND_PORT: "0" });
    let below: number[] = [];
    cleanup.push(async () => {
      for (const pid of below) if (alive(pid)) process.kill(pid, "SIGKILL");
      if (npm.child.exitCode === null) npm.child.kill("SIGKILL");
    });
    await expect.poll(() => npm.output(), { timeout: 30_000 }).toMatch(/Playground: open/);
    below = await descendants(npm.child.pid!);
    expect(below.length).toBeGreaterThan(0);
    npm.child.kill("SIGTERM");
    await npm.exited;
    // npm waits for its child: once it is gone, nothing it started may still hold the folder.
    expect(below.filter(alive)).toEqual([]);
    const next = startMain({ PLAYGROUND_DIR: dir, PLAYGROUND_PORT: "0" });
    cleanup.push(async () => {
      if (next.child.exitCode === null) next.child.kill("SIGKILL");
      await next.exited;
    });
    await expect.poll(() => next.output(), { timeout: 15_000 }).toMatch(/\n/);
    expect(next.output()).toMatch(/^Playground: open http/);
  }, 60_000);

  it("refuses a corrupt data file and leaves it untouched", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "store"), { recursive: true });
    const meta = join(dir, "store", "meta.json");
    await writeFile(meta, "{ not json");
    const p = startMain({ BOT_TOKEN: FAKE_BOT_TOKEN, DATA_DIR: dir, STORE_SECRET: "0123456789abcdef0123", LOG_LEVEL: "silent" });
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain("meta.json");
    expect(await readFile(meta, "utf8")).toBe("{ not json");
  });

  it("links a key and shows the balance over real long polling, then shuts down cleanly on SIGTERM", async () => {
    const fake = new FakeBotApi();
    const server: FakeServer = await fake.startServer();
    cleanup.push(() => server.close());
    const dir = await tempDir();
    const p = startMain({
      BOT_TOKEN: FAKE_BOT_TOKEN,
      TELEGRAM_API_ROOT: server.apiRoot,
      UPSTREAM_BASE_URL: "sandbox",
      DATA_DIR: dir,
      LOG_LEVEL: "info",
    });
    cleanup.push(async () => {
      if (p.child.exitCode === null) p.child.kill("SIGKILL");
    });

    await fake.waitFor("getUpdates", 20_000, { answered: false });
    expect(p.output()).toContain("SANDBOX MODE");
    // No STORE_SECRET: one is generated into DATA_DIR, readable by the owner only.
    expect((await stat(join(dir, "store-secret"))).mode & 0o777).toBe(0o600);
    expect(fake.callsOf("setMyCommands").length).toBe(2);

    const user = makeUser(null, fake, { languageCode: "en", firstName: "Rina" });
    await user.sendCommand("start");
    await fake.waitFor((c) => c.method === "sendMessage" && String(c.payload.text).includes("Hello, Rina"), 10_000);
    await user.sendText(DEMO_KEY);
    await fake.waitFor((c) => c.method === "editMessageText" && String(c.payload.text).includes("API key linked"), 10_000);
    await user.sendCommand("balance");
    const balance = await fake.waitFor(
      (c) => c.method === "sendMessage" && String(c.payload.text).includes("Balance:"),
      10_000,
    );
    expect(String(balance.payload.text)).toContain("SANDBOX MODE");
    // The demo key is printed once at start (so a newcomer can link it); linking never logs it.
    expect(p.output().split(DEMO_KEY).length - 1).toBe(1);

    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
    expect(p.output()).toContain("stopped cleanly");
  }, 60_000);

  it("an error it logs points to the src/ files, run as `npm start` runs it", async () => {
    const fake = new FakeBotApi();
    const server: FakeServer = await fake.startServer();
    cleanup.push(() => server.close());
    fake.failNext("setMyCommands", { error_code: 400, description: "Bad Request: commands are too long" });
    const p = startMain(
      { BOT_TOKEN: FAKE_BOT_TOKEN, TELEGRAM_API_ROOT: server.apiRoot, UPSTREAM_BASE_URL: "sandbox", DATA_DIR: await tempDir(), LOG_LEVEL: "info" },
      { nodeArgs: await startNodeArgs() },
    );
    cleanup.push(async () => {
      if (p.child.exitCode === null) p.child.kill("SIGKILL");
    });
    await fake.waitFor("getUpdates", 20_000, { answered: false });
    const line = p.output().split("\n").find((l) => l.includes("could not register the command list"));
    const stack = String((JSON.parse(line!) as { err: { stack: string } }).err.stack);
    const frames = stack.split("\n").filter((l) => l.trim().startsWith("at "));
    expect(frames.length).toBeGreaterThan(0);
    expect(stack).toMatch(/\/src\/[\w/]+\.ts:\d+:\d+/);
    expect(stack).not.toMatch(/dist\//); // neither dist/main.js nor a chunk of it
  }, 60_000);
});
