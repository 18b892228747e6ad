/**
 * A 409 from getUpdates (another instance polls with the same token) never ends the process: the
 * poller waits, warns once when the conflict begins and reminds while it lasts, and /healthz says so.
 * The first test runs the poller in its own process with nothing else open (no HTTP_PORT), as an
 * operator's single-process bot does; the others run the app on the ManualClock.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createLogger } from "../../src/logging/logger.js";
import { makeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";

const ROOT = join(import.meta.dirname, "..", "..");
const CONFLICT = { error_code: 409, description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running" };

/** A poller whose first getUpdates answers 409; it prints each poll and says when its event loop ran empty. */
const CHILD = `
import { Bot } from "grammy";
import { startPolling } from ${JSON.stringify(join(ROOT, "src/telegram/polling.ts"))};
import { systemClock } from ${JSON.stringify(join(ROOT, "src/tools/clock.ts"))};
import { createLogger } from ${JSON.stringify(join(ROOT, "src/logging/logger.ts"))};
import { FAKE_BOT_INFO, FAKE_BOT_TOKEN } from ${JSON.stringify(join(ROOT, "src/playground/botInfo.ts"))};
const bot = new Bot(FAKE_BOT_TOKEN, { botInfo: FAKE_BOT_INFO });
let polls = 0;
const api = {
  getUpdates: async () => {
    polls++;
    console.log("poll " + polls);
    if (polls === 1) throw ${JSON.stringify(CONFLICT)};
    return new Promise(() => {});
  },
};
process.on("beforeExit", () => console.log("event loop empty"));
startPolling(bot, { api, clock: systemClock, logger: createLogger("silent"), allowedUpdates: ["message"], conflictWaitMs: 50 });
`;

it("a 409 with nothing else open (no HTTP_PORT) does not end the process: it polls again after the wait", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", CHILD], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const outcome = await new Promise<string>((resolve) => {
    child.on("exit", (code) => resolve(`exited with code ${code}`));
    child.stdout.on("data", () => out.includes("poll 2") && resolve("polled again"));
    setTimeout(() => resolve("neither"), 20_000).unref();
  });
  if (child.exitCode === null) child.kill("SIGKILL");
  expect(outcome, out).toBe("polled again");
  expect(out).not.toContain("event loop empty");
}, 30_000);

let w: World;
let log = "";
beforeEach(async () => {
  log = "";
  w = await makeWorld({ logger: createLogger("info", new Writable({ write: (c, _e, done) => ((log += c), done()) })) });
});
afterEach(() => w.close());

/** Lets real I/O land (1 ms) and moves the clock, until `done()` or the step limit. */
async function stepUntil(done: () => boolean, stepMs: number, maxSteps = 5000): Promise<void> {
  for (let i = 0; i < maxSteps && !done(); i++) {
    await new Promise((r) => setTimeout(r, 1));
    await w.clock.advance(stepMs);
  }
  expect(done(), "condition not reached").toBe(true);
}

const lines = (text: string) => log.split("\n").filter((l) => l.includes(text));

it("a conflict of 7 minutes: one warning when it begins, a reminder after 5 minutes, /healthz reports it until polling works again", async () => {
  // 42 conflicts 10 s apart: 7 minutes of another instance polling.
  w.fake.failNext("getUpdates", CONFLICT, { times: 42 });
  await w.app.start();
  await stepUntil(() => w.fake.callsOf("getUpdates").length >= 10, 1000);

  const during = await w.app.observers.health.report();
  expect(during.ok).toBe(false);
  expect(during.pollingConflictSince).not.toBeNull();
  expect(during.problems.join("; ")).toMatch(/another bot instance polls with this token \(409/);

  await stepUntil(() => w.fake.callsOf("getUpdates").length >= 43, 1000);
  const user = makeUser(null, w.fake, { languageCode: "en", clock: w.clock });
  await user.sendCommand("start");
  await w.fake.waitFor((c) => c.method === "sendMessage" && c.payload.chat_id === user.chatId, 10_000);

  expect(lines("another bot instance is polling with this token (409)")).toHaveLength(1);
  expect(lines("another bot instance is still polling with this token (409)")).toHaveLength(1);
  expect(lines("the other bot instance stopped polling")).toHaveLength(1);
  const after = await w.app.observers.health.report();
  expect(after.pollingConflictSince).toBeNull();
  expect(after.problems.join("; ")).not.toMatch(/409/);
});
