/**
 * A notice that finds the chat blocked (403) is owed to the chat's return. The reseller may unblock
 * and write while that very check is still saving what it learned: right after the chat was marked
 * inactive, before the outcome was saved. The outcome must still reach the chat, once.
 */
import { afterEach, expect, it } from "vitest";
import { TelegramErrors } from "../support/fakeBotApi.js";
import { makeWorld, type World } from "../support/world.js";
import type { ChatPatch } from "../../src/store/index.js";
import { noticesAbout, pendingQris, run } from "./support.js";

let w: World;
afterEach(() => w?.close());

const S = 1000;
const MIN = 60 * S;

it("a paid QRIS whose notice met a 403 is told once when the chat returns while that check is still saving", async () => {
  w = await makeWorld({ watcher: true });
  const u = await w.linkedUser();
  const dep = await pendingQris(w, u.chatId, "qrisfast");
  w.fake.setResponder((method, payload) =>
    payload.chat_id === u.chatId && (method === "sendMessage" || method.startsWith("editMessage")) ? TelegramErrors.blocked() : undefined,
  );
  // The reseller unblocks the bot and writes the moment the watcher marks the chat inactive.
  const store = w.store;
  const updateChat = store.updateChat.bind(store);
  let returned = false;
  store.updateChat = async (chatId: number, patch: ChatPatch) => {
    const saved = await updateChat(chatId, patch);
    if (chatId === u.chatId && patch.inactive === true && !returned) {
      returned = true;
      w.fake.setResponder(undefined);
      await u.sendCommand("saldo");
    }
    return saved;
  };

  w.sandbox.payDeposit(dep.upstreamId!);
  await run(w, 30 * S);
  expect(returned).toBe(true);
  expect(await w.store.getTx(dep.refId)).toMatchObject({ status: "success" });
  // Its next message, and later, bring nothing twice.
  await u.sendCommand("saldo");
  await run(w, 30 * MIN);
  expect(noticesAbout(w, u.chatId, dep.refId)).toHaveLength(1);
  expect(w.fake.message(u.chatId, dep.messageId!)!.caption).toContain("LUNAS");
});
