import { afterEach, describe, expect, it } from "vitest";
import type { TxRecord } from "../../src/store/index.js";
import { makeWorld, type World } from "../support/world.js";

let w: World;
afterEach(() => w?.close());

/** `n` transactions a minute apart: T01 oldest ... Tnn newest, cycling through kinds and statuses. */
async function seed(chatId: number, n: number): Promise<TxRecord[]> {
  const kinds = ["prepaid", "postpaid", "transfer", "deposit"] as const;
  const statuses = ["success", "failed", "pending", "success", "expired"] as const;
  const t0 = w.clock.now() - n * 60_000;
  const out: TxRecord[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      await w.store.createTx({
        refId: `TX260115C${chatId}T${String(i + 1).padStart(2, "0")}`,
        chatId,
        kind: kinds[i % 4]!,
        status: kinds[i % 4] === "deposit" ? statuses[i % 5]! : statuses[i % 3]!,
        upstreamId: `P${1000 + i}`,
        title: `Item ${String(i + 1).padStart(2, "0")}`,
        target: `0812${String(i).padStart(6, "0")}`,
        amount: 10_000 + i * 1_000,
        sn: i % 3 === 0 ? `SN${i}` : undefined,
        createdAt: t0 + i * 60_000,
        updatedAt: t0 + i * 60_000 + 30_000,
      }),
    );
  }
  return out;
}

describe("/riwayat", () => {
  it("says when there is nothing yet", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("riwayat");
    expect(u.lastReply()).toContain("Belum ada transaksi");
  });

  it("lists newest first, 10 per page with next/prev, skipping drafts never confirmed", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await seed(u.chatId, 23);
    // Never confirmed: a draft, and a confirm screen cancelled (no provider id). Not history.
    await w.store.createTx({ refId: "TX260115DRAFT0001", chatId: u.chatId, kind: "prepaid", status: "draft", title: "Draft", amount: 1 });
    await w.store.createTx({ refId: "TX260115CANCEL001", chatId: u.chatId, kind: "prepaid", status: "cancel", title: "Cancelled draft", amount: 1 });
    // A deposit cancelled at the provider is history.
    await w.store.createTx({ refId: "TX260115DPCANCEL1", chatId: u.chatId, kind: "deposit", status: "cancel", upstreamId: "D1", title: "QRIS", amount: 50_000 });
    // Another chat's transactions never show.
    const other = await w.linkedUser();
    await seed(other.chatId, 3);

    await u.sendCommand("history");
    let text = u.lastReply()!;
    expect(text).toContain("page 1 of 3");
    expect(text).not.toContain("Draft");
    expect(text).not.toContain("Cancelled draft");
    const lines = text.split("\n").filter((l) => /^\d+\. /.test(l));
    expect(lines).toHaveLength(10);
    expect(lines[0]).toMatch(/^1\. 🏦 QRIS · Rp50,000 · 🚫 Cancelled/);
    expect(lines[1]).toContain("Item 23");
    expect(lines[1]).toContain("Rp32,000");
    expect(lines[1]).toContain("0812000022");
    expect(lines[9]).toContain("Item 15");
    expect(u.keyboard()).toEqual([["1", "2", "3", "4", "5"], ["6", "7", "8", "9", "10"], ["Next ➡️"]]);

    const listMessage = u.messages().at(-1)!.messageId;
    await u.pressButton("Next ➡️");
    text = u.lastReply()!;
    expect(u.messages().at(-1)!.messageId).toBe(listMessage); // edited in place
    expect(text).toContain("page 2 of 3");
    expect(text).toContain("11. ");
    expect(text).toContain("Item 14");
    expect(u.keyboard().at(-1)).toEqual(["⬅️ Previous", "Next ➡️"]);

    await u.pressButton("Next ➡️");
    text = u.lastReply()!;
    expect(text).toContain("page 3 of 3");
    expect(text.split("\n").filter((l) => /^\d+\. /.test(l))).toHaveLength(4);
    expect(text).toContain("Item 01");
    expect(u.keyboard()).toEqual([["21", "22", "23", "24"], ["⬅️ Previous"]]);

    await u.pressButton("⬅️ Previous");
    expect(u.lastReply()).toContain("page 2 of 3");
  });

  it("a tap shows the details: receipt with ids, serial number, price and times; other chats' refs are refused", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const txs = await seed(u.chatId, 4);
    const newest = txs[3]!; // deposit, success
    const sold = txs[0]!; // prepaid, success, with sn

    await u.sendCommand("riwayat");
    await u.pressButton("4");
    let text = u.lastReply()!;
    expect(text).toContain("Detail transaksi");
    expect(text).toContain(sold.refId);
    expect(text).toContain(sold.upstreamId!);
    expect(text).toContain("SN0");
    expect(text).toContain("Rp10.000");
    expect(text).toContain("Berhasil");
    expect(text).toContain("Diperbarui");
    // A successful sale offers the shop actions (render/saleActions.ts) and the way back; no status check.
    expect(u.buttons()).toEqual(["🧾 Struk", "🔁 Beli lagi", "📋 Salin SN", "💾 Simpan pelanggan", "⬅️ Riwayat"]);

    await u.sendCommand("riwayat");
    await u.pressButton("1");
    text = u.lastReply()!;
    expect(text).toContain(newest.refId);

    // An open one offers a status check.
    await u.sendCommand("riwayat");
    await u.pressButton("2"); // Item 03, transfer, pending
    expect(u.buttons()).toEqual(["🔄 Cek status", "⬅️ Riwayat"]);
    await u.pressButton("⬅️ Riwayat");
    expect(u.lastReply()).toContain("halaman 1 dari 1");

    // Someone else's reference in a forged button: nothing revealed.
    const stranger = await w.linkedUser({ languageCode: "en" });
    await w.bot.api.sendMessage(stranger.chatId, "forged", { reply_markup: { inline_keyboard: [[{ text: "peek", callback_data: `hd:${sold.refId}` }]] } });
    const calls = await stranger.pressButton("peek");
    expect(String(calls.find((c) => c.method === "answerCallbackQuery")!.payload.text)).toContain("no longer valid");
    expect(calls.filter((c) => c.method === "sendMessage")).toHaveLength(0);
  });

  it("a double tap on Next turns the page once: no second list message", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await seed(u.chatId, 12);
    await u.sendCommand("history");
    const before = u.messages().length;
    const tap = u.callbackUpdate("Next ➡️");
    await u.deliver(tap);
    await u.deliver(tap); // the same button again, before the edit reached the phone
    expect(u.messages()).toHaveLength(before);
    expect(u.lastReply()).toContain("page 2 of 2");
  });

  it("the menu entry opens the history", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await seed(u.chatId, 2);
    await u.sendCommand("menu");
    await u.pressButton("📜 Riwayat");
    expect(u.lastReply()).toContain("Riwayat transaksi");
  });
});
