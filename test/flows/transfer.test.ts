import { afterEach, describe, expect, it, vi } from "vitest";
import { parseAccountNumber } from "../../src/bot/flows/transfer.js";
import { maskName, nameFor } from "../../src/sandbox/rules.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World, type WorldOptions } from "../support/world.js";

const holderOf = (accountNumber: string) => maskName(nameFor(`acct:${accountNumber}`));

describe("transfer input parsing", () => {
  it("reads account numbers with spaces and dashes", () => {
    expect(parseAccountNumber("1234 5678-90")).toBe("1234567890");
    expect(parseAccountNumber("1234")).toBeUndefined();
    expect(parseAccountNumber("123456789012345678901")).toBeUndefined();
    expect(parseAccountNumber("12345abc")).toBeUndefined();
  });
});

describe("/transfer", () => {
  let w: World;
  const open = async (opts: WorldOptions = {}) => {
    w = await makeWorld(opts);
    return w;
  };
  afterEach(() => w?.close());

  /** /transfer -> search the bank -> pick it -> type the number (account check follows). */
  async function toAccount(u: FakeUser, search: string, bankLabel: RegExp, number: string): Promise<void> {
    await u.sendCommand("transfer");
    await u.sendText(search);
    await u.pressButton(bankLabel);
    await u.sendText(number);
  }

  /** From the amount prompt to the confirm screen, skipping the note. */
  async function toConfirm(u: FakeUser, amount: string): Promise<void> {
    await u.sendText(amount);
    expect(u.lastReply()).toContain("Add a note");
    await u.pressButton("⏭ Skip");
    expect(u.lastReply()).toContain("Check before you confirm");
  }

  /** The chat's one and only transaction. */
  const onlyTx = async (u: FakeUser) => {
    const { items, total } = await w.store.listTxByChat(u.chatId);
    expect(total).toBe(1);
    return items[0]!;
  };

  it("happy path: bank search, holder name, 50rb, skip note, one create with our ref_id, fee on the receipt", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("transfer");
    expect(u.lastReply()).toContain("Pick the destination bank or e-wallet");
    // E-wallets and banks look different; the list is paged.
    expect(u.buttons()).toContain("👛 DANA (e-wallet)");
    expect(u.buttons()).toContain("Next ➡️");

    await u.sendText("bca");
    expect(u.buttons()).toEqual(["🏦 Bank Central Asia (BCA)", "❌ Cancel"]);
    await u.pressButton(/BCA/);
    expect(u.lastReply()).toContain("account number");

    await u.sendText("12");
    expect(u.lastReply()).toContain("5–20 digits");
    await u.sendText("1234-5678 90");
    const holder = holderOf("1234567890");
    expect(u.lastReply()).toContain("Account found");
    expect(u.lastReply()).toContain(holder);
    expect(u.lastReply()).toContain("Minimum Rp10,000");
    expect(w.sandbox.calls("/transfer/cek_rekening").map((c) => c.body.account_number)).toEqual(["1234567890"]);

    await toConfirm(u, "50rb");
    const confirm = u.lastReply()!;
    const draft = await onlyTx(u);
    expect(draft).toMatchObject({
      kind: "transfer",
      status: "draft",
      code: "bca",
      title: "Bank Central Asia (BCA)",
      target: "1234567890",
      amount: 50_000,
      detail: { holderName: holder, bankType: "bank", note: "" },
    });
    for (const part of ["Bank Central Asia (BCA)", "1234567890", holder, "Rp50,000", draft.refId]) expect(confirm).toContain(part);
    // What the money does, before Confirm: the first transfer has no earlier fee to go by, so the most a
    // transfer to a bank costs bounds it (the provider tells the fee only in the create's answer).
    expect(confirm).toContain("Amount: Rp50,000 (what the account holder receives)");
    expect(confirm).toContain("Fee: at most Rp6,500 (the most the provider charges for a transfer to a bank; the exact fee is shown on the receipt)");
    expect(confirm).toContain("Leaves your balance: at most Rp56,500 (amount + fee)");
    expect(w.sandbox.calls("/transfer/create")).toHaveLength(0);

    const before = w.sandbox.balance(w.demoKey);
    await u.pressButton("✅ Confirm");
    const creates = w.sandbox.calls("/transfer/create");
    expect(creates).toHaveLength(1);
    expect(creates[0]!.body).toMatchObject({ ref_id: draft.refId, kode_bank: "bca", nomor_akun: "1234567890", nama_pemilik: holder, nominal: "50000" });
    expect(creates[0]!.body.note).toBeUndefined();
    expect(w.sandbox.balance(w.demoKey)).toBe(before - 52_500);

    const receipt = u.lastReply()!;
    for (const part of ["Fee: Rp2,500", "Total: Rp52,500", "Amount: Rp50,000", holder, draft.refId]) expect(receipt).toContain(part);
    const done = (await w.store.getTx(draft.refId))!;
    expect(done).toMatchObject({ status: "pending", amount: 50_000, fee: 2_500, total: 52_500 });
    expect(done.upstreamId).toBeTruthy();
  });

  it("a search that finds nothing quotes the user's words safely (HTML is the default parse mode)", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("transfer");
    await u.sendText("<b>zz & co");
    expect(u.lastReply()).toContain('"<b>zz & co"');
    await u.sendText("bca");
    expect(u.buttons()).toContain("🏦 Bank Central Asia (BCA)");
  });

  it("an account number typed at the bank list is answered with the list again: Cancel, the banks, and what to type", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("transfer");
    await u.sendText("1234 5678 90");
    const answer = u.messages().at(-1)!;
    expect(answer.text).toContain('No bank or e-wallet matches "1234 5678 90"');
    expect(answer.text).toContain("account number is asked next");
    const labels = (answer.inlineKeyboard ?? []).flat().map((b) => b.text);
    expect(labels).toContain("❌ Cancel");
    expect(labels).toContain("👛 DANA (e-wallet)");
    // The way on: a bank from this very message, then the number.
    await u.pressButton(/DANA/, { messageId: answer.messageId });
    expect(u.lastReply()).toContain("DANA");
    expect(u.lastReply()).toContain("registered");
  });

  it("Cancel under a search that found nothing ends the transfer", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("transfer");
    await u.sendText("zzz");
    await u.pressButton("❌ Batal", { messageId: u.messages().at(-1)!.messageId });
    expect(u.lastReply()).toContain("Dibatalkan");
    await u.sendText("bca");
    expect(u.lastReply()).not.toContain("Tidak ada");
  });

  it("an invalid account is explained and the number retyped", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "en" });
    await toAccount(u, "mandiri", /Mandiri/, "1234567999");
    expect(u.lastReply()).toContain("was not found or is not valid");
    expect(u.lastReply()).toContain("1234567999");
    await u.sendText("1234567001");
    expect(u.lastReply()).toContain("Account found");
    expect(u.lastReply()).toContain(holderOf("1234567001"));
    expect(w.sandbox.calls("/transfer/cek_rekening")).toHaveLength(2);
  });

  it("an account still being checked offers 'check again', which proceeds once it is valid", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "en" });
    await toAccount(u, "bca", /BCA/, "9876543777");
    expect(u.lastReply()).toContain("being checked");
    expect(u.buttons()).toEqual(["🔄 Check again", "❌ Cancel"]);

    await u.pressButton("🔄 Check again");
    expect(u.lastReply()).toContain("being checked");
    expect(w.sandbox.calls("/transfer/cek_rekening")).toHaveLength(2);

    w.sandbox.setAccountStatus("bca", "9876543777", "valid", "SITI RAHAYU");
    await u.pressButton("🔄 Check again");
    expect(u.lastReply()).toContain("Account found");
    expect(u.lastReply()).toContain("SITI RAHAYU");
    await toConfirm(u, "25000");
    await u.pressButton("✅ Confirm");
    expect(w.sandbox.calls("/transfer/create").map((c) => c.body.nomor_akun)).toEqual(["9876543777"]);
    expect((await onlyTx(u)).status).toBe("pending");
  });

  it("an amount below the minimum is retyped; the note is kept and sent", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "en" });
    await toAccount(u, "bri", /BRI/, "5550001112");
    await u.sendText("5000");
    expect(u.lastReply()).toContain("The minimum transfer is Rp10,000");
    await u.sendText("lima puluh");
    expect(u.lastReply()).toContain("not understood");
    await u.sendText("900rb");
    expect(u.lastReply()).toContain("Add a note");
    await u.sendText("x".repeat(101));
    expect(u.lastReply()).toContain("too long (101 characters");
    expect(u.buttons()).toEqual(["⏭ Skip", "❌ Cancel"]);
    await u.sendText("bayar <arisan>");
    expect(u.lastReply()).toContain("Rp900,000");
    expect(u.lastReply()).toContain("Note: bayar <arisan>");
    await u.pressButton("✅ Confirm");
    expect(w.sandbox.calls("/transfer/create")[0]!.body).toMatchObject({ nominal: "900000", note: "bayar <arisan>" });
  });

  it("cancel at the amount step ends the flow without a transaction", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "en" });
    await toAccount(u, "bni", /BNI/, "1112223334");
    expect(u.lastReply()).toContain("How much");
    await u.pressButton("❌ Cancel");
    expect(u.lastReply()).toContain("Cancelled");
    await u.sendText("50000");
    expect(u.replies().join("\n")).not.toContain("Add a note");
    expect((await w.store.listTxByChat(u.chatId)).total).toBe(0);
    expect(w.sandbox.calls("/transfer/create")).toHaveLength(0);
  });

  it("a double Confirm makes exactly one transfer", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "en" });
    await toAccount(u, "ovo", /OVO/, "081234567890");
    await toConfirm(u, "20.000");
    const first = u.callbackUpdate("✅ Confirm");
    const second = u.callbackUpdate("✅ Confirm");
    const before = w.sandbox.balance(w.demoKey);
    await Promise.all([u.deliver(first), u.deliver(second)]);
    expect(w.sandbox.calls("/transfer/create")).toHaveLength(1);
    expect(w.fake.callsOf("answerCallbackQuery").map((c) => c.payload.text)).toContain("This transaction was already processed.");
    expect(w.sandbox.balance(w.demoKey)).toBe(before - 21_000); // e-wallet fee
    expect(await onlyTx(u)).toMatchObject({ status: "pending", fee: 1_000, total: 21_000, detail: { bankType: "ewallet" } });
  });

  it("insufficient balance is refused with the provider's message and nothing is charged", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "en" });
    await toAccount(u, "bca", /BCA/, "1234567890");
    await toConfirm(u, "50rb");
    // Spent elsewhere after the confirm screen (too little up front is refused before: trustMoney.test.ts).
    w.sandbox.setBalance(w.demoKey, 20_000);
    await u.pressButton("✅ Confirm");
    expect(u.lastReply()).toContain("Refused by the provider");
    expect(u.lastReply()).toContain("Saldo tidak mencukupi");
    expect(u.buttons()).toContain("🔁 Try again");
    expect(w.sandbox.balance(w.demoKey)).toBe(20_000);
    expect(await onlyTx(u)).toMatchObject({ status: "failed", message: "Saldo tidak mencukupi" });

    // Try again: the account is checked again and a new draft with a new reference id is confirmed.
    w.sandbox.setBalance(w.demoKey, 100_000);
    await u.pressButton("🔁 Try again");
    const { items } = await w.store.listTxByChat(u.chatId);
    expect(items).toHaveLength(2);
    const failed = items.find((t) => t.status === "failed")!;
    const retry = items.find((t) => t.status === "draft")!;
    expect(retry.refId).not.toBe(failed.refId);
    expect(retry).toMatchObject({ amount: 50_000, code: "bca", target: "1234567890" });
    expect(u.lastReply()).toContain(retry.refId);
    await u.pressButton("✅ Confirm");
    expect(w.sandbox.calls("/transfer/create").map((c) => c.body.ref_id)).toEqual([failed.refId, retry.refId]);
    expect(w.sandbox.calls("/transfer/cek_rekening")).toHaveLength(2);
    expect(w.sandbox.balance(w.demoKey)).toBe(100_000 - 52_500);
  });

  it("a timeout on create is an unknown outcome, never re-sent", async () => {
    await open({ upstreamTimeoutMs: 300 });
    const u = await w.linkedUser({ languageCode: "en" });
    await toAccount(u, "bca", /BCA/, "1234567890");
    await toConfirm(u, "50000");
    const again = u.callbackUpdate("✅ Confirm");
    w.sandbox.fault("/transfer/create", "timeout");
    await u.pressButton("✅ Confirm");
    expect(u.lastReply()).toContain("Outcome unknown");
    expect(u.lastReply()).toContain("Do not repeat");
    const tx = await onlyTx(u);
    expect(tx.status).toBe("unknown");
    await u.deliver(again);
    expect(w.sandbox.calls("/transfer/create")).toHaveLength(1);
    // The request reached the provider: the money did move.
    expect(w.sandbox.transaction(tx.refId)).toMatchObject({ reffId: tx.refId });
    expect((await w.store.getTx(tx.refId))!.status).toBe("unknown");
  });

  it("shows the fee of the last transfer of the same kind as an estimate", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "en" });
    await toAccount(u, "bca", /BCA/, "1234567890");
    await toConfirm(u, "50000");
    await u.pressButton("✅ Confirm");
    await w.clock.advance(60_000);

    await toAccount(u, "bni", /BNI/, "2223334445");
    await toConfirm(u, "30rb");
    expect(u.lastReply()).toContain("Fee: ≈ Rp2,500 (estimated from your last transfer to a bank; the provider sets the exact fee, shown on the receipt)");
    expect(u.lastReply()).toContain("Leaves your balance: ≈ Rp32,500 (amount + fee)");
    await u.pressButton("✅ Confirm");
    const latest = (await w.store.listTxByChat(u.chatId)).items[0]!;
    expect(latest).toMatchObject({ amount: 30_000, fee: 2_500, total: 32_500 });

    // No e-wallet transfer yet: the bank fee is not an e-wallet's estimate; the e-wallet bound is shown.
    await toAccount(u, "gopay", /GoPay/, "081298765432");
    await toConfirm(u, "15000");
    expect(u.lastReply()).toContain("Fee: at most Rp2,500 (the most the provider charges for a transfer to an e-wallet");
    expect(u.lastReply()).toContain("Leaves your balance: at most Rp17,500 (amount + fee)");
    expect(u.lastReply()).not.toContain("≈");
  });

  it("an amount the balance cannot cover with the highest fee seen is refused at the amount step; a smaller one goes on", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "en" });
    await toAccount(u, "bca", /BCA/, "1234567890");
    await toConfirm(u, "50000");
    await u.pressButton("✅ Confirm"); // a bank fee of Rp2.500 is now known
    await w.clock.advance(60_000);
    w.sandbox.setBalance(w.demoKey, 21_000);
    await toAccount(u, "gopay", /GoPay/, "081298765432");
    await u.sendText("20000");
    expect(u.lastReply()).toContain("Your balance of Rp21,000 is not enough to transfer Rp20,000 plus the fee (up to Rp2,500)");
    expect(u.lastReply()).toContain("at most Rp18,500");
    expect(u.buttons()).toEqual(["❌ Cancel"]);
    await u.sendText("18.500");
    expect(u.lastReply()).toContain("Add a note");
    await u.pressButton("⏭ Skip");
    expect(u.lastReply()).toContain("Check before you confirm");
    expect(u.lastReply()).toContain("Rp18,500");
    expect(w.sandbox.calls("/transfer/create")).toHaveLength(1);
  });

  it("a balance below the minimum transfer says to top up first, in Indonesian, and nothing is made", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "id" });
    w.sandbox.setBalance(w.demoKey, 9_000);
    await toAccount(u, "bca", /BCA/, "1234567890");
    await u.sendText("10rb");
    expect(u.lastReply()).toContain("Saldo Anda Rp9.000 tidak cukup untuk transfer Rp10.000 ditambah biaya (sampai Rp6.500).");
    expect(u.lastReply()).toContain("Saldo ini belum cukup untuk transfer minimal Rp10.000");
    await u.pressButton("❌ Batal");
    expect((await w.store.listTxByChat(u.chatId)).total).toBe(0);
    expect(w.sandbox.calls("/transfer/create")).toHaveLength(0);
  });

  it("with no fee seen yet, a too-large amount asks for one that leaves room for the most a fee can be", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "id" });
    w.sandbox.setBalance(w.demoKey, 100_000);
    await toAccount(u, "bca", /BCA/, "1234567890");
    await u.sendText("150rb");
    expect(u.lastReply()).toContain("Saldo Anda Rp100.000 tidak cukup untuk transfer Rp150.000 ditambah biaya (sampai Rp6.500).");
    expect(u.lastReply()).toContain("paling banyak Rp93.500");
    await u.pressButton("❌ Batal");
    expect((await w.store.listTxByChat(u.chatId)).total).toBe(0);
    expect(w.sandbox.calls("/transfer/create")).toHaveLength(0);
  });

  it("a slow account check shows typing at once and a 'checking' line after 1.5 s, gone once the holder is shown", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("transfer");
    await u.sendText("bca");
    await u.pressButton(/BCA/);
    const typingBefore = w.fake.callsOf("sendChatAction").length;
    const release = w.sandbox.holdNext("/transfer/cek_rekening");
    const typed = u.sendText("1234567890");
    await vi.waitFor(() => expect(w.sandbox.calls("/transfer/cek_rekening")).toHaveLength(1));
    expect(w.fake.callsOf("sendChatAction").slice(typingBefore).map((c) => c.payload.action)).toEqual(["typing"]);
    expect(u.lastReply()).not.toContain("Mengecek ke penyedia");
    await w.clock.advance(1500);
    await vi.waitFor(() => expect(u.lastReply()).toContain("Mengecek ke penyedia"));
    release();
    await typed;
    expect(u.lastReply()).toContain("Rekening ditemukan");
    expect(u.messages().filter((m) => m.from === "bot" && !m.deleted && String(m.text).includes("Mengecek ke penyedia"))).toEqual([]);
  });

  it("says when the provider cannot be reached, and lets the user check again", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "en" });
    w.sandbox.fault("/transfer/bank_list", "html502");
    await u.sendCommand("transfer");
    expect(u.lastReply()).toContain("cannot be reached");

    // The menu button starts the flow too; the failed list was not cached.
    await u.sendCommand("menu");
    await u.pressButton("💸 Transfer");
    expect(u.lastReply()).toContain("Pick the destination bank or e-wallet");
    await u.sendText("bsi");
    await u.pressButton(/BSI/);
    w.sandbox.fault("/transfer/cek_rekening", "html502");
    await u.sendText("7001234567");
    expect(u.lastReply()).toContain("cannot be reached");
    expect(u.lastReply()).toContain("could not be checked yet");
    await u.pressButton("🔄 Check again");
    expect(u.lastReply()).toContain("Account found");
    expect(w.sandbox.calls("/transfer/cek_rekening")).toHaveLength(2);
  });

  it("speaks Indonesian and refuses groups", async () => {
    await open();
    const u = await w.linkedUser({ languageCode: "id" });
    await toAccount(u, "dana", /DANA/, "0812 3456 7890");
    expect(u.lastReply()).toContain("Akun ditemukan") // DANA is an e-wallet;
    await u.sendText("Rp 50.000");
    expect(u.lastReply()).toContain("Tambahkan catatan");
    await u.pressButton("⏭ Lewati");
    expect(u.lastReply()).toContain("Rp50.000");
    expect(u.lastReply()).toContain("Nominal: Rp50.000 (yang diterima pemilik rekening)");
    expect(u.lastReply()).toContain("Biaya admin: paling tinggi Rp2.500 (batas biaya penyedia untuk transfer ke e-wallet; jumlah pastinya tampil di struk)");
    expect(u.lastReply()).toContain("Dari saldo keluar: paling banyak Rp52.500 (nominal + biaya admin)");

    const group = w.user({ chatType: "group", languageCode: "en" });
    await group.sendCommand("transfer");
    expect(group.lastReply()).toContain("only works in a private chat");
    const stranger = w.user({ languageCode: "en" });
    await stranger.sendCommand("transfer");
    expect(stranger.lastReply()).toContain("not linked");
  });
});
