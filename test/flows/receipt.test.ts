import { PNG } from "pngjs";
import { afterEach, describe, expect, it } from "vitest";
import { rupiah } from "../../src/render/format.js";
import { pngSize } from "../../src/render/png.js";
import { RECEIPT_WIDTH, SHOP_FOOTER_MAX, SHOP_NAME_MAX } from "../../src/render/receiptImage.js";
import { SANDBOX_CUSTOMERS } from "../../src/sandbox/index.js";
import { detailOf, type TxRecord } from "../../src/store/index.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";
import { pendingPostpaid, run } from "../jobs/support.js";

let w: World;
afterEach(() => w?.close());

const RECEIPT = /^🧾 (Struk|Receipt)$/;

/** The receipt photo the last press sent: decoded fully (not only its header), and its caption. */
function lastReceipt(u: FakeUser): { width: number; height: number; inked: number; caption: string } {
  const bytes = u.lastPhoto();
  const png = PNG.sync.read(bytes);
  expect(pngSize(bytes)).toEqual({ width: png.width, height: png.height });
  let inked = 0; // dark pixels: the text was drawn
  for (let i = 0; i < png.data.length; i += 4) if (png.data[i]! < 100 && png.data[i + 1]! < 100 && png.data[i + 2]! < 100) inked++;
  const photo = u.messages().filter((m) => m.kind === "photo").at(-1)!;
  return { width: png.width, height: png.height, inked, caption: photo.caption ?? "" };
}

/** A sale bought through /beli and settled by the sandbox, as the watcher announces it. */
async function soldThroughBot(u: FakeUser, code: string, target: string): Promise<TxRecord> {
  await u.sendCommand("beli", `${code} ${target}`);
  await u.pressButton(/Konfirmasi|Confirm/);
  const [tx] = (await w.store.listTxByChat(u.chatId)).items;
  await run(w, 10_000);
  expect((await w.store.getTx(tx!.refId))!.status).toBe("success");
  return (await w.store.getTx(tx!.refId))!;
}

async function seedTx(chatId: number, refId: string, status: TxRecord["status"], kind: "prepaid" | "transfer" = "prepaid"): Promise<TxRecord> {
  return await w.store.createTx({
    refId, chatId, kind, status, upstreamId: `P${refId}`, code: "S10", title: "Telkomsel 10.000", target: "081234567890",
    amount: 10_350, sn: status === "success" ? "41029384756102938475" : undefined,
  });
}

/** Presses a button whose data the bot would never show here (a stale or forged one). */
async function pressForged(u: FakeUser, data: string) {
  await w.bot.api.sendMessage(u.chatId, "old message", { reply_markup: { inline_keyboard: [[{ text: "old", callback_data: data }]] } });
  return u.pressButton("old");
}

const toasts = (calls: { method: string; payload: Record<string, unknown> }[]) =>
  calls.filter((c) => c.method === "answerCallbackQuery").map((c) => c.payload.text);

describe("/toko: the shop on customer receipts", () => {
  it("shows how to set it, sets name and footer, keeps the footer when only the name changes, clears", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("toko");
    expect(u.lastReply()).toContain("Nama toko: belum diatur");
    expect(u.lastReply()).toContain("/toko Nama Toko | alamat atau nomor WA");

    await u.sendCommand("toko", "Cell Jaya | Jl. Melati 5, WA 0812-3456-7890");
    expect(u.lastReply()).toContain("Nama toko: Cell Jaya");
    expect(u.lastReply()).toContain("Baris bawah: Jl. Melati 5, WA 0812-3456-7890");
    expect(await w.store.getChat(u.chatId)).toMatchObject({ shopName: "Cell Jaya", shopFooter: "Jl. Melati 5, WA 0812-3456-7890" });

    await u.sendCommand("toko", "Cell Jaya 2");
    expect(await w.store.getChat(u.chatId)).toMatchObject({ shopName: "Cell Jaya 2", shopFooter: "Jl. Melati 5, WA 0812-3456-7890" });
    await u.sendCommand("toko");
    expect(u.lastReply()).toContain("Nama toko: Cell Jaya 2");

    await u.sendCommand("toko", "x".repeat(SHOP_NAME_MAX + 1));
    expect(u.lastReply()).toContain(`maksimal ${SHOP_NAME_MAX} huruf`);
    await u.sendCommand("toko", `Cell Jaya | ${"y".repeat(SHOP_FOOTER_MAX + 1)}`);
    expect(u.lastReply()).toContain(`maksimal ${SHOP_FOOTER_MAX} huruf`);
    expect((await w.store.getChat(u.chatId))?.shopName).toBe("Cell Jaya 2");

    await u.sendCommand("toko", "hapus");
    expect(u.lastReply()).toContain("dihapus");
    expect((await w.store.getChat(u.chatId))?.shopName).toBeUndefined();
    expect((await w.store.getChat(u.chatId))?.shopFooter).toBeUndefined();
  });

  it("works in English as /shop, and HTML in the name is shown as text", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("shop", "<b>Ani & Sons</b>");
    expect(u.lastReply()).toContain("Shop name: <b>Ani & Sons</b>");
    expect(u.lastReply()).toContain("Footer line: not set");
  });
});

describe("🧾 Struk: the customer receipt of a successful sale", () => {
  it("the success notice offers it; the photo is a receipt image with the selling price, never the cost", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("toko", "Cell Jaya | WA 0812-3456-7890");
    const sold = await soldThroughBot(u, "S10", "081234567890");
    // The markup feature fixes the selling price at confirm time; here it is set on the record.
    await w.store.updateTx(sold.refId, { sale: { price: 12_500, profit: 12_500 - sold.amount } });

    // The sale's own message, edited to "success" by the watcher, carries the shop actions.
    const original = w.fake.message(u.chatId, sold.messageId!)!;
    expect(original.text).toContain("Berhasil");
    expect(u.buttons({ messageId: original.messageId })).toContain("🧾 Struk");
    const calls = await u.pressButton(RECEIPT, { messageId: original.messageId });
    expect(toasts(calls)).toEqual([undefined]); // a shop is set: no hint

    const receipt = lastReceipt(u);
    expect(receipt.width).toBe(RECEIPT_WIDTH);
    expect(receipt.height).toBeGreaterThan(400);
    expect(receipt.height).toBeLessThan(1200);
    expect(receipt.inked).toBeGreaterThan(2000);
    expect(receipt.caption).toContain("Cell Jaya");
    expect(receipt.caption).toContain("Total bayar: Rp12.500");
    expect(receipt.caption).not.toContain(rupiah(sold.amount, "id"));
    expect(receipt.caption).not.toContain(rupiah(12_500 - sold.amount, "id")); // nor the profit
    expect(receipt.caption).toContain("081234567890");
    expect(receipt.caption).toContain(`SN): ${sold.sn}`);
    expect(receipt.caption).toContain(sold.refId);
    expect(receipt.caption).toContain("WA 0812-3456-7890");
    expect(receipt.caption).toMatch(/\d{1,2} \w{3} \d{4}, \d{2}\.\d{2} WIB/);
  });

  it("a PLN token is grouped in fours; sold at cost, the price is the cost; no shop: a neutral heading and a hint to /toko", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    const sold = await soldThroughBot(u, "PLN20", "12345678901");
    const digits = sold.sn!.replace(/\D/g, "");
    expect(digits).toHaveLength(20);

    const calls = await u.pressButton(RECEIPT);
    expect(String(toasts(calls)[0])).toContain("/toko");
    const { caption, width } = lastReceipt(u);
    expect(width).toBe(RECEIPT_WIDTH);
    expect(caption).toContain("STRUK PEMBELIAN");
    expect(caption).toContain(`Token listrik: ${digits.match(/\d{4}/g)!.join(" ")}`);
    expect(caption).toContain(`Total bayar: ${rupiah(sold.amount, "id")}`);
  });

  it("a paid bill: the customer's name and the selling price (bill total plus the shop's fee), not the bill total", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "en" });
    const bill = await pendingPostpaid(w, u.chatId, SANDBOX_CUSTOMERS.oneSheet);
    await run(w, 10_000);
    expect((await w.store.getTx(bill.refId))!.status).toBe("success");
    await w.store.updateTx(bill.refId, { sale: { price: bill.amount + 3_000, profit: 3_000 } });

    await u.pressButton(/^🧾 Receipt$/);
    const { caption } = lastReceipt(u);
    expect(caption).toContain("PURCHASE RECEIPT");
    expect(caption).toContain(`Customer ID: ${bill.target}`);
    expect(caption).toContain(`Name: ${detailOf(bill, "postpaid").customerName!}`);
    expect(caption).toContain(`Total: ${rupiah(bill.amount + 3_000, "en")}`);
    expect(caption).not.toContain(rupiah(bill.amount, "en"));
  });

  it("a bill's periods read as months, as on the confirm screen, not as the provider's 202511", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("tagihan");
    await u.pressButton("PLN Pascabayar");
    await u.sendText(SANDBOX_CUSTOMERS.twoSheets);
    expect(u.lastReply()).toContain("• Nov 2025:");
    expect(u.lastReply()).toContain("• Des 2025:");
    await u.pressButton("✅ Konfirmasi");
    await run(w, 10_000);

    await u.pressButton(RECEIPT);
    const { caption } = lastReceipt(u);
    expect(caption).toContain("Periode: Nov 2025, Des 2025");
    expect(caption).not.toMatch(/20251[12]/);

    await u.sendCommand("bahasa");
    await u.pressButton(/English/);
    await u.sendCommand("riwayat");
    await u.pressButton("1");
    await u.pressButton(RECEIPT);
    expect(lastReceipt(u).caption).toContain("Period: Nov 2025, Dec 2025");
  });

  it("a bill period sent as a count of months reads as months on the receipt", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    const bill = await pendingPostpaid(w, u.chatId, SANDBOX_CUSTOMERS.bpjs);
    await run(w, 10_000);
    const detail = detailOf((await w.store.getTx(bill.refId))!, "postpaid");
    await w.store.updateTx(bill.refId, { detail: { ...detail, periods: [{ period: "2", amount: null, admin: null, penalty: null }] } } as never);
    await u.pressButton(RECEIPT);
    expect(lastReceipt(u).caption).toContain("Periode: 2 bulan");
  });

  it("the history entry of a sale or a transfer offers it; failed and pending have none, and a stale button is refused", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const ok = await seedTx(u.chatId, "TXOK0000000000001", "success");
    const failed = await seedTx(u.chatId, "TXFAIL00000000001", "failed");
    const pending = await seedTx(u.chatId, "TXPEND00000000001", "pending");
    const transfer = await seedTx(u.chatId, "TXTF000000000001", "success", "transfer");

    const detailButtons = async (tx: TxRecord) => {
      await u.sendCommand("riwayat");
      const n = u.keyboard().flat().length; // newest first: find the entry's number
      const index = (await w.store.listTxByChat(u.chatId)).items.findIndex((t) => t.refId === tx.refId);
      expect(index).toBeLessThan(n);
      await u.pressButton(String(index + 1));
      return u.buttons();
    };
    expect(await detailButtons(ok)).toContain("🧾 Struk");
    expect(await detailButtons(failed)).not.toContain("🧾 Struk");
    expect(await detailButtons(pending)).not.toContain("🧾 Struk");
    expect(await detailButtons(transfer)).toContain("🧾 Struk");

    await detailButtons(ok);
    await u.pressButton(RECEIPT);
    expect(lastReceipt(u).caption).toContain("Total bayar: Rp10.350");

    // A receipt button left over from when the record looked different: a toast, no photo.
    const photos = () => w.fake.sentTo(u.chatId).filter((c) => c.method === "sendPhoto").length;
    const before = photos();
    for (const tx of [failed, pending]) {
      const calls = await pressForged(u, `rc:${tx.refId}`);
      expect(toasts(calls)).toEqual(["Struk hanya untuk transaksi yang berhasil."]);
    }
    expect(photos()).toBe(before);
  });

  it("a transfer settled by the provider: its notice offers it; the receipt names bank, account, holder, amount, fee and total", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("transfer");
    await u.sendText("bca");
    await u.pressButton(/BCA/);
    await u.sendText("1234567890");
    await u.sendText("50rb");
    await u.pressButton("⏭ Lewati");
    await u.pressButton(/Konfirmasi/);
    const [tx] = (await w.store.listTxByChat(u.chatId)).items;
    await run(w, 10_000);
    const sent = (await w.store.getTx(tx!.refId))!;
    expect(sent).toMatchObject({ status: "success", fee: 2_500, total: 52_500 });

    expect(u.buttons({ messageId: sent.messageId })).toContain("🧾 Struk");
    await u.pressButton(RECEIPT, { messageId: sent.messageId });
    const { caption, inked } = lastReceipt(u);
    expect(inked).toBeGreaterThan(1000);
    for (const part of [
      "BUKTI TRANSFER",
      "Tujuan: Bank Central Asia (BCA)",
      "Nomor rekening: 1234567890",
      `Atas nama: ${detailOf(sent, "transfer").holderName}`,
      "Nominal: Rp50.000",
      "Biaya admin: Rp2.500",
      "Total: Rp52.500",
      sent.refId,
    ]) expect(caption).toContain(part);
    expect(caption).not.toContain("Total bayar");
  });

  it("another chat's reference is answered like an unknown one: no receipt, nothing revealed", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const other = await w.linkedUser({ languageCode: "id" });
    const theirs = await seedTx(other.chatId, "TXOTHER0000000001", "success");
    for (const data of [`rc:${theirs.refId}`, "rc:TXNOSUCH00000001"]) {
      const calls = await pressForged(u, data);
      expect(toasts(calls)).toEqual(["Tombol ini sudah tidak berlaku. Buka /menu untuk mulai lagi."]);
      expect(calls.filter((c) => c.method === "sendPhoto")).toHaveLength(0);
    }
  });

  it("the longest shop name and footer and a long product name still fit Telegram's caption limit", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("toko", `${"Ä".repeat(SHOP_NAME_MAX)} | ${"<&> ".repeat(SHOP_FOOTER_MAX / 4)}`);
    await w.store.createTx({
      refId: "TXLONG00000000001", chatId: u.chatId, kind: "postpaid", status: "success", upstreamId: "P1", code: "PPLN",
      title: "Produk dengan nama yang sangat panjang sekali ".repeat(6), target: "9".repeat(30), amount: 1_250_000,
      sn: "S".repeat(200), detail: { customerName: "N".repeat(200), periods: Array.from({ length: 12 }, (_, i) => ({ period: `2026-${i + 1}`, amount: 1, admin: 1, penalty: 0 })) },
    });
    await u.sendCommand("riwayat");
    await u.pressButton("1");
    await u.pressButton(RECEIPT);
    const { width, caption } = lastReceipt(u); // the strict fake refuses captions over 1024
    expect(width).toBe(RECEIPT_WIDTH);
    expect(caption).toContain("Rp1.250.000");
    expect(caption).toContain("<&>");
  });
});
