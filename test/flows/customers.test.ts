import { afterEach, describe, expect, it } from "vitest";
import { rupiah } from "../../src/render/format.js";
import { SANDBOX_CUSTOMERS } from "../../src/sandbox/index.js";
import { newRefId } from "../../src/bot/money/refs.js";
import { CUSTOMERS_MAX } from "../../src/bot/savedCustomers.js";
import type { NewTx } from "../../src/store/index.js";
import type { TxRecord } from "../../src/store/index.js";
import type { RecordedCall } from "../support/fakeBotApi.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";
import { run } from "../jobs/support.js";
import { saleActionRows } from "../../src/render/saleActions.js";

const CREATE = "/transaksi/create";
const INQUIRY = "/transaksi/tagihan";
const CONFIRM = /^✅ (Konfirmasi|Confirm)$/;
/** The sandbox answers a target ending in "5555" successful at once (src/sandbox/rules.ts). */
const SUCCESS_AT_ONCE = "081234565555";

let w: World;
afterEach(() => w?.close());

async function txs(u: FakeUser): Promise<readonly TxRecord[]> {
  return (await w.store.listTxByChat(u.chatId, { limit: 100 })).items;
}

/** The toast a button press was answered with ("" when none). */
function toast(calls: RecordedCall[]): string {
  const answers = calls.filter((c) => c.method === "answerCallbackQuery");
  expect(answers).toHaveLength(1);
  return String(answers[0]!.payload.text ?? "");
}

/** /beli CODE TARGET, Confirm, and the watcher sees it succeed: the sale's record. */
async function sell(u: FakeUser, target: string, code = "S10"): Promise<TxRecord> {
  await u.sendCommand("beli", `${code} ${target}`);
  await u.pressButton(CONFIRM);
  const [tx] = await txs(u);
  await run(w, 10_000);
  const done = (await w.store.getTx(tx!.refId))!;
  expect(done.status).toBe("success");
  return done;
}

/** A finished record as the engine leaves it (for kinds whose flow is not the point of a test). */
async function recorded(u: FakeUser, tx: Omit<NewTx, "refId" | "chatId">): Promise<TxRecord> {
  await w.clock.advance(1000); // one after the other, as in a real day
  const refId = newRefId(tx.kind, w.clock.now());
  const saved = await w.store.createTx({ ...tx, refId, chatId: u.chatId } as NewTx);
  const rows = saleActionRows(w.deps.translate, (await w.store.getChat(u.chatId))?.lang ?? "id", saved);
  const sent = await w.bot.api.sendMessage(u.chatId, "receipt", rows.length > 0 ? { reply_markup: { inline_keyboard: rows } } : {});
  const shown = await w.store.updateTx(refId, { messageId: sent.message_id });
  await w.store.flush();
  return shown;
}

/** Opens a history entry: /riwayat and the number of the newest line. */
async function openHistoryEntry(u: FakeUser): Promise<void> {
  await u.sendCommand("riwayat");
  await u.pressButton("1");
}

describe("buy again", () => {
  it("under a success notice: a fresh confirm screen at today's price with a new reference; confirming creates once", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    const first = await sell(u, "081234567890");
    const original = first.messageId!;
    expect(u.buttons({ messageId: original })).toEqual(["🧾 Struk", "🔁 Beli lagi", "📋 Salin SN", "💾 Simpan pelanggan"]);

    // The price went up since: the new screen shows today's price.
    const today = first.amount + 150;
    w.sandbox.setPrice("S10", today);
    const doubleAgain = u.callbackUpdate("🔁 Beli lagi", { messageId: original });
    await u.pressButton("🔁 Beli lagi", { messageId: original });
    const screen = u.lastReply()!;
    expect(toast(await u.deliver(doubleAgain))).toContain("Layar konfirmasinya sudah ada di atas");
    expect((await txs(u)).filter((t) => t.status === "draft")).toHaveLength(1);
    expect(screen).toContain("Periksa sebelum konfirmasi");
    expect(screen).toContain("Tujuan: 081234567890");
    expect(screen).toContain(`Harga modal: ${rupiah(today, "id")}`);
    const draft = (await txs(u)).find((t) => t.status === "draft")!;
    expect(draft).toMatchObject({ kind: "prepaid", code: "S10", target: "081234567890", amount: today });
    expect(draft.refId).not.toBe(first.refId);
    expect(screen).toContain(draft.refId);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);

    const doubleTap = u.callbackUpdate(CONFIRM);
    await u.pressButton(CONFIRM);
    await u.deliver(doubleTap);
    const creates = w.sandbox.calls(CREATE);
    expect(creates).toHaveLength(2);
    expect(creates[1]!.body).toMatchObject({ reff_id: draft.refId, target: "081234567890", limit_price: String(today) });
    expect((await w.store.getTx(draft.refId))!.status).toBe("pending");

    // Again while that one is still open: the usual duplicate-purchase question first.
    await u.pressButton("🔁 Beli lagi", { messageId: original });
    expect(u.lastReply()).toContain("Sudah ada pembelian Telkomsel 10.000 untuk 081234567890");
    expect(u.buttons()).toEqual(["🔁 Ya, beli lagi", "❌ Batal"]);
    expect(w.sandbox.calls(CREATE)).toHaveLength(2);
  });

  it("a sale the provider answers as successful at once shows the shop actions on its receipt", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("topup", `S10 ${SUCCESS_AT_ONCE}`);
    await u.pressButton(CONFIRM);
    const [tx] = await txs(u);
    expect(tx!.status).toBe("success");
    expect(u.buttons({ messageId: tx!.messageId })).toEqual(["🧾 Receipt", "🔁 Buy again", "📋 Copy SN", "💾 Save customer"]);
  });

  it("from a history entry of a bill: a fresh inquiry under a new saved reference, then its confirm; a paid bill says so", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    const bill = await recorded(u, {
      kind: "postpaid", status: "success", code: "PPLN", title: "PLN Pascabayar", target: SANDBOX_CUSTOMERS.twoSheets, amount: 250_000,
    });
    await openHistoryEntry(u);
    // A paid bill cannot be paid twice: its button checks the bill anew (next month's), it does not "buy again".
    expect(u.buttons()).toEqual(expect.arrayContaining(["🔎 Check the bill again", "💾 Save customer"]));
    expect(u.buttons()).not.toContain("🔁 Buy again");
    await u.pressButton("🔎 Check the bill again");
    const [inquiry] = w.sandbox.calls(INQUIRY);
    expect(inquiry!.body).toMatchObject({ code: "PPLN", customer_no: SANDBOX_CUSTOMERS.twoSheets });
    const ref = inquiry!.body.reff_id!;
    expect(ref).not.toBe(bill.refId);
    expect(await w.store.getTx(ref)).toMatchObject({ status: "draft", kind: "postpaid", target: SANDBOX_CUSTOMERS.twoSheets });
    expect(u.lastReply()).toContain("Check before you confirm");
    expect(u.lastReply()).toContain(ref);

    // A customer whose bill is paid already: told so, no confirm screen, the inquiry's draft cancelled.
    await recorded(u, { kind: "postpaid", status: "success", code: "PPLN", title: "PLN Pascabayar", target: SANDBOX_CUSTOMERS.alreadyPaid, amount: 1 });
    await openHistoryEntry(u);
    await u.pressButton("🔎 Check the bill again");
    expect(u.lastReply()).toMatch(/already paid/i);
    expect(u.lastReply()).not.toContain("Check before you confirm");
    const paidRef = w.sandbox.calls(INQUIRY)[1]!.body.reff_id!;
    expect((await w.store.getTx(paidRef))!.status).toBe("cancel");
  });

  it("a product no longer sold is said so; a failed, another chat's or unknown reference is only a toast", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    const other = await w.linkedUser({ languageCode: "en" });
    const mine = await recorded(u, { kind: "prepaid", status: "success", code: "S10", title: "Telkomsel 10.000", target: "081234567890", amount: 10_500 });
    const theirs = await recorded(other, { kind: "prepaid", status: "success", code: "S10", title: "Telkomsel 10.000", target: "081299999999", amount: 10_500 });
    const failed = await recorded(u, { kind: "prepaid", status: "failed", code: "S10", title: "Telkomsel 10.000", target: "081200000000", amount: 10_500 });

    for (const refId of [theirs.refId, failed.refId, "TP000000NOSUCHREF"]) {
      await w.bot.api.sendMessage(u.chatId, "forged", { reply_markup: { inline_keyboard: [[{ text: "again", callback_data: `ba:${refId}` }]] } });
      expect(toast(await u.pressButton("again"))).toBe("This button is no longer valid. Open /menu to start again.");
      expect(u.replies()).toEqual([]);
    }
    expect((await txs(u)).filter((t) => t.status === "draft")).toHaveLength(0);

    w.sandbox.setProductStatus("S10", "empty");
    await w.bot.api.sendMessage(u.chatId, "again", { reply_markup: { inline_keyboard: [[{ text: "again", callback_data: `ba:${mine.refId}` }]] } });
    await u.pressButton("again");
    expect(u.lastReply()).toContain("is out of stock");
    expect((await txs(u)).filter((t) => t.status === "draft")).toHaveLength(0);
  });

  it("a product out of order since: the same value under another code is offered, bought only after its confirm screen", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    const first = await sell(u, "081234567890");
    w.sandbox.addProduct({ code: "S10B", name: "TSEL 10K Jalur 2", category: "Pulsa", type: "Umum", provider: "TELKOMSEL", note: "", price: 10_400 });
    w.sandbox.setProductStatus("S10", "empty");
    w.deps.lists.invalidate(); // the price list the bot keeps for a while is refreshed
    await u.pressButton("🔁 Beli lagi", { messageId: first.messageId! });
    expect(u.lastReply()).toContain("Telkomsel 10.000 (S10) sedang kosong atau gangguan");
    await u.pressButton(/^TSEL 10K Jalur 2/);
    expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
    expect(u.lastReply()).toContain("Kode: S10B");
    expect(w.sandbox.calls(CREATE)).toHaveLength(1); // the first sale only
  });

  it("a fixed selling price a cost rise put below the cost: refused, nothing saved to confirm", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    const first = await sell(u, "081234567890");
    await w.deps.settings.setPricing(u.chatId, { fixed: { S10: first.amount + 100 } });
    w.sandbox.setPrice("S10", first.amount + 500);
    await u.pressButton("🔁 Beli lagi", { messageId: first.messageId! });
    expect(u.lastReply()).toContain(`sekarang di bawah harga modal ${rupiah(first.amount + 500, "id")}`);
    expect((await txs(u)).filter((t) => t.status === "draft")).toHaveLength(0);
  });
});

describe("saved customers", () => {
  it("💾 Save customer asks a name; /pelanggan lists, searches, renames and deletes", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    const sale = await sell(u, "081234567890");
    await u.pressButton("💾 Simpan pelanggan", { messageId: sale.messageId });
    expect(u.lastReply()).toContain("Ketik namanya");
    await u.sendText("Budi Warung");
    expect(u.lastReply()).toContain("081234567890 disimpan sebagai Budi Warung");
    const meter = await recorded(u, { kind: "prepaid", status: "success", code: "PLN20", title: "PLN 20.000", target: "530112345678", amount: 20_500, detail: { category: "PLN", provider: "PLN" } });
    await openHistoryEntry(u);
    await u.pressButton("💾 Simpan pelanggan");
    await u.sendText("Sari kos");
    expect((await w.store.getChat(u.chatId))!.customers).toMatchObject([
      { name: "Budi Warung", kind: "phone", target: "081234567890", code: "S10" },
      { name: "Sari kos", kind: "number", target: meter.target, code: "PLN20" },
    ]);

    await u.sendCommand("pelanggan");
    let list = u.lastReply()!;
    expect(list).toContain("Pelanggan tersimpan (2 dari 200)");
    expect(list).toContain("1. 📱 Budi Warung · 081234567890");
    expect(list).toContain("2. 🔢 Sari kos · 530112345678");
    expect(u.buttons()).toEqual(["1. Budi Warung", "2. Sari kos"]);

    await u.sendCommand("pelanggan", "sari");
    list = u.lastReply()!;
    expect(list).toContain('Pelanggan "sari"');
    expect(list).toContain("Sari kos");
    expect(list).not.toContain("Budi");
    await u.sendCommand("pelanggan", "0812345");
    expect(u.lastReply()).toContain("Budi Warung");
    await u.sendCommand("pelanggan", "joko");
    expect(u.lastReply()).toContain('Tidak ada pelanggan yang cocok dengan "joko"');

    // Rename through the buttons (the card; below it, the confirm screen of their last product).
    await u.sendCommand("pelanggan");
    let card = u.messages().at(-1)!.messageId;
    await u.pressButton("1. Budi Warung");
    expect(w.fake.message(u.chatId, card)!.text).toContain("Nomor HP: 081234567890");
    await u.pressButton("✏️ Ganti nama", { messageId: card });
    expect(u.lastReply()).toContain("Ketik nama baru untuk Budi Warung");
    await u.sendText("x".repeat(40));
    expect(u.lastReply()).toContain("Nama 1 sampai 32 huruf");
    await u.sendText("Pak Budi");
    expect(u.lastReply()).toContain("Budi Warung sekarang bernama Pak Budi");

    // Delete asks once; "Jangan" keeps it.
    await u.sendCommand("pelanggan");
    card = u.messages().at(-1)!.messageId;
    await u.pressButton("2. Sari kos");
    await u.pressButton("🗑 Hapus", { messageId: card });
    expect(w.fake.message(u.chatId, card)!.text).toContain("Hapus Sari kos (530112345678) dari daftar pelanggan?");
    await u.pressButton("⬅️ Jangan", { messageId: card });
    expect((await w.store.getChat(u.chatId))!.customers).toHaveLength(2);
    await u.pressButton("🗑 Hapus", { messageId: card });
    await u.pressButton("🗑 Ya, hapus", { messageId: card });
    expect(u.lastReply()).toContain("Sari kos (530112345678) dihapus");
    expect((await w.store.getChat(u.chatId))!.customers!.map((c) => c.name)).toEqual(["Pak Budi"]);
    // The old detail's buttons now only toast.
    await u.sendCommand("pelanggan");
    expect(u.lastReply()).toContain("(1 dari 200)");
  });

  it("/menu reaches the shop tools; a customer card buys its product with one more tap", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    const tools: [string, string][] = [
      ["📊 Laporan", "Belum ada transaksi bulan ini"],
      ["💹 Harga jual", "Harga jual toko Anda"],
      ["🏪 Toko", "Struk untuk pelanggan"],
      ["📄 Ekspor", "Ekspor CSV"],
      ["📒 Pelanggan", "Belum ada pelanggan"],
    ];
    for (const [button, screen] of tools) {
      await u.sendCommand("menu");
      await u.pressButton(button);
      expect(u.lastReply()).toContain(screen);
    }

    const sale = await sell(u, "081234567890");
    await u.pressButton("💾 Simpan pelanggan", { messageId: sale.messageId });
    await u.sendText("Budi");
    await u.sendCommand("pelanggan");
    const card = u.messages().at(-1)!.messageId;
    await u.pressButton("1. Budi");
    expect(u.buttons({ messageId: card })).toContain("🛒 Beli Telkomsel 10.000");
    await u.pressButton("❌ Batal"); // the screen the card opened below it
    await u.pressButton("🛒 Beli Telkomsel 10.000", { messageId: card });
    expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
    expect(u.lastReply()).toContain("Tujuan: 081234567890");
    await u.pressButton(CONFIRM);
    expect(w.sandbox.calls(CREATE)).toHaveLength(2);
  });

  it("repeat sale to a saved customer: tap the customer, tap Confirm; the card offers their other products, none no longer sold", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    const first = await sell(u, "081234567890", "S10");
    await sell(u, "081234567890", "TSEL-DATA-2GB");
    await sell(u, "081311112222", "S5"); // another customer's: not offered
    await u.pressButton("💾 Simpan pelanggan", { messageId: first.messageId });
    await u.sendText("Budi");
    const today = first.amount + 150;
    w.sandbox.setPrice("S10", today);

    await u.sendCommand("pelanggan");
    const card = u.messages().at(-1)!.messageId;
    await u.pressButton("1. Budi"); // tap 1: the card, and below it the confirm screen of their last product
    const screen = u.lastReply()!;
    expect(screen).toContain("Periksa sebelum konfirmasi");
    expect(screen).toContain("Kode: TSEL-DATA-2GB");
    expect(screen).toContain("Tujuan: 081234567890");
    expect(u.buttons({ messageId: card })).toEqual(["🛒 Beli Telkomsel 10.000", "🔁 Telkomsel Data 2 GB / 30 Hari", "✏️ Ganti nama", "🗑 Hapus", "⬅️ Daftar pelanggan"]);
    await u.pressButton(CONFIRM); // tap 2
    expect(w.sandbox.calls(CREATE).at(-1)!.body).toMatchObject({ code: "TSEL-DATA-2GB", target: "081234567890" });
    expect(w.sandbox.calls(CREATE)).toHaveLength(4);

    // Their other product at today's price, one tap from the card.
    await u.pressButton("🛒 Beli Telkomsel 10.000", { messageId: card });
    expect(u.lastReply()).toContain("Kode: S10");
    expect(u.lastReply()).toContain(`Harga modal: ${rupiah(today, "id")}`);
    await u.pressButton("❌ Batal");

    // A product no longer sold is not offered, and opening the card twice makes one screen.
    await run(w, 10_000);
    w.sandbox.setProductStatus("TSEL-DATA-2GB", "empty");
    w.deps.lists.invalidate();
    await u.sendCommand("pelanggan");
    const again = u.messages().at(-1)!.messageId;
    await u.pressButton("1. Budi");
    expect(u.buttons({ messageId: again })).not.toContain("🔁 Telkomsel Data 2 GB / 30 Hari");
    expect(u.lastReply()).toContain("Kode: S10");
    const drafts = async () => (await txs(u)).filter((t) => t.status === "draft").length;
    expect(await drafts()).toBe(1);
    await u.pressButton("🗑 Hapus", { messageId: again });
    await u.pressButton("⬅️ Jangan", { messageId: again });
    expect(await drafts()).toBe(1);
  });

  it("the list is paged; a full list says so before asking a name", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    const customers = Array.from({ length: CUSTOMERS_MAX }, (_, i) => ({
      id: `c${i}`, name: `Customer ${String(i).padStart(3, "0")}`, kind: "phone" as const, target: `0812${String(10_000_000 + i)}`, createdAt: 0,
    }));
    await w.store.updateChat(u.chatId, { customers });
    await u.sendCommand("customers");
    expect(u.lastReply()).toContain("Saved customers (200 of 200)");
    expect(u.lastReply()).toContain("Page 1 of 25");
    await u.pressButton("Next ➡️");
    expect(u.lastReply()).toContain("9. 📱 Customer 008");

    // A search too long for the paging buttons' 64 bytes is shortened, and still pages.
    const wide = "€".repeat(30);
    await w.store.updateChat(u.chatId, { customers: customers.map((c, i) => (i < 9 ? { ...c, name: `${wide}${i}` } : c)) });
    await u.sendCommand("customers", wide);
    expect(u.lastReply()).toContain(": 9 found");
    await u.pressButton("Next ➡️");
    expect(u.lastReply()).toContain(`9. 📱 ${wide}8`);
    await w.store.updateChat(u.chatId, { customers });

    const sale = await recorded(u, { kind: "prepaid", status: "success", code: "S10", title: "Telkomsel 10.000", target: "081311112222", amount: 10_500 });
    await u.pressButton("💾 Save customer", { messageId: sale.messageId });
    expect(u.lastReply()).toContain("The customer list is full (200)");
    await u.sendText("Someone");
    expect((await w.store.getChat(u.chatId))!.customers).toHaveLength(CUSTOMERS_MAX);
  });
});

describe("saved customers and recent targets in the flows", () => {
  it("top-up: saved numbers and the last distinct ones that fit the product are buttons; a tap goes on as if typed", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const tsel = { kind: "prepaid" as const, status: "success" as const, code: "S10", title: "Telkomsel 10.000", amount: 10_500, detail: { category: "Pulsa", provider: "TELKOMSEL" } };
    for (const target of ["081211110001", "081211110002", "081211110003", "081211110004", "081211110005", "081211110006", "081211110002"]) {
      await recorded(u, { ...tsel, target });
    }
    await recorded(u, { ...tsel, status: "failed", target: "081299990000" }); // refused: not offered
    await recorded(u, { ...tsel, code: "I10", title: "Indosat 10.000", target: "085611112222", detail: { category: "Pulsa", provider: "INDOSAT" } });
    await w.store.updateChat(u.chatId, {
      customers: [
        { id: "a1", name: "Budi", kind: "phone", target: "081234567890", createdAt: 0 },
        { id: "a2", name: "Ani (Indosat)", kind: "phone", target: "085600001111", createdAt: 0 },
        { id: "a3", name: "Kos Melati", kind: "number", target: "530112345678", createdAt: 0 },
        { id: "a4", name: "PDAM Pak RT", kind: "number", target: "1234567890", code: "PDAMSBY", source: "postpaid", createdAt: 0 },
        { id: "a5", name: "Rumah Bu Ida", kind: "number", target: "530112340002", code: "PPLN", source: "postpaid", createdAt: 0 },
      ],
    });

    await u.sendCommand("beli", "S10");
    expect(u.lastReply()).toContain("Kirim nomor HP tujuan");
    // Telkomsel only (an Indosat number would be refused), newest first, five distinct, saved ones first.
    expect(u.buttons()).toEqual([
      "👤 Budi · 081234567890",
      "🕘 081211110002",
      "🕘 081211110006",
      "🕘 081211110005",
      "🕘 081211110004",
      "🕘 081211110003",
      "❌ Batal",
    ]);
    await u.pressButton("👤 Budi · 081234567890");
    expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
    expect(u.lastReply()).toContain("Tujuan: 081234567890");

    // Typing still works, and a PLN token offers meter numbers only.
    await u.sendCommand("beli", "PLN20");
    expect(u.buttons()).toEqual(["👤 Rumah Bu Ida · 530112340002", "👤 Kos Melati · 530112345678", "❌ Batal"]);
    await u.sendText("5301 1111 2222");
    expect(u.lastReply()).toContain("Tujuan: 530111112222");
  });

  it("bill: saved and recent customer numbers of that service are buttons; a tap inquires the bill", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    const paid = await recorded(u, {
      kind: "postpaid", status: "success", code: "PPLN", title: "PLN Pascabayar", target: SANDBOX_CUSTOMERS.oneSheet, amount: 100_000,
    });
    await u.pressButton("💾 Save customer", { messageId: paid.messageId });
    await u.sendText("Warung Bu Tini");
    await recorded(u, { kind: "postpaid", status: "success", code: "PPLN", title: "PLN Pascabayar", target: SANDBOX_CUSTOMERS.twoSheets, amount: 1 });
    await recorded(u, { kind: "postpaid", status: "success", code: "BPJS", title: "BPJS", target: SANDBOX_CUSTOMERS.bpjs, amount: 1 });

    await u.sendCommand("bill");
    await u.pressButton("PLN Pascabayar");
    expect(u.buttons()).toEqual([`👤 Warung Bu Tini · ${SANDBOX_CUSTOMERS.oneSheet}`, `🕘 ${SANDBOX_CUSTOMERS.twoSheets}`, "❌ Cancel"]);
    await u.pressButton(`🕘 ${SANDBOX_CUSTOMERS.twoSheets}`);
    expect(w.sandbox.calls(INQUIRY).at(-1)!.body).toMatchObject({ code: "PPLN", customer_no: SANDBOX_CUSTOMERS.twoSheets });
    expect(u.lastReply()).toContain("Check before you confirm");
  });

  it("transfer: saved and recent accounts of the chosen bank are buttons; a tap checks the account", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "en" });
    const sent = await recorded(u, { kind: "transfer", status: "success", code: "bca", title: "BCA", target: "1234567890", amount: 50_000 });
    await recorded(u, { kind: "transfer", status: "success", code: "bca", title: "BCA", target: "5555666677", amount: 50_000 });
    await recorded(u, { kind: "transfer", status: "success", code: "bni", title: "BNI", target: "9999888877", amount: 50_000 });
    await u.pressButton("💾 Save customer", { messageId: sent.messageId });
    await u.sendText("Supplier Ayu");
    expect((await w.store.getChat(u.chatId))!.customers).toMatchObject([{ name: "Supplier Ayu", kind: "account", code: "bca", target: "1234567890" }]);

    await u.sendCommand("transfer");
    await u.sendText("bca");
    await u.pressButton(/BCA/);
    expect(u.buttons()).toEqual(["👤 Supplier Ayu · 1234567890", "🕘 5555666677", "❌ Cancel"]);
    await u.pressButton("👤 Supplier Ayu · 1234567890");
    expect(u.lastReply()).toContain("1234567890");
    expect(u.lastReply()).toContain("How much do you want to transfer?");
  });
});
