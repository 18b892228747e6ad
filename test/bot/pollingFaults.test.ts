/**
 * getUpdates failing while the app polls (buildApp + start, as main.ts runs it): a 409 from an
 * overlapping instance, network errors and 5xx, a revoked token (401). Polling runs through the
 * in-process fake Bot API; every wait runs on the ManualClock.
 */
import { Writable } from "node:stream";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createLogger } from "../../src/logging/logger.js";
import { makeUser } from "../support/chat.js";
import { TelegramErrors, type RecordedCall } from "../support/fakeBotApi.js";
import { makeWorld, type World } from "../support/world.js";

let w: World;
let log = "";
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);

beforeEach(async () => {
  log = "";
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
  w = await makeWorld({ logger: createLogger("info", new Writable({ write: (c, _e, done) => ((log += c), done()) })) });
});
afterEach(async () => {
  await w.close();
  process.off("unhandledRejection", onUnhandled);
});

const polls = (): RecordedCall[] => w.fake.callsOf("getUpdates");

/** Lets real I/O land (1 ms) and moves the clock, until `done()` or the step limit. */
async function stepUntil(done: () => boolean, stepMs: number, maxSteps = 5000): Promise<void> {
  for (let i = 0; i < maxSteps && !done(); i++) {
    await new Promise((r) => setTimeout(r, 1));
    await w.clock.advance(stepMs);
  }
  expect(done(), "condition not reached").toBe(true);
}

const CONFLICT = { error_code: 409, description: "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running" };

it("a 409 (another instance during a deploy) and dropped connections: logged, waited out, and the bot keeps serving", async () => {
  w.fake.failNext("getUpdates", CONFLICT, { times: 3 });
  w.fake.dropNext("getUpdates", { times: 2 });
  await w.app.start();
  await stepUntil(() => polls().filter((c) => c.response?.ok === true || c.response === undefined).length > 0, 1000);

  const user = makeUser(null, w.fake, { languageCode: "en", clock: w.clock });
  await user.sendCommand("start");
  await w.fake.waitFor((c) => c.method === "sendMessage" && c.payload.chat_id === user.chatId, 10_000);
  expect(log).toContain("another bot instance is polling with this token (409)");
  expect(unhandled).toEqual([]);
});

it("after failures the back-off doubles up to 30 s, and polling resumes at once when a call succeeds", async () => {
  w.fake.failNext("getUpdates", TelegramErrors.internal(), { times: 14 });
  await w.app.start();
  await stepUntil(() => polls().length >= 15, 250);
  const clockAfterFailures = w.clock.now(); // from here on the clock stands still
  // The 15th call succeeds: a long poll, answered by the user's message; the next poll follows at once.
  const user = makeUser(null, w.fake, { languageCode: "en", clock: w.clock });
  await user.sendCommand("start");
  await w.fake.waitFor((c) => c.method === "sendMessage" && c.payload.chat_id === user.chatId, 10_000);
  await w.fake.waitFor(() => polls().length >= 16, 10_000, { answered: false });

  const at = polls().map((c) => c.at);
  const gaps = at.slice(1).map((t, i) => t - at[i]!);
  // 100 ms doubling: ..., 12.8 s, 25.6 s, then capped at 30 s (the runner's default doubles on to hours).
  expect(Math.max(...gaps)).toBeLessThanOrEqual(30_250);
  expect(gaps.slice(9, 14)).toEqual(Array.from({ length: 5 }, () => expect.closeTo(30_000, -3)));
  expect(polls()[14]!.response?.ok).toBe(true);
  expect(polls()[15]!.at).toBe(clockAfterFailures); // no wait after a success
  expect(unhandled).toEqual([]);
});

it("a 401 (token revoked) ends polling with a clear message, stops the app with the store flushed, and no unhandled rejection", async () => {
  w.fake.failNext("getUpdates", { error_code: 401, description: "Unauthorized" });
  await w.store.updateChat(4242, { lang: "en" }); // a change not yet written
  await w.app.start();
  const failed = await Promise.race([w.app.failed, new Promise((r) => setTimeout(() => r("still running"), 5000))]);

  expect(String((failed as Error).message)).toMatch(/BOT_TOKEN.*401.*@BotFather/);
  expect(log).toContain("@BotFather");
  expect(log).toContain("stopped cleanly");
  await expect(w.store.updateChat(1, { lang: "en" })).rejects.toThrow(/closed/);
  await w.restart();
  expect((await w.store.getChat(4242))?.lang).toBe("en");
  expect(unhandled).toEqual([]);
});
