/**
 * What a reseller meets around money screens: the confirm screen, notices, deposit words, through the
 * fake Bot API and the sandbox.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import type { FakeUser } from "../support/chat.js";
import { noticesAbout, pendingTransfer, run } from "../jobs/support.js";

const CREATE = "/transaksi/create";
const CONFIRM = /Konfirmasi|Confirm/;
let w: World;
afterEach(() => w?.close());

/**
 * How long the client waits for the held create. Every other call of the flow (prices, balance) must come
 * back within it too: 400 ms failed a run on a heavily loaded machine; 1.5 s leaves that margin.
 */
const SLOW_CREATE_MS = 1500;

function message(u: FakeUser, messageId: number) {
  return w.fake.message(u.chatId, messageId)!;
}

describe("confirm says it is sending, and a repeated purchase asks first", () => {
  it("a slow create: the confirm screen shows 'Mengirim ke penyedia…' with its details while the call runs", async () => {
    w = await makeWorld({ upstreamTimeoutMs: SLOW_CREATE_MS });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    const screen = u.sentMessageIds.at(-1)!;
    w.sandbox.fault(CREATE, "timeout");
    const pressing = u.pressButton(CONFIRM);
    // The request reached the provider: by then the screen must already say so.
    await vi.waitFor(() => expect(w.sandbox.calls(CREATE)).toHaveLength(1), { timeout: 5000, interval: 5 });
    const during = message(u, screen);
    expect(during.text).toContain("Mengirim ke penyedia");
    expect(during.text).toContain("081234567890");
    expect(during.text).toContain("S10");
    expect(during.inlineKeyboard).toBeUndefined();
    await pressing;
    expect(u.lastReply()).toContain("Hasil belum diketahui");
    expect(message(u, screen).text).not.toContain("Mengirim ke penyedia");
  });

  it("a second /beli of the same product and target while the first is unknown warns and creates nothing until asked", async () => {
    w = await makeWorld({ upstreamTimeoutMs: SLOW_CREATE_MS });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    w.sandbox.fault(CREATE, "timeout");
    await u.pressButton(CONFIRM);
    expect((await w.store.listTxByChat(u.chatId)).items[0]!.status).toBe("unknown");

    await u.sendCommand("beli", "S10 081234567890");
    expect(u.lastReply()).toMatch(/Sudah ada pembelian .* untuk 081234567890 pukul \d\d\.\d\d WIB/);
    expect(u.buttons()).toEqual(["🔁 Ya, beli lagi", "❌ Batal"]);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);

    await u.pressButton("❌ Batal");
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);

    await u.sendCommand("beli", "S10 081234567890");
    await u.pressButton("🔁 Ya, beli lagi");
    expect(u.buttons()).toEqual(["✅ Konfirmasi", "❌ Batal"]);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
    await u.pressButton(CONFIRM);
    expect(w.sandbox.calls(CREATE)).toHaveLength(2);
  });

  it("/beli typed again while the first create is still running: the warning, not a second purchase", async () => {
    w = await makeWorld({ upstreamTimeoutMs: SLOW_CREATE_MS });
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("topup", "S10 081234567890");
    w.sandbox.fault(CREATE, "timeout");
    const pressing = u.pressButton(CONFIRM);
    await vi.waitFor(() => expect(w.sandbox.calls(CREATE)).toHaveLength(1), { timeout: 5000, interval: 5 });
    const typing = u.sendCommand("topup", "S10 081234567890");
    await Promise.all([pressing, typing]);
    expect(u.lastReply()).toMatch(/There is already a purchase of .* for 081234567890 at \d\d:\d\d WIB/);
    expect(u.buttons()).toEqual(["🔁 Yes, buy again", "❌ Cancel"]);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
  });

  it("another target or product is not a repeat", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("topup", "S10 081234567890");
    await u.pressButton(CONFIRM);
    await u.sendCommand("topup", "S10 081298765432");
    expect(u.buttons()).toEqual(["✅ Confirm", "❌ Cancel"]);
  });
});

describe("the balance is on every confirm screen and too little is refused up front", () => {
  it("shows the balance next to the price", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    w.sandbox.setBalance(w.demoKey, 123_456);
    await u.sendCommand("topup", "S10 081234567890");
    expect(u.lastReply()).toContain("Your balance: Rp123,456");
  });

  it("too little balance: no confirm button, a Deposit button, nothing created", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    w.sandbox.setBalance(w.demoKey, 1_000);
    await u.sendCommand("beli", "S10 081234567890");
    expect(u.lastReply()).toContain("Saldo tidak cukup");
    expect(u.lastReply()).toContain("Rp1.000");
    expect(u.buttons()).toEqual(["🏦 Deposit", "🏠 Menu"]);
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
  });

  it("the cached balance is refreshed after a purchase", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    w.sandbox.setBalance(w.demoKey, 15_000);
    await u.sendCommand("topup", "S10 081234567890");
    await u.pressButton(CONFIRM);
    await u.sendCommand("topup", "S10 081298765432");
    expect(u.lastReply()).toContain("Balance too low");
  });
});

describe("one short notice that replies to the edited original; failures say why and what happened to the money", () => {
  it("a success: the original shows the full receipt, one short notice replies to it", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    await u.pressButton(CONFIRM);
    const tx = (await w.store.listTxByChat(u.chatId)).items[0]!;
    await run(w, 10_000);
    const done = (await w.store.getTx(tx.refId))!;
    expect(done.status).toBe("success");
    const sends = () => w.fake.sentTo(u.chatId).filter((c) => c.method === "sendMessage" && String(c.payload.text).includes(tx.refId));
    // The confirm screen, the pending receipt, then exactly one notice.
    expect(sends()).toHaveLength(3);
    const notice = sends()[2]!;
    expect(notice.payload.reply_parameters).toMatchObject({ message_id: tx.messageId });
    const text = String(notice.payload.text);
    expect(text).toContain("Transaksi berhasil");
    expect(text).toContain(done.sn!);
    expect(text).not.toContain("Waktu"); // the full receipt is the original's, not repeated
    const original = message(u, tx.messageId!);
    expect(original.text).toContain("Berhasil");
    expect(original.text).toContain("Waktu");
    await run(w, 3600_000);
    expect(sends()).toHaveLength(3);
  });

  it("a failed purchase: the provider's reason and that the balance came back, no promise of a reason 'below'", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081200000000");
    await u.pressButton(CONFIRM);
    const tx = (await w.store.listTxByChat(u.chatId)).items[0]!;
    await run(w, 10_000);
    expect((await w.store.getTx(tx.refId))!.status).toBe("failed");
    const [notice] = noticesAbout(w, u.chatId, tx.refId).filter((t) => t.includes("gagal"));
    expect(notice).toContain("Alasan dari penyedia: Transaksi gagal, nomor tujuan tidak aktif");
    expect(notice).toContain("saldo Anda sudah dikembalikan");
    expect(notice).not.toContain("di bawah");
  });

  it("a failed transfer: no reason given is said plainly, the money sentence is honest, no fee or total shown", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "en" });
    const tx = await pendingTransfer(w, u.chatId, "1234567000");
    await run(w, 10_000);
    expect((await w.store.getTx(tx.refId))!.status).toBe("failed");
    const [notice] = noticesAbout(w, u.chatId, tx.refId);
    expect(notice).toContain("The provider gave no reason.");
    expect(notice).toContain("did not say whether your balance was refunded");
    expect(notice).not.toContain("note below");
    const original = message(u, tx.messageId!).text!;
    expect(original).toContain("Failed");
    expect(original).not.toContain("Fee:");
    expect(original).not.toContain("Total:");
  });
});

describe("deposit words", () => {
  it("unpaid reads 'Menunggu pembayaran', paid and waiting for settlement says so", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("deposit");
    await u.pressButton(/^QRIS · /);
    await u.sendText("50000");
    await u.pressButton(CONFIRM);
    const tx = (await w.store.listTxByChat(u.chatId)).items[0]!;
    await u.sendCommand("status", tx.refId);
    expect(u.lastReply()).toContain("Status: ⏳ Menunggu pembayaran");
    expect(u.lastReply()).not.toContain("Diproses");
    w.sandbox.payDeposit(tx.upstreamId!);
    await u.sendCommand("status", tx.refId);
    expect(u.lastReply()).toContain("Sudah dibayar, masuk saldo hari kerja berikutnya (H+1)");
  });
});

describe("'Cek status' on an unpaid deposit keeps the payment instructions", () => {
  it("bank transfer: account, exact amount, deadline and Cancel stay; the answer is a toast", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("deposit");
    await pickMethod(u, /^Bank BCA · /);
    await u.sendText("50000");
    await u.pressButton(CONFIRM);
    const tx = (await w.store.listTxByChat(u.chatId)).items[0]!;
    const before = message(u, tx.messageId!);
    const text = before.text!;
    expect(text).toContain("Transfer TEPAT");
    await u.pressButton("🔄 Cek status", { messageId: tx.messageId! });
    const after = message(u, tx.messageId!);
    expect(after.text).toBe(text);
    expect(u.buttons({ messageId: tx.messageId! })).toEqual(["🔄 Cek status", "🚫 Batalkan deposit"]);
    expect(String(w.fake.lastCall("answerCallbackQuery")!.payload.text)).toContain("Menunggu pembayaran");
  });

  it("e-wallet: the pay link stays; once paid the instructions show it and the receipt comes as a new message", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("deposit");
    await pickMethod(u, /^E-Wallet DANA · /);
    await u.sendText("20000");
    await u.pressButton(CONFIRM);
    const tx = (await w.store.listTxByChat(u.chatId)).items[0]!;
    await u.pressButton("🔄 Cek status", { messageId: tx.messageId! });
    expect(u.buttons({ messageId: tx.messageId! })).toEqual(["💳 Bayar", "🔄 Cek status", "🚫 Batalkan deposit"]);
    w.sandbox.payDeposit(tx.upstreamId!);
    await u.pressButton("🔄 Cek status", { messageId: tx.messageId! });
    expect((await w.store.getTx(tx.refId))!.status).toBe("processing");
    expect(message(u, tx.messageId!).text).toContain("Pembayaran deposit diterima");
    // 3. the check that first sees the payment offers the release.
    expect(u.lastReply()).toContain("Sudah dibayar");
    expect(u.buttons()).toContain("⚡ Cairkan sekarang");
  });
});

describe("instant release wherever a paid deposit is shown, and old messages updated after it", () => {
  it("/status ID offers the release; after it no message keeps a live ⚡ or says H+1", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("deposit");
    await pickMethod(u, /^QRIS · /);
    await u.sendText("50000");
    await u.pressButton(CONFIRM);
    const tx = (await w.store.listTxByChat(u.chatId)).items[0]!;
    w.sandbox.payDeposit(tx.upstreamId!);
    await u.sendCommand("status", tx.refId);
    const statusMessage = u.sentMessageIds.at(-1)!;
    expect(u.lastReply()).toContain("Cairkan sekarang");
    expect(u.buttons({ messageId: statusMessage })).toEqual(["🔄 Perbarui status", "⚡ Cairkan sekarang"]);
    // The QR photo was updated by that check too, with the release on it.
    expect(message(u, tx.messageId!).caption).toContain("SUDAH DIBAYAR");

    await u.pressButton("⚡ Cairkan sekarang", { messageId: statusMessage });
    await u.pressButton(/Ya, cairkan/);
    expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "success", detail: { instant: "done" } });
    for (const m of u.messages().filter((m) => m.from === "bot" && !m.deleted)) {
      const labels = (m.inlineKeyboard ?? []).flat().map((b) => b.text);
      expect(labels).not.toContain("⚡ Cairkan sekarang");
      expect(m.text ?? m.caption ?? "").not.toContain("H+1");
    }
    expect(message(u, statusMessage).text).toContain("LUNAS");
    expect(message(u, tx.messageId!).caption).toContain("LUNAS");
  });
});

/** Presses the method button, paging forward through the choice list when needed. */
async function pickMethod(u: FakeUser, label: RegExp): Promise<void> {
  for (let page = 0; page < 5; page++) {
    if (u.findButton(label)) {
      await u.pressButton(label);
      return;
    }
    await u.pressButton(/Berikutnya|Next/);
  }
  throw new Error(`no method button ${String(label)}`);
}
