/**
 * A tap waits in its chat's queue while an earlier update of the chat runs. Telegram takes a callback
 * query's answer for only a few seconds after the tap (then "query is too old"), and the user's
 * spinner turns until then: a tap is answered plainly once it has waited CALLBACK_ANSWER_BY_MS, and
 * what its handler would have shown in the toast or alert arrives as a message instead.
 */
import type { Update } from "grammy/types";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { createLogger } from "../../src/logging/logger.js";
import { cb } from "../../src/bot/buttons.js";
import { CALLBACK_ANSWER_BY_MS } from "../../src/bot/middlewares/callbackInTime.js";
import type { FakeUser } from "../support/chat.js";
import { REAL_TIME_BOUND, ioTurn } from "../support/settle.js";
import { makeWorld, type World } from "../support/world.js";
import { LocalShared } from "../../src/cluster/localShared.js";

let w: World;
let lines: { level: string; msg: string }[] = [];
beforeEach(async () => {
  lines = [];
  const logger = createLogger("debug", { write: (line: string) => void lines.push(JSON.parse(line) as { level: string; msg: string }) });
  // One process (no update claims across processes): what is timed here is the chat's queue, and a
  // claim on PostgreSQL would be timed by the same manual clock the test moves.
  w = await makeWorld({ logger, shared: (clock, dir) => new LocalShared(clock, dir) });
});
afterEach(() => w.close());

const loud = () => lines.filter((l) => !["debug", "info", "trace"].includes(l.level));
const EXPIRED = "Tombol ini sudah tidak berlaku. Buka /menu untuk mulai lagi.";

/** A tap on a button no handler knows: its handler answers with the "button expired" toast. */
function staleTap(u: FakeUser, id: string, data = "gone:button"): Update {
  return {
    update_id: w.fake.nextUpdateId(),
    callback_query: { id, from: u.user, chat_instance: "1", data },
  } as Update;
}
const answersTo = (id: string) => w.fake.callsOf("answerCallbackQuery").filter((c) => c.payload.callback_query_id === id);
const botTexts = (u: FakeUser) => w.fake.visibleMessages(u.chatId).filter((m) => m.from === "bot").map((m) => m.text);

it("a tap queued behind a slow update of its chat is answered plainly in time; its toast then arrives as a message", async () => {
  const budi = await w.linkedUser({ languageCode: "id" });
  const release = w.fake.holdNext("sendMessage");
  const first = budi.sendText("halo");
  await vi.waitFor(() => expect(w.fake.callsOf("sendMessage")).toHaveLength(1), REAL_TIME_BOUND);

  const tap = budi.deliver(staleTap(budi, "queued-1"));
  for (let i = 0; i < 5; i++) await ioTurn();
  await w.clock.advance(CALLBACK_ANSWER_BY_MS - 1);
  expect(answersTo("queued-1")).toHaveLength(0);
  await w.clock.advance(1);
  await vi.waitFor(() => expect(answersTo("queued-1")).toHaveLength(1), REAL_TIME_BOUND);
  // Plain: no toast that the handler has not decided yet.
  expect(answersTo("queued-1")[0]!.payload.text).toBeUndefined();

  release();
  await Promise.all([first, tap]);
  expect(answersTo("queued-1")).toHaveLength(1);
  expect(botTexts(budi).at(-1)).toBe(EXPIRED);
  expect(loud()).toEqual([]);
});

it("a tap its handler answers in time: one answer with its toast, no message, nothing left on the clock", async () => {
  const budi = await w.linkedUser({ languageCode: "id" });
  const before = botTexts(budi).length;
  const timers = w.clock.pendingTimers();
  await budi.deliver(staleTap(budi, "prompt-1"));
  expect(answersTo("prompt-1").map((c) => c.payload.text)).toEqual([EXPIRED]);
  expect(botTexts(budi)).toHaveLength(before);
  expect(w.clock.pendingTimers()).toBe(timers);
});

it("an answer Telegram refuses as too old (a burst): no handler fails, nothing logged above info, and what it said arrives as a message", async () => {
  const budi = await w.linkedUser({ languageCode: "id" });
  w.fake.failNext("answerCallbackQuery", { error_code: 400, description: "Bad Request: query is too old and response timeout expired or query ID is invalid" });
  // The language button of a language this start did not load: its handler answers without a catch.
  await budi.deliver(staleTap(budi, "old-1", cb.language.encode({ lang: "xx" })));
  expect(answersTo("old-1")).toHaveLength(1);
  expect(botTexts(budi).at(-1)).toBe(EXPIRED);
  expect(loud()).toEqual([]);
  expect(lines.some((l) => l.level === "debug" && /too old/.test(l.msg))).toBe(true);
});
