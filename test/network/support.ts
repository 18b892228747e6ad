/** A network through the built bot: an owner invites downlines by link and funds their wallets by hand. */
import { expect } from "vitest";
import type { Message } from "grammy/types";
import { rupiah } from "../../src/render/format.js";
import type { FakeUser } from "../support/chat.js";
import type { World } from "../support/world.js";

/** A new chat named `name` that joins `owner`'s network by an invitation link of `level`. */
export async function joinAs(w: World, owner: FakeUser, name: string, level = "Gold"): Promise<FakeUser> {
  const u = w.user({ firstName: name, languageCode: "id" });
  await owner.sendCommand("downline");
  await owner.pressButton(new RegExp(`Undang downline ${level}`));
  const token = /start=dl_([A-Za-z0-9_-]+)/.exec(owner.lastReply() ?? "")?.[1];
  expect(token, owner.lastReply()).toBeDefined();
  // The link's expiry says WIB once (it read "13.00 WIB WIB").
  expect(owner.lastReply()).not.toContain("WIB WIB");
  await u.sendCommand("start", `dl_${token}`);
  expect(u.lastReply()).toContain(`downline level ${level}`);
  return u;
}

/** The owner adds (`way` in) or takes (out) `amount` of `name`'s wallet by hand, with a reason, and confirms (twice: a double tap). */
export async function fund(w: World, owner: FakeUser, name: string, amount: number, reason = "tunai", way: "in" | "out" = "in"): Promise<void> {
  await owner.sendCommand("downline");
  await owner.pressButton(new RegExp(`^${name}`));
  // The card's times say WIB once (it once read "10.00 WIB WIB").
  expect(owner.lastReply()).not.toContain("WIB WIB");
  await owner.pressButton(way === "in" ? /Tambah saldo/ : /Ambil saldo/);
  const prompt = owner.messages().at(-1)!;
  await owner.sendMessage({ text: `${amount} ${reason}`, reply_to_message: w.fake.message(owner.chatId, prompt.messageId)!.message as Message as never });
  expect(owner.lastReply()).toContain(way === "in" ? `Tambah ${rupiah(amount, "id")} ke dompet ${name}?` : `Ambil ${rupiah(amount, "id")} dari dompet ${name}?`);
  const confirm = owner.messages().at(-1)!.messageId;
  await owner.pressButton(/Konfirmasi/, { messageId: confirm });
  await owner.pressButton(/Konfirmasi/, { messageId: confirm }).catch(() => undefined);
}

/** Rina (owner) and Andi, who joined by a Gold invitation link (which then works no more). */
export async function rinaAndAndi(w: World): Promise<{ rina: FakeUser; andi: FakeUser }> {
  const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
  await rina.sendCommand("downline");
  expect(rina.lastReply()).toContain("Belum ada downline");
  const andi = await joinAs(w, rina, "Andi", "Gold");
  expect(rina.lastReply()).toContain("Andi bergabung sebagai downline level Gold");
  const token = /start=dl_([A-Za-z0-9_-]+)/.exec(rina.messages().filter((m) => m.text?.includes("start=dl_")).at(-1)?.text ?? "")?.[1];
  const other = w.user({ firstName: "Budi", languageCode: "id" });
  await other.sendCommand("start", `dl_${token}`);
  expect(other.lastReply()).toContain("sudah dipakai");
  return { rina, andi };
}

export const CREATE = "/transaksi/create";
/** Gold's default markup (domain/network.ts DEFAULT_LEVELS). */
export const GOLD_MARKUP = 1000;

export async function costOf(w: World, code: string): Promise<number> {
  const list = await w.app.upstream.prepaidPriceList(w.demoKey, code);
  return list.find((p) => p.code === code)!.price;
}

/** A downline's purchase entries (`<ref>:d`) for one record. */
export async function debitsOf(w: World, chat: number, refId: string): Promise<number> {
  return (await w.app.deps.wallets.entries(chat, { limit: 500 })).filter((e) => e.ref === `${refId}:d`).length;
}
