/**
 * A notice whose delivery is uncertain (Telegram answered 5xx, or timed out) is tried again soon, the
 * original message edited first (the notice may have gone out): once Telegram answers again, the
 * reseller sees the outcome within seconds, not half a minute later.
 */
import { afterEach, expect, it } from "vitest";
import { apiError } from "../support/fakeBotApi.js";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, pendingPrepaid, run } from "./support.js";

let w: World;
afterEach(() => w?.close());

const S = 1000;

it("a success whose notice met Telegram's 502 shows on the sale's message within 10 s of Telegram answering again", async () => {
  w = await makeWorld({ watcher: true });
  const u = await w.linkedUser();
  const tx = await pendingPrepaid(w, u.chatId, "081234567890");
  w.fake.setResponder((method, payload) =>
    payload.chat_id === u.chatId && (method === "sendMessage" || method.startsWith("editMessage")) ? apiError(502, "Bad Gateway") : undefined,
  );
  await run(w, 6 * S); // the sandbox settles at 5 s: the check sees success, its edit and notice meet the 502
  const shown = () => w.fake.message(u.chatId, tx.messageId!)?.text ?? "";
  expect(shown()).toContain("pending");
  w.fake.setResponder(undefined);
  await run(w, 10 * S);
  expect(shown()).toContain("Berhasil");
  expect(noticesAbout(w, u.chatId, tx.refId).length).toBeLessThanOrEqual(1);
});
