/** The network's cast through the built bot: Rina (owner) invites Andi as a Gold downline and funds his wallet by hand. */
import { expect } from "vitest";
import type { Message } from "grammy/types";
import { rupiah } from "../../src/render/format.js";
import type { FakeUser } from "../support/chat.js";
import type { World } from "../support/world.js";

/** Rina (owner) and Andi, who joined by a Gold invitation link. */
export async function rinaAndAndi(w: World): Promise<{ rina: FakeUser; andi: FakeUser }> {
  const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
  const andi = w.user({ firstName: "Andi", languageCode: "id" });
  await rina.sendCommand("downline");
  expect(rina.lastReply()).toContain("Belum ada downline");
  await rina.pressButton(/Undang downline Gold/);
  const token = /start=dl_([A-Za-z0-9_-]+)/.exec(rina.lastReply() ?? "")?.[1];
  expect(token, rina.lastReply()).toBeDefined();
  await andi.sendCommand("start", `dl_${token}`);
  expect(andi.lastReply()).toContain("downline level Gold");
  expect(rina.lastReply()).toContain("Andi bergabung sebagai downline level Gold");
  // The link works once.
  const other = w.user({ firstName: "Budi", languageCode: "id" });
  await other.sendCommand("start", `dl_${token}`);
  expect(other.lastReply()).toContain("sudah dipakai");
  return { rina, andi };
}

/** Rina adds (`way` in) or takes (out) `amount` of Andi's wallet by hand, with a reason, and confirms (twice: a double tap). */
export async function fund(w: World, rina: FakeUser, amount: number, reason = "tunai", way: "in" | "out" = "in"): Promise<void> {
  await rina.sendCommand("downline");
  await rina.pressButton(/Andi/);
  await rina.pressButton(way === "in" ? /Tambah saldo/ : /Ambil saldo/);
  const prompt = rina.messages().at(-1)!;
  await rina.sendMessage({ text: `${amount} ${reason}`, reply_to_message: w.fake.message(rina.chatId, prompt.messageId)!.message as Message as never });
  expect(rina.lastReply()).toContain(way === "in" ? `Tambah ${rupiah(amount, "id")} ke dompet Andi?` : `Ambil ${rupiah(amount, "id")} dari dompet Andi?`);
  const confirm = rina.messages().at(-1)!.messageId;
  await rina.pressButton(/Konfirmasi/, { messageId: confirm });
  await rina.pressButton(/Konfirmasi/, { messageId: confirm }).catch(() => undefined);
}
