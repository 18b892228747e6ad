/**
 * A check of a chat that had blocked the bot reads the chat before its status call. The reseller may
 * unblock and write while that call is under way: the return finds nothing owed yet, and the check then
 * saves its news as owed. The chat must be told then, not at some later message of its own.
 */
import { afterEach, expect, it } from "vitest";
import { TelegramErrors } from "../support/fakeBotApi.js";
import { makeWorld, type World } from "../support/world.js";
import { until } from "../support/settle.js";
import { noticesAbout, pendingQris, run } from "./support.js";

let w: World;
afterEach(() => w?.close());

const S = 1000;
const MIN = 60 * S;

it("a paid QRIS whose check began while the chat blocked the bot is told once the chat has come back meanwhile", async () => {
  w = await makeWorld({ watcher: true });
  const u = await w.linkedUser();
  const dep = await pendingQris(w, u.chatId, "qrisfast");
  // Blocked, and known to be: an earlier message met the 403.
  w.fake.setResponder((method, payload) =>
    payload.chat_id === u.chatId && (method === "sendMessage" || method.startsWith("editMessage")) ? TelegramErrors.blocked() : undefined,
  );
  await w.store.updateChat(u.chatId, { inactive: true });

  w.sandbox.payDeposit(dep.upstreamId!);
  const release = w.sandbox.holdNext("/deposit/status");
  const asked = w.sandbox.calls("/deposit/status").length;
  // Clock steps with real time between them: on PostgreSQL the check's reads land in real time, and
  // 100 bare clock steps could all pass before it reached the provider.
  await until(() => w.sandbox.calls("/deposit/status").length > asked, { clocks: [w.clock], stepMs: S, realMs: 5, tries: 300, what: "the status check never started" });
  expect(w.sandbox.calls("/deposit/status").length).toBe(asked + 1);

  // While the provider's answer is on its way, the reseller unblocks the bot and writes.
  w.fake.setResponder(undefined);
  await u.sendCommand("saldo");
  release();
  await run(w, 30 * S);
  expect(await w.store.getTx(dep.refId)).toMatchObject({ status: "success" });
  expect(noticesAbout(w, u.chatId, dep.refId)).toHaveLength(1);
  // Its next message, and later, bring nothing twice.
  await u.sendCommand("saldo");
  await run(w, 30 * MIN);
  expect(noticesAbout(w, u.chatId, dep.refId)).toHaveLength(1);
});
