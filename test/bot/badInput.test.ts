/**
 * Input a bot meets from a broken client or from Telegram itself: a message whose text is null, a
 * button pressed so long ago that Telegram no longer takes its answer. Neither is an error: no
 * handler fails, nothing is logged at warn or above.
 */
import type { Update } from "grammy/types";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createLogger } from "../../src/logging/logger.js";
import { makeWorld, type World } from "../support/world.js";

let w: World;
let lines: { level: string; msg: string }[] = [];
beforeEach(async () => {
  lines = [];
  const logger = createLogger("debug", { write: (line: string) => void lines.push(JSON.parse(line) as { level: string; msg: string }) });
  w = await makeWorld({ logger });
});
afterEach(() => w.close());

const loud = () => lines.filter((l) => !["debug", "info", "trace"].includes(l.level));

it.each([
  ["text null", { text: null }],
  ["text and caption null", { text: null, caption: null }],
])("a message with %s from a chat with a linked key: no handler fails, nothing is logged as an error", async (_name, fields) => {
  const budi = await w.linkedUser({ languageCode: "id" });
  const update = budi.textUpdate("halo");
  Object.assign(update.message!, fields);
  await budi.deliver(update);
  expect(loud()).toEqual([]);
});

it("a stale button whose answer Telegram refuses (400 query is too old): ignored quietly, at debug level", async () => {
  const budi = await w.linkedUser({ languageCode: "id" });
  w.fake.failNext("answerCallbackQuery", { error_code: 400, description: "Bad Request: query is too old and response timeout expired or query ID is invalid" });
  const stale = {
    update_id: w.fake.nextUpdateId(),
    callback_query: { id: "stale-1", from: budi.user, chat_instance: "1", data: "gone:button" },
  } as Update;
  await budi.deliver(stale);
  expect(w.fake.callsOf("answerCallbackQuery")).toHaveLength(1);
  expect(loud()).toEqual([]);
  expect(lines.some((l) => l.level === "debug" && /too old/.test(l.msg))).toBe(true);
});
