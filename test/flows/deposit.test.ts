import type { Update } from "grammy/types";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_DEPOSIT_LATE_MS } from "../../src/domain/refresh.js";
import { wibTime } from "../../src/render/format.js";
import type { TxRecord } from "../../src/store/index.js";
import type { FakeUser } from "../support/chat.js";
import { apiError } from "../support/fakeBotApi.js";
import { decodeQrPng } from "../support/qr.js";
import { until } from "../support/settle.js";
import { makeWorld, type World } from "../support/world.js";

interface SandboxDeposit {
  id: string;
  nominal: number;
  tambahan: number;
  fee: number;
  getBalance: number;
  status: string;
  expiresAt: number;
  extra: Record<string, string>;
}

let w: World;
beforeEach(async () => {
  w = await makeWorld();
});
afterEach(() => w.close());

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

/** /deposit -> method -> amount; leaves the confirm screen on screen. */
async function toConfirm(u: FakeUser, method: RegExp, amount: string): Promise<void> {
  await u.sendCommand("deposit");
  await pickMethod(u, method);
  await u.sendText(amount);
}

async function latestDeposit(u: FakeUser): Promise<TxRecord> {
  const tx = (await w.store.listTxByChat(u.chatId)).items[0];
  if (!tx) throw new Error("no transaction");
  return tx;
}

function sandboxDeposit(tx: TxRecord): SandboxDeposit {
  return w.sandbox.transaction(tx.upstreamId!) as SandboxDeposit;
}

/** Presses a button by its callback data on a message (the status feature shows such buttons). */
function callbackWithData(u: FakeUser, messageId: number, data: string): Update {
  return {
    update_id: w.fake.nextUpdateId(),
    callback_query: {
      id: `${u.user.id}${Math.floor(Math.random() * 1e6)}`,
      from: u.user,
      message: w.fake.message(u.chatId, messageId)!.message,
      chat_instance: "1",
      data,
    },
  } as Update;
}

const createCalls = () => w.sandbox.calls("/deposit/create");

describe("/deposit", () => {
  it("a create answer without fee and get_balance (an older shape) still gives the QR photo, with what is known", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("deposit");
    await u.sendText("qris");
    await pickMethod(u, /^QRIS · /);
    await u.sendText("50rb");
    w.sandbox.reshape("/deposit/create", { omit: ["fee", "get_balance"] });
    await u.pressButton("✅ Konfirmasi");
    const tx = await latestDeposit(u);
    expect(tx.status).toBe("pending");
    const rec = sandboxDeposit(tx);
    expect(decodeQrPng(u.lastPhoto())).toBe(rec.extra.qr_string);
    const caption = w.fake.message(u.chatId, tx.messageId!)!.caption!;
    expect(caption).toContain("Nominal: Rp50.000");
    expect(caption).not.toContain("Rp0");
    expect(u.replies().join("\n")).not.toMatch(/Maaf|gagal|tidak bisa/i);
  });

  it("QRIS: lists only active methods, confirms, then sends a QR photo that decodes to the provider's qr_string", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("deposit");
    const prompt = u.lastReply()!;
    expect(prompt).toContain("QRIS: Rp10.000 – Rp10.000.000, biaya 0,7%");
    expect(prompt).toContain("Virtual Account BCA: Rp10.000 – Rp50.000.000, biaya Rp4.000");
    expect(prompt).not.toContain("ShopeePay"); // inactive at the provider
    const labels = [...u.buttons()];
    await u.pressButton(/Berikutnya/);
    labels.push(...u.buttons());
    expect(labels).toContain("QRIS · 0,7%");
    expect(labels).toContain("Bank BCA · gratis");
    expect(labels.some((l) => l.includes("ShopeePay"))).toBe(false);
    await u.pressButton(/Sebelumnya/);

    await u.sendText("qris"); // the list is searchable too
    expect(u.buttons()).toEqual(["QRIS · 0,7%", "QRIS Fast · 1,4%", "❌ Batal"]);
    await pickMethod(u, /^QRIS · /);
    expect(u.lastReply()).toContain("Minimal Rp10.000, maksimal Rp10.000.000");
    await u.sendText("50rb");
    const confirm = u.lastReply()!;
    expect(confirm).toContain("Metode: QRIS");
    expect(confirm).toContain("Nominal: Rp50.000");
    expect(confirm).toContain("Perkiraan biaya: Rp350 (0,7%)");
    expect(confirm).toContain("Perkiraan masuk ke saldo: Rp49.650");
    const draft = await latestDeposit(u);
    expect(draft.status).toBe("draft");
    expect(confirm).toContain(draft.refId);
    expect(createCalls()).toHaveLength(0);

    await u.pressButton("✅ Konfirmasi");
    expect(createCalls()).toHaveLength(1);
    expect(createCalls()[0]!.body).toMatchObject({ reff_id: draft.refId, nominal: "50000", type: "ewallet", metode: "qris" });
    const tx = await latestDeposit(u);
    const rec = sandboxDeposit(tx);
    expect(tx).toMatchObject({ status: "pending", upstreamId: rec.id, amount: 50000, fee: 350 });
    expect(tx.detail).toMatchObject({ credited: 49650, extra: 0, expiresAt: rec.expiresAt, photo: true, qrString: rec.extra.qr_string });

    // The photo really encodes the provider's payload, rendered by the bot itself.
    expect(decodeQrPng(u.lastPhoto())).toBe(rec.extra.qr_string);
    const photo = w.fake.message(u.chatId, tx.messageId!)!;
    expect(photo.kind).toBe("photo");
    expect(photo.caption).toContain("Nominal: Rp50.000");
    expect(photo.caption).toContain("Biaya: Rp350");
    expect(photo.caption).toContain("Masuk ke saldo: Rp49.650");
    expect(photo.caption).toContain(`Bayar sebelum: ${wibTime(rec.expiresAt, "id")}`);
    expect(photo.caption).toContain(tx.refId);
    expect(u.buttons({ messageId: photo.messageId })).toEqual(["🔄 Cek status", "🚫 Batalkan deposit"]);
    expect(photo.inlineKeyboard!.flat().map((b) => "callback_data" in b && b.callback_data)).toEqual([`st:${tx.refId}`, `dp:x:${tx.refId}`]);
  });

  it("VA: bank and VA number in <code>, amount, fee and expiry (English)", async () => {
    const u = await w.linkedUser({ languageCode: "en" });
    // The method list reads as English: "fee: free", not "fee free".
    await u.sendCommand("deposit");
    expect(u.lastReply()).toContain("Bank BCA: Rp10,000 – Rp100,000,000, fee: free\n");
    expect(u.lastReply()).toContain("Virtual Account BCA: Rp10,000 – Rp50,000,000, fee: Rp4,000\n");
    await toConfirm(u, /^Virtual Account BCA · /, "100.000");
    expect(u.lastReply()).toContain("Estimated fee: Rp4,000\n");
    await u.pressButton("✅ Confirm");
    const tx = await latestDeposit(u);
    const rec = sandboxDeposit(tx);
    const msg = w.fake.message(u.chatId, tx.messageId!)!;
    expect(msg.raw).toContain(`VA number: <code>${rec.extra.nomor_va}</code>`);
    expect(msg.text).toContain("Bank: BCA");
    expect(msg.text).toContain("Amount: Rp100,000");
    expect(msg.text).toContain("Fee: Rp4,000");
    expect(msg.text).toContain("Credited to balance: Rp96,000");
    expect(msg.text).toContain(`Pay before: ${wibTime(rec.expiresAt, "en")}`);
    expect(u.buttons({ messageId: msg.messageId })).toEqual(["🔄 Check status", "🚫 Cancel deposit"]);
  });

  it("bank transfer: the exact amount to send is the provider's nominal, unique add-on included", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await toConfirm(u, /^Bank BCA · /, "50000");
    expect(u.lastReply()).toContain("kode unik");
    await u.pressButton("✅ Konfirmasi");
    const tx = await latestDeposit(u);
    const rec = sandboxDeposit(tx);
    expect(rec.tambahan).toBeGreaterThanOrEqual(100);
    expect(tx.amount).toBe(50000 + rec.tambahan);
    expect(tx.detail).toMatchObject({ extra: rec.tambahan, requested: 50000, accountNumber: rec.extra.tujuan });
    const exact = `Rp50.${String(rec.tambahan)}`;
    const msg = w.fake.message(u.chatId, tx.messageId!)!;
    expect(msg.raw).toContain(`<code>${rec.extra.tujuan}</code>`);
    expect(msg.raw).toContain(`Jumlah transfer: <code>${50000 + rec.tambahan}</code>`);
    expect(msg.text).toContain(`Transfer TEPAT ${exact} (sudah termasuk kode unik Rp${rec.tambahan})`);
    expect(msg.text).toContain(`Atas nama: ${rec.extra.atas_nama}`);
    expect(u.buttons({ messageId: msg.messageId })).toEqual(["🔄 Cek status", "🚫 Batalkan deposit"]);
  });

  it("e-wallet: a URL button to pay, plus check status and cancel", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await toConfirm(u, /^E-Wallet DANA · /, "20000");
    await u.pressButton("✅ Konfirmasi");
    const tx = await latestDeposit(u);
    const rec = sandboxDeposit(tx);
    const pay = u.findButton("💳 Bayar", { messageId: tx.messageId! });
    expect(pay?.button).toEqual({ text: "💳 Bayar", url: rec.extra.url });
    expect(u.buttons({ messageId: tx.messageId! })).toEqual(["💳 Bayar", "🔄 Cek status", "🚫 Batalkan deposit"]);
  });

  it("an amount outside the method's limits (or unreadable) is retyped; nothing is lost", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await toConfirm(u, /^QRIS · /, "5000");
    expect(u.lastReply()).toContain("di luar batas");
    expect(u.lastReply()).toContain("minimal Rp10.000, maksimal Rp10.000.000");
    await u.sendText("20jt");
    expect(u.lastReply()).toContain("di luar batas");
    await u.sendText("banyak");
    expect(u.lastReply()).toContain("Nominal tidak dikenali");
    await u.sendText("1jt");
    expect(u.lastReply()).toContain("Metode: QRIS");
    expect(u.lastReply()).toContain("Nominal: Rp1.000.000");
    expect(await latestDeposit(u)).toMatchObject({ status: "draft", code: "qris", amount: 1_000_000 });
  });

  it("cancel at the amount step creates nothing", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("deposit");
    await pickMethod(u, /^QRIS · /);
    await u.pressButton("❌ Batal");
    expect(u.lastReply()).toContain("Dibatalkan");
    await u.sendText("50000");
    expect((await w.store.listTxByChat(u.chatId)).total).toBe(0);
    expect(createCalls()).toHaveLength(0);
  });

  it("needs a linked key", async () => {
    const u = w.user({ languageCode: "id" });
    await u.sendCommand("deposit");
    expect(u.lastReply()).toContain("belum terhubung");
  });

  it("a double Confirm creates one deposit", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await toConfirm(u, /^QRIS · /, "50000");
    const first = u.callbackUpdate("✅ Konfirmasi");
    const second = u.callbackUpdate("✅ Konfirmasi");
    await Promise.all([u.deliver(first), u.deliver(second)]);
    await u.deliver(first); // and a re-delivered update
    expect(createCalls()).toHaveLength(1);
    expect(w.fake.callsOf("sendPhoto")).toHaveLength(1);
    expect((await latestDeposit(u)).status).toBe("pending");
  });

  it("cancels a pending deposit: provider cancel, status cancel, caption edited, buttons removed", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await toConfirm(u, /^QRIS · /, "50000");
    await u.pressButton("✅ Konfirmasi");
    const tx = await latestDeposit(u);
    const qr = decodeQrPng(u.lastPhoto());
    // One tap only asks: nothing is cancelled yet, and "Tidak" leaves the deposit payable.
    await u.pressButton("🚫 Batalkan deposit");
    expect(u.lastReply()).toContain("Batalkan deposit ini?");
    expect(u.buttons()).toEqual(["🚫 Ya, batalkan", "Tidak"]);
    expect(w.sandbox.calls("/deposit/cancel")).toHaveLength(0);
    await u.pressButton("Tidak");
    expect(w.sandbox.calls("/deposit/cancel")).toHaveLength(0);
    expect((await w.store.getTx(tx.refId))!.status).toBe("pending");
    expect(decodeQrPng(u.lastPhoto())).toBe(qr);

    await u.pressButton("🚫 Batalkan deposit", { messageId: tx.messageId! });
    await u.pressButton("🚫 Ya, batalkan");
    expect(w.sandbox.calls("/deposit/cancel")).toHaveLength(1);
    expect(sandboxDeposit(tx).status).toBe("cancel");
    expect((await w.store.getTx(tx.refId))!.status).toBe("cancel");
    const photo = w.fake.message(u.chatId, tx.messageId!)!;
    expect(photo.caption).toContain("Deposit dibatalkan");
    expect(photo.caption).toContain("Dibatalkan");
    expect(photo.inlineKeyboard).toBeUndefined();
    // The photo no longer carries a payable code.
    expect(() => decodeQrPng(u.lastPhoto())).toThrow(/No QR code/);
    // The question is closed: no "Ya, batalkan" left to tap.
    expect(u.messages().filter((m) => JSON.stringify(m.inlineKeyboard ?? []).includes("Ya, batalkan"))).toEqual([]);
  });

  it("two taps on 'Ya, batalkan' cancel at the provider once: the claim is saved before the call", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await toConfirm(u, /^QRIS · /, "50000");
    await u.pressButton("✅ Konfirmasi");
    const tx = await latestDeposit(u);
    await u.pressButton("🚫 Batalkan deposit");
    const first = u.callbackUpdate("🚫 Ya, batalkan");
    const second = u.callbackUpdate("🚫 Ya, batalkan");
    const cancels = () => w.sandbox.calls("/deposit/cancel");
    const release = w.sandbox.holdNext("/deposit/cancel");
    const firstDone = u.deliver(first);
    await until(() => cancels().length > 0, { what: "the cancel reached the provider" });
    // Saved before the call: a tap on another process meanwhile finds it (test/bot/acrossProcesses.test.ts).
    expect((await w.store.getTx(tx.refId))?.detail).toMatchObject({ cancelling: w.clock.now() });
    const secondDone = u.deliver(second);
    release();
    await Promise.all([firstDone, secondDone]);
    await u.deliver(first); // and a re-delivered update
    expect(cancels()).toHaveLength(1);
    const cancelled = (await w.store.getTx(tx.refId))!;
    expect(cancelled.status).toBe("cancel");
    expect(cancelled.detail).not.toHaveProperty("cancelling");
  });

  it("a claim left by a stopped process does not block a cancel two minutes later", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await toConfirm(u, /^QRIS · /, "50000");
    await u.pressButton("✅ Konfirmasi");
    const tx = await latestDeposit(u);
    await w.store.updateTx(tx.refId, { detail: { ...tx.detail, cancelling: w.clock.now() } });
    await u.pressButton("🚫 Batalkan deposit");
    await u.pressButton("🚫 Ya, batalkan");
    expect(w.sandbox.calls("/deposit/cancel")).toHaveLength(0);
    expect((await w.store.getTx(tx.refId))!.status).toBe("pending");

    await w.clock.advance(2 * 60_000 + 1);
    await u.pressButton("🚫 Batalkan deposit", { messageId: tx.messageId! });
    await u.pressButton("🚫 Ya, batalkan");
    expect(w.sandbox.calls("/deposit/cancel")).toHaveLength(1);
    expect((await w.store.getTx(tx.refId))!.status).toBe("cancel");
  });

  it("refuses to cancel after payment, says why and offers the instant release", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await toConfirm(u, /^QRIS · /, "50000");
    await u.pressButton("✅ Konfirmasi");
    const tx = await latestDeposit(u);
    await u.pressButton("🚫 Batalkan deposit");
    w.sandbox.payDeposit(tx.upstreamId!);
    await u.pressButton("🚫 Ya, batalkan");
    expect(u.lastReply()).toContain("tidak bisa dibatalkan lagi");
    expect(u.lastReply()).toContain("Sudah dibayar, masuk saldo hari kerja berikutnya");
    expect(sandboxDeposit(tx).status).toBe("processing");
    expect((await w.store.getTx(tx.refId))!.status).toBe("processing");
    expect(u.buttons({ messageId: tx.messageId! })).toEqual(["🔄 Cek status", "⚡ Cairkan sekarang"]);
  });

  it("a sale right after an instant release sees the credited balance, not the one read before it", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    w.sandbox.setBalance(w.demoKey, 5_000);
    await toConfirm(u, /^QRIS · /, "50000");
    await u.pressButton("✅ Konfirmasi");
    const tx = (await w.store.listTxByChat(u.chatId)).items.find((t) => t.kind === "deposit")!;
    w.sandbox.payDeposit(tx.upstreamId!);
    // Paid but not yet on the balance: a sale is refused, and the balance it read is kept a minute.
    await u.sendCommand("beli", "S10 081234567890");
    expect(u.lastReply()).toContain("Saldo tidak cukup");
    await u.deliver(callbackWithData(u, tx.messageId!, `dp:i:${tx.refId}`));
    await u.pressButton("⚡ Ya, cairkan");
    expect(u.replies().join("\n")).toContain("dicairkan");
    await u.sendCommand("beli", "S10 081234567890");
    expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
  });

  it("a sale after /saldo checks the balance /saldo just showed, not one read a minute ago", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    w.sandbox.setBalance(w.demoKey, 5_000);
    await u.sendCommand("beli", "S10 081234567890");
    expect(u.lastReply()).toContain("Saldo tidak cukup");
    w.sandbox.setBalance(w.demoKey, 50_000); // a deposit paid by bank transfer, say
    await u.sendCommand("saldo");
    expect(u.lastReply()).toContain("Rp50.000");
    await u.sendCommand("beli", "S10 081234567890");
    expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
  });

  it("instant release: preview of the handling fee, then exactly one release even when confirmed twice", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await toConfirm(u, /^QRIS · /, "50000");
    await u.pressButton("✅ Konfirmasi");
    const tx = await latestDeposit(u);
    w.sandbox.payDeposit(tx.upstreamId!);
    const before = w.sandbox.balance(w.demoKey);

    // The status message (another feature) shows the release button once the deposit is processing.
    await u.deliver(callbackWithData(u, tx.messageId!, `dp:i:${tx.refId}`));
    const preview = u.lastReply()!;
    expect(preview).toContain("Cairkan deposit sekarang?");
    expect(preview).toContain("Biaya penanganan: Rp750");
    expect(preview).toContain("Total biaya: Rp1.100");
    expect(preview).toContain("Masuk ke saldo: Rp48.900");
    const instantCalls = () => w.sandbox.calls("/deposit/instant");
    expect(instantCalls().map((c) => c.body.action)).toEqual(["false"]);
    expect(w.sandbox.balance(w.demoKey)).toBe(before);

    const question = u.findButton("⚡ Ya, cairkan")!.messageId;
    const sentBefore = w.fake.callsOf("sendMessage").length;
    const first = u.callbackUpdate("⚡ Ya, cairkan");
    const second = u.callbackUpdate("⚡ Ya, cairkan");
    await Promise.all([u.deliver(first), u.deliver(second)]);
    await u.deliver(first);
    // Told once, in place of the question, which keeps no buttons; the photo shows the state.
    const told = u.messages().filter((m) => /dicairkan|Deposit masuk/.test(m.text ?? m.caption ?? ""));
    expect(told.map((m) => m.messageId)).toEqual([question]);
    expect(w.fake.message(u.chatId, question)!.text).not.toContain("Cairkan deposit sekarang?");
    expect(w.fake.message(u.chatId, question)!.inlineKeyboard).toBeUndefined();
    expect(w.fake.callsOf("sendMessage").length).toBe(sentBefore);
    expect(w.fake.message(u.chatId, tx.messageId!)!.caption).toContain("LUNAS");
    expect(instantCalls().filter((c) => c.body.action === "true")).toHaveLength(1);
    expect(u.replies().join("\n")).not.toContain("Ya, cairkan");
    const done = (await w.store.getTx(tx.refId))!;
    expect(done).toMatchObject({ status: "success", fee: 1100 });
    expect(done.detail).toMatchObject({ instant: "done", credited: 48900, handlingFee: 750 });
    expect(w.sandbox.balance(w.demoKey)).toBe(before + 48900);
    expect(u.buttons({ messageId: tx.messageId! })).toEqual([]); // the QR photo's pending buttons are gone

    // The release button is gone; pressing an old one does not release again.
    await u.deliver(callbackWithData(u, tx.messageId!, `dp:i:${tx.refId}`));
    expect(instantCalls()).toHaveLength(2);
  });

  it("instant release is refused while the store cannot save, and works once it can", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await toConfirm(u, /^QRIS · /, "50000");
    await u.pressButton("✅ Konfirmasi");
    const tx = await latestDeposit(u);
    w.sandbox.payDeposit(tx.upstreamId!);
    await u.deliver(callbackWithData(u, tx.messageId!, `dp:i:${tx.refId}`));
    expect(u.lastReply()).toContain("Cairkan deposit sekarang?");
    // The disk (or the database) fails: a change to the chat cannot be saved (files: in the
    // background flush; PgStore: the call itself rejects).
    await w.breakStore();
    await w.store.updateChat(u.chatId, { lang: "id" }).catch(() => undefined);
    // The files' flush fails on real I/O, late on a loaded machine: the press comes once the store knows.
    await until(() => !w.store.canPersist(), { clocks: [w.clock], stepMs: 100, what: "the store never found it cannot save" });
    await u.pressButton("⚡ Ya, cairkan");
    expect(u.lastReply()).toContain("Penyimpanan bot sedang bermasalah; tidak ada transaksi yang dikirim.");
    const released = () => w.sandbox.calls("/deposit/instant").filter((c) => c.body.action === "true");
    expect(released()).toHaveLength(0);
    await w.repairStore();
    await u.pressButton("⚡ Ya, cairkan");
    expect(released()).toHaveLength(1);
  });
});

describe("a kill between the create and the instructions", () => {
  it("after a restart, an open deposit whose QR photo never went out gets it", async () => {
    const u = await w.linkedUser({ languageCode: "en" });
    await toConfirm(u, /^QRIS/, "50.000");
    // The process dies while the photo is being sent: Telegram never gets it.
    w.fake.failNext("sendPhoto", { error_code: 400, description: "Bad Request: connection lost" }, { times: 1 });
    await u.pressButton("✅ Confirm").catch(() => undefined);
    expect(createCalls()).toHaveLength(1);
    const before = w.fake.sentTo(u.chatId).filter((c) => c.method === "sendPhoto");
    expect(before).toHaveLength(0);
    await w.restart();
    await w.app.recover();
    const tx = await latestDeposit(u);
    const photos = w.fake.sentTo(u.chatId).filter((c) => c.method === "sendPhoto");
    expect(photos).toHaveLength(1);
    expect(decodeQrPng(u.lastPhoto())).toBe(sandboxDeposit(tx).extra.qr_string);
    expect(w.fake.message(u.chatId, tx.messageId!)?.caption).toContain("QRIS");
    // Shown once: a second start sends nothing more.
    await w.restart();
    await w.app.recover();
    expect(w.fake.sentTo(u.chatId).filter((c) => c.method === "sendPhoto")).toHaveLength(1);
    expect(createCalls()).toHaveLength(1);
  });

  it("a start while Telegram is unreachable does not wait for the instructions; a stop cuts their retries; the next start sends them once", async () => {
    const u = await w.linkedUser({ languageCode: "en" });
    await toConfirm(u, /^QRIS/, "50.000");
    w.fake.failNext("sendPhoto", { error_code: 400, description: "Bad Request: connection lost" }, { times: 1 });
    await u.pressButton("✅ Confirm").catch(() => undefined);
    await w.restart();
    // Every photo is lost on the way: auto-retry would try again, 3, 6, 12 s apart, without end.
    w.fake.dropNext("sendPhoto", { times: 1_000 });
    await w.app.start();
    await until(() => w.fake.callsOf("getUpdates").length > 0, { what: "polling never began" });
    await w.restart(); // the stop does not wait for the next try either
    w.fake.endDrops();
    await w.app.recover();
    const tx = await latestDeposit(u);
    expect(w.fake.sentTo(u.chatId).filter((c) => c.method === "sendPhoto")).toHaveLength(1);
    expect(decodeQrPng(u.lastPhoto())).toBe(sandboxDeposit(tx).extra.qr_string);
    expect(createCalls()).toHaveLength(1);
  });

  it("a VA deposit whose instructions were never shown gets them after a restart", async () => {
    const u = await w.linkedUser({ languageCode: "en" });
    await toConfirm(u, /^Virtual Account BCA · /, "100.000");
    w.fake.failNext("sendMessage", { error_code: 400, description: "Bad Request: connection lost" }, { times: 1 });
    await u.pressButton("✅ Confirm").catch(() => undefined);
    await w.restart();
    await w.app.recover();
    const rec = sandboxDeposit(await latestDeposit(u));
    expect(u.lastReply()).toContain(`VA number: ${rec.extra.nomor_va}`);
  });
});

describe("a deposit whose create answer was lost", () => {
  /** /deposit -> QRIS -> 30000 -> Konfirmasi while the provider makes the deposit but its answer never comes. */
  async function lostCreate(): Promise<{ u: FakeUser; tx: TxRecord }> {
    await w.close(); // this world watches, and its provider answers fast enough to time out
    w = await makeWorld({ watcher: true, upstreamTimeoutMs: 300 });
    const u = await w.linkedUser({ languageCode: "id" });
    await toConfirm(u, /^QRIS · /, "30000");
    w.sandbox.fault("/deposit/create", "timeout", 1);
    await u.pressButton("✅ Konfirmasi");
    const tx = await latestDeposit(u);
    expect(tx.status).toBe("unknown");
    return { u, tx };
  }

  async function watchUntil(done: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 30 && !(await done()); i++) {
      await w.clock.advance(10_000);
      await w.watcher!.whenIdle();
    }
  }

  it("says nothing was taken from the balance, and sends the QR once the status answer carries it", async () => {
    const { u, tx } = await lostCreate();
    const told = u.lastReply()!;
    expect(told).toContain("Saldo Anda tidak terpotong");
    expect(told).toContain("kode pembayarannya");
    expect(told).not.toContain("Saldo mungkin sudah terpotong");
    // A provider whose status answer carries the QR (the documented one does not: see the next test).
    const rec = w.sandbox.transaction(tx.refId) as SandboxDeposit;
    const upstream = w.deps.upstream;
    const status = upstream.depositStatus.bind(upstream);
    (upstream as { depositStatus: unknown }).depositStatus = async (...args: Parameters<typeof status>) => ({ ...(await status(...args)), qrString: rec.extra.qr_string });
    await watchUntil(async () => (await latestDeposit(u)).status === "pending");
    // Sent beside the check: real I/O to Telegram.
    await until(async () => (await latestDeposit(u)).messageId !== tx.messageId, { what: "the QR photo never went out" });
    const after = await latestDeposit(u);
    expect(after.status).toBe("pending");
    expect(decodeQrPng(u.lastPhoto())).toBe(rec.extra.qr_string);
    expect(u.buttons({ messageId: after.messageId! })).toEqual(["🔄 Cek status", "🚫 Batalkan deposit"]);
    // Once: more checks, a status tap and a restart send nothing more.
    await watchUntil(async () => false);
    await w.restart();
    await w.app.recover();
    expect(w.fake.sentTo(u.chatId).filter((c) => c.method === "sendPhoto")).toHaveLength(1);
    expect(createCalls()).toHaveLength(1);
  });

  it("found unpaid with no code to pay (the documented status answer): says so and offers the cancel, once", async () => {
    const { u } = await lostCreate();
    await watchUntil(async () => (await latestDeposit(u)).status === "pending");
    // The notice goes out, then its message id is saved on the record (a separate write: later on PostgreSQL).
    const noticeSaved = async () => {
      const latest = await latestDeposit(u);
      return latest.messageId !== undefined && (w.fake.message(u.chatId, latest.messageId)?.text ?? "").includes("tidak bisa dibayar");
    };
    await until(noticeSaved, { what: "the no-code notice never went out with its message saved" });
    const tx = await latestDeposit(u);
    expect(tx.status).toBe("pending");
    const notice = w.fake.message(u.chatId, tx.messageId!)!;
    expect(notice.text).toContain("tidak bisa dibayar: batalkan, lalu buat deposit baru");
    expect(notice.text).toContain("Nominal: Rp30.000");
    expect(u.buttons({ messageId: tx.messageId! })).toEqual(["🔄 Cek status", "🚫 Batalkan deposit"]);
    await watchUntil(async () => false);
    expect(u.replies().filter((t) => t.includes("tidak bisa dibayar"))).toHaveLength(1);
    await u.pressButton("🚫 Batalkan deposit", { messageId: tx.messageId! });
    await u.pressButton("🚫 Ya, batalkan");
    expect((await latestDeposit(u)).status).toBe("cancel");
  });

  // Chaos seed 1614: the no-code message goes out beside the check that found the deposit, Telegram
  // holds it, and meanwhile the deposit expires and is told on the message the record had.
  it.each([
    ["told before the held message answers", false],
    ["its notice under way (Telegram answered 502) when the held message answers", true],
  ])("expiring while its no-code message is still on its way, %s: the deposit's message shows the expiry, told once", async (_case, editFails) => {
    const { u, tx } = await lostCreate();
    const release = w.fake.holdNext("sendMessage");
    await watchUntil(async () => (await latestDeposit(u)).status === "pending");
    await until(() => w.fake.callsOf("sendMessage").some((c) => String(c.payload.text).includes("tidak bisa dibayar")), { what: "the no-code message was never sent" });
    // It expires and the late-payment grace ends; an expiry is told by an edit of the deposit's message.
    const rec = w.sandbox.transaction(tx.refId) as SandboxDeposit;
    // Telegram failing notices until the held message answered: the expiry's notice stays under way.
    let failing = editFails;
    w.fake.setResponder((method) => (failing && (method === "editMessageText" || method === "sendMessage") ? apiError(502, "Bad Gateway") : undefined));
    await w.clock.advance(rec.expiresAt + DEFAULT_DEPOSIT_LATE_MS - w.clock.now());
    const told = async (d: TxRecord) => (editFails ? d.watch?.announcing === "expired" : d.status === "expired");
    await watchUntil(async () => told(await latestDeposit(u)));
    expect(await told(await latestDeposit(u))).toBe(true);
    failing = false;
    release();
    // Settled once the message is recorded as the deposit's, or taken back.
    const noCode = () => u.messages().filter((m) => !m.deleted && (m.text ?? "").includes("tidak bisa dibayar"));
    const answered = () => w.fake.callsOf("sendMessage").some((c) => c.response?.ok === true && String(c.payload.text).includes("tidak bisa dibayar"));
    await until(async () => (await latestDeposit(u)).messageId !== tx.messageId || (answered() && noCode().length === 0), { what: "the held no-code message never settled" });
    await watchUntil(async () => (await latestDeposit(u)).status === "expired");
    const after = await latestDeposit(u);
    expect(after.status).toBe("expired");
    const shown = w.fake.message(u.chatId, after.messageId!)!;
    expect(`${shown.text ?? ""}${shown.caption ?? ""}`).toContain("Kedaluwarsa");
    // Nothing payable left in the chat, and no second telling.
    expect(noCode()).toHaveLength(0);
    expect(w.fake.callsOf("sendMessage").filter((c) => c.response?.ok === true && String(c.payload.text).includes("Deposit kedaluwarsa"))).toHaveLength(0);
  });
});
