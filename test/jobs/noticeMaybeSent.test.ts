/**
 * A notice that may have gone out (its marker survived: Telegram timed out after delivering it, or the
 * process stopped before its last write) is retried by editing the original message. When that edit
 * meets a passing fault (5xx, a timeout, 429), the notice must not be sent again: the edit is tried
 * again later. Only an original that cannot show the outcome for good (none, deleted) brings a repeat.
 */
import { afterEach, expect, it } from "vitest";
import type { WatchState } from "../../src/store/index.js";
import { TelegramErrors } from "../support/fakeBotApi.js";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, pendingPrepaid, run } from "./support.js";

let w: World;
afterEach(() => w?.close());

const S = 1000;
const MIN = 60 * S;

it.each([
  ["502", TelegramErrors.internal()],
  ["429", TelegramErrors.tooManyRequests(2)],
])("a notice that went out, its edit on the retry meeting a %s: the edit is tried again, no second notice", async (_name, fault) => {
  w = await makeWorld({ watcher: true });
  const u = await w.linkedUser();
  const tx = await pendingPrepaid(w, u.chatId, "081234567890");
  await run(w, 10 * S);
  expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);

  // As a Telegram timeout after delivery, or a stop before the last write, leaves it: "maybe sent".
  const cur = (await w.store.getTx(tx.refId))!;
  await w.store.updateTx(tx.refId, { status: "pending", watch: { ...cur.watch, notified: "pending", announcing: "success" } as WatchState });
  await w.store.flush();
  await w.restart();
  w.fake.failNext("editMessageText", fault, { chatId: u.chatId });
  await run(w, 5 * MIN);

  expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "success", watch: { notified: "success" } });
  expect(noticesAbout(w, u.chatId, tx.refId)).toHaveLength(1);
  expect(w.fake.message(u.chatId, tx.messageId!)!.text).toContain("Berhasil");
});
