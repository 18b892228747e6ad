/**
 * A staff member's sale is told in that person's chat: when that chat has blocked the bot, the notice
 * is owed to it (not to the owner) and sent once when it comes back.
 */
import type { Update } from "grammy/types";
import { afterEach, expect, it } from "vitest";
import type { FakeUser } from "../support/chat.js";
import { TelegramErrors } from "../support/fakeBotApi.js";
import { makeWorld, type World } from "../support/world.js";
import { noticesAbout, run } from "../jobs/support.js";
import { ownerAndStaff } from "./support.js";

let w: World;
afterEach(() => w?.close());

/** Telegram's my_chat_member update: the user blocked (kicked) or unblocked (member) the bot. */
function memberUpdate(u: FakeUser, to: "member" | "kicked"): Update {
  const bot = { id: 999, is_bot: true, first_name: "Bot", username: "ppob_test_bot" };
  const kicked = { status: "kicked", user: bot, until_date: 0 };
  const member = { status: "member", user: bot };
  return {
    update_id: w.fake.nextUpdateId(),
    my_chat_member: {
      chat: u.chat,
      from: u.user,
      date: Math.floor(w.clock.now() / 1000),
      old_chat_member: to === "kicked" ? member : kicked,
      new_chat_member: to === "kicked" ? kicked : member,
    },
  } as Update;
}

/** The success notices about `refId` sent to `u` (the sale's own messages carry the reference too). */
function successNotices(u: FakeUser, refId: string): string[] {
  return noticesAbout(w, u.chatId, refId).filter((t) => t.includes("Transaksi berhasil"));
}

/** Dewi sells; the sale is pending at the provider. Its reference. */
async function pendingSale(dewi: FakeUser, rina: FakeUser): Promise<string> {
  await dewi.sendCommand("beli", "S10 081234567890");
  await dewi.pressButton(/Konfirmasi/);
  const [tx] = (await w.store.listTxByChat(rina.chatId)).items;
  expect(tx).toMatchObject({ status: "pending", by: dewi.chatId });
  return tx!.refId;
}

it("a cashier's chat that answers 403 is owed the notice, and gets it once when it unblocks; the owner is told nothing", async () => {
  w = await makeWorld({ watcher: true });
  const { rina, dewi } = await ownerAndStaff(w);
  const refId = await pendingSale(dewi, rina);
  w.fake.setResponder((method, payload) =>
    payload.chat_id === dewi.chatId && (method === "sendMessage" || method.startsWith("editMessage")) ? TelegramErrors.blocked() : undefined,
  );
  await run(w, 10_000);
  expect((await w.store.getTx(refId))!.status).toBe("success");
  expect((await w.store.getChat(dewi.chatId))!.inactive).toBe(true);
  expect(successNotices(dewi, refId)).toHaveLength(0);
  expect((await w.store.getChat(rina.chatId))!.owedNotices).toBeUndefined();

  w.fake.setResponder(undefined);
  await dewi.deliver(memberUpdate(dewi, "member"));
  await w.watcher!.whenIdle();
  expect(successNotices(dewi, refId)).toHaveLength(1);
  expect(successNotices(rina, refId)).toHaveLength(0);
  // Nothing is owed any more.
  await dewi.sendCommand("bantuan");
  await rina.sendCommand("bantuan");
  await w.watcher!.whenIdle();
  expect(successNotices(dewi, refId)).toHaveLength(1);
  expect((await w.store.getTx(refId))!.watch).not.toHaveProperty("owed");
});

it("a cashier who blocked the bot before the outcome is not even tried; its next message brings the notice", async () => {
  w = await makeWorld({ watcher: true });
  const { rina, dewi } = await ownerAndStaff(w);
  const refId = await pendingSale(dewi, rina);
  await dewi.deliver(memberUpdate(dewi, "kicked"));
  const triedBefore = w.fake.sentTo(dewi.chatId).length;
  await run(w, 10_000);
  expect((await w.store.getTx(refId))!.status).toBe("success");
  expect(w.fake.sentTo(dewi.chatId)).toHaveLength(triedBefore);

  await dewi.sendCommand("status");
  await w.watcher!.whenIdle();
  expect(successNotices(dewi, refId)).toHaveLength(1);
});

it("when owner and cashier both blocked the bot, the owner's return does not use up the cashier's notice", async () => {
  w = await makeWorld({ watcher: true });
  const { rina, dewi } = await ownerAndStaff(w);
  const refId = await pendingSale(dewi, rina);
  await dewi.deliver(memberUpdate(dewi, "kicked"));
  await rina.deliver(memberUpdate(rina, "kicked"));
  await run(w, 10_000);
  expect((await w.store.getTx(refId))!.status).toBe("success");

  await rina.sendCommand("saldo");
  await w.watcher!.whenIdle();
  expect(successNotices(dewi, refId)).toHaveLength(0);
  expect(successNotices(rina, refId)).toHaveLength(0);

  await dewi.sendCommand("bantuan");
  await w.watcher!.whenIdle();
  expect(successNotices(dewi, refId)).toHaveLength(1);
});
