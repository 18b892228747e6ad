/**
 * A purchase's "in process" receipt held by a slow Telegram while the watcher settles the purchase and
 * tells it (a full notice: the record had no message yet). When the held receipt finally lands it is
 * outdated: it must not become the purchase's message, nor stay in the chat under the success saying
 * "in process" with a status button.
 */
import { afterEach, expect, it } from "vitest";
import { until } from "../support/settle.js";
import { makeWorld, type World } from "../support/world.js";
import { run } from "./support.js";

let w: World;
afterEach(() => w?.close());

it("the late receipt of a purchase told meanwhile is taken back; the success stands, told once", async () => {
  w = await makeWorld({ watcher: true });
  const u = await w.linkedUser({ languageCode: "en" });
  await u.sendCommand("topup", "S10 081234567890");
  const release = w.fake.holdNext("sendMessage");
  const pressed = u.pressButton(/Confirm/);
  const receiptCall = () => w.fake.callsOf("sendMessage").find((c) => c.payload.chat_id === u.chatId && /will tell you when the status changes/.test(String(c.payload.text)));
  await until(() => receiptCall() !== undefined, { what: "the receipt was never sent" });
  await until(async () => (await w.store.listTxByChat(u.chatId)).items[0]?.status === "pending", { what: "the purchase was never saved as pending" });
  await run(w, 30_000);
  const [told] = (await w.store.listTxByChat(u.chatId)).items;
  expect(told!.status).toBe("success");
  expect(told!.watch?.notified).toBe("success");
  release();
  await pressed;
  const late = (receiptCall()!.response as { result: { message_id: number } }).result;
  const [after] = (await w.store.listTxByChat(u.chatId)).items;
  expect(after!.messageId).not.toBe(late.message_id);
  expect(w.fake.message(u.chatId, late.message_id)?.deleted).toBe(true);
  const successes = w.fake.sentTo(u.chatId).filter((c) => c.method === "sendMessage" && /Transaction successful/.test(String(c.payload.text)));
  expect(successes).toHaveLength(1);
  await run(w, 30_000);
  expect(w.fake.sentTo(u.chatId).filter((c) => c.method === "sendMessage" && /Transaction successful/.test(String(c.payload.text)))).toHaveLength(1);
});
