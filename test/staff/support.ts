/** Staff scenes through the built bot: an owner (Rina) invites a cashier (Dewi) with a real invitation link. */
import type { Update } from "grammy/types";
import { expect } from "vitest";
import type { FakeUser } from "../support/chat.js";
import type { World } from "../support/world.js";

/** Rina asks /staf for an invitation link of `role` and returns its token. */
export async function inviteToken(owner: FakeUser, role: "cashier" | "admin"): Promise<string> {
  await owner.sendCommand("staf");
  await owner.pressButton(role === "cashier" ? /Undang kasir|Invite a cashier/ : /Undang admin|Invite a shop admin/);
  const token = /start=staff_([A-Za-z0-9_-]+)/.exec(owner.lastReply() ?? "")?.[1];
  expect(token, owner.lastReply()).toBeDefined();
  return token!;
}

/** An owner with a linked key and a staff member of `role` who joined by the link. */
export async function ownerAndStaff(w: World, role: "cashier" | "admin" = "cashier"): Promise<{ rina: FakeUser; dewi: FakeUser }> {
  const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
  const dewi = w.user({ firstName: "Dewi", languageCode: "id" });
  const token = await inviteToken(rina, role);
  await dewi.sendCommand("start", `staff_${token}`);
  expect(dewi.lastReply()).toContain(role === "cashier" ? "kasir" : "admin toko");
  return { rina, dewi };
}

/** A staff member leaves: /keluar, then its confirm button. */
export async function leaveStaff(u: FakeUser): Promise<void> {
  await u.sendCommand("keluar");
  await u.pressButton(/Ya, berhenti|Yes, stop/);
}

/** A callback query with any data, pressed under the chat's newest message (a forged button). */
export function forgedButton(w: World, user: FakeUser, data: string): Update {
  const newest = user.messages().at(-1)!;
  const message = w.fake.message(user.chatId, newest.messageId)!.message;
  return {
    update_id: w.fake.nextUpdateId(),
    callback_query: { id: `forged${w.fake.nextUpdateId()}`, from: user.user, message, chat_instance: "1", data },
  } as Update;
}

/** The text of the last callback answer the bot gave. */
export function lastCallbackAnswer(w: World): string {
  const answers = w.fake.callsOf("answerCallbackQuery");
  return String(answers.at(-1)?.payload.text ?? "");
}
