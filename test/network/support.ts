/**
 * The network's black-box steps, shared by its tests: Rina (owner) invites Andi as a Gold downline, and
 * funds his wallet by hand through her /downline screens, as a user would.
 */
import { expect } from "vitest";
import type { Message } from "grammy/types";
import { rupiah } from "../../src/render/format.js";
import type { FakeUser } from "../support/chat.js";
import type { World } from "../support/world.js";

export const CREATE = "/transaksi/create";
/** Gold's default markup (domain/network.ts DEFAULT_LEVELS). */
export const GOLD_MARKUP = 1000;

export async function costOf(w: World, code: string): Promise<number> {
  const list = await w.app.upstream.prepaidPriceList(w.demoKey, code);
  return list.find((p) => p.code === code)!.price;
}

/** Rina (owner) and Andi, who joined by a Gold invitation link (which works once). */
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
  const other = w.user({ firstName: "Budi", languageCode: "id" });
  await other.sendCommand("start", `dl_${token}`);
  expect(other.lastReply()).toContain("sudah dipakai");
  return { rina, andi };
}

/** Rina adds `amount` to Andi's wallet by hand, with a reason, and confirms (twice: a double tap). */
export async function fund(w: World, rina: FakeUser, amount: number, reason = "tunai"): Promise<void> {
  await rina.sendCommand("downline");
  await rina.pressButton(/Andi/);
  await rina.pressButton(/Tambah saldo/);
  const prompt = rina.messages().at(-1)!;
  await rina.sendMessage({ text: `${amount} ${reason}`, reply_to_message: w.fake.message(rina.chatId, prompt.messageId)!.message as Message as never });
  expect(rina.lastReply()).toContain(`Tambah ${rupiah(amount, "id")} ke dompet Andi?`);
  const confirm = rina.messages().at(-1)!.messageId;
  await rina.pressButton(/Konfirmasi/, { messageId: confirm });
  await rina.pressButton(/Konfirmasi/, { messageId: confirm }).catch(() => undefined);
}

/** Andi's purchase entries (`<ref>:d`) for one record, and whether its hold is still there. */
export async function debitsOf(w: World, chat: number, refId: string): Promise<number> {
  return (await w.app.deps.wallets.entries(chat, { limit: 500 })).filter((e) => e.ref === `${refId}:d`).length;
}
