import { afterEach, describe, expect, it } from "vitest";
import { rupiah } from "../../src/render/format.js";
import { SANDBOX_CUSTOMERS } from "../../src/sandbox/index.js";
import type { TxRecord } from "../../src/store/index.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World, type WorldOptions } from "../support/world.js";
import { until } from "../support/settle.js";

const INQUIRY = "/transaksi/tagihan";
const PAY = "/transaksi/tagihan/bayar";

/** The sandbox's own record of an inquiry (by reff_id): what it will charge and show. */
interface SandboxInquiry {
  bill: { name: string; total: number; harga: number; adminTotal: number };
}

let w: World;
afterEach(() => w?.close());

async function world(opts?: WorldOptions): Promise<World> {
  w = await makeWorld(opts);
  return w;
}

async function txs(u: FakeUser): Promise<readonly TxRecord[]> {
  return (await w.store.listTxByChat(u.chatId, { limit: 100 })).items;
}

/** /tagihan, pick PLN, type the number: ends on the confirm screen (or the inquiry's refusal). */
async function inquirePln(u: FakeUser, number: string): Promise<void> {
  await u.sendCommand("tagihan");
  await u.pressButton("PLN Pascabayar");
  await u.sendText(number);
}

describe("bill inquiry and payment", () => {
  it("inquires under a saved reference id, shows the bill, and pays it once with the same id", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });

    await u.sendCommand("tagihan");
    expect(u.lastReply()).toContain("Pilih layanan tagihan");
    expect(u.buttons()).toContain("PLN Pascabayar");
    expect(u.buttons()).toContain("⛔ PAM Jaya DKI Jakarta (gangguan)");

    await u.pressButton("PLN Pascabayar");
    expect(u.lastReply()).toContain("Ketik nomor pelanggan");
    expect(u.lastReply()).toContain("Masukkan ID pelanggan PLN (12 digit)");

    // The reference id must be in the store before the inquiry goes out: read while the provider has it.
    const release = w.sandbox.holdNext(INQUIRY);
    const typed = u.sendText("5301-1234 0012"); // two sheets; dashes and spaces are stripped
    await until(() => w.sandbox.calls(INQUIRY).length > 0, { what: "the inquiry reached the provider" });
    const [call] = w.sandbox.calls(INQUIRY);
    const ref = call!.body.reff_id!;
    expect((await w.store.getTx(ref))?.status).toBe("draft");
    release();
    await typed;
    expect(w.sandbox.calls(INQUIRY)).toHaveLength(1);
    expect(call!.body).toMatchObject({ code: "PPLN", customer_no: SANDBOX_CUSTOMERS.twoSheets });

    const bill = (w.sandbox.transaction(ref) as SandboxInquiry).bill;
    const draft = (await w.store.getTx(ref))!;
    expect(draft).toMatchObject({ kind: "postpaid", status: "draft", code: "PPLN", target: SANDBOX_CUSTOMERS.twoSheets, amount: bill.total });
    expect(draft.detail).toMatchObject({ customerName: bill.name, adminFee: bill.adminTotal, cost: bill.harga, sheets: 2 });

    const screen = u.lastReply()!;
    expect(screen).toContain("Periksa sebelum konfirmasi");
    expect(screen).toContain(`Nama pelanggan: ${bill.name}`);
    expect(screen).toContain("Periode (2 lembar)");
    expect(screen).toMatch(/• Nov 2025: Rp[\d.]+ \+ denda Rp3\.000/); // the older sheet carries a late fee
    expect(screen).toMatch(/• Des 2025: Rp[\d.]+\n/);
    expect(screen).toContain(`Tagihan: ${rupiah(bill.total - bill.adminTotal, "id")}`);
    expect(screen).toContain(`Biaya admin: ${rupiah(bill.adminTotal, "id")}`);
    expect(screen).toContain(`Total tagihan pelanggan: ${rupiah(bill.total, "id")}`);
    expect(screen).toContain(`Harga modal Anda (dipotong dari saldo): ${rupiah(bill.harga, "id")}`);
    expect(screen).toContain(ref);
    expect((await w.store.getTx(ref))!.messageId).toBe(u.sentMessageIds.at(-1));
    expect(w.sandbox.calls(PAY)).toHaveLength(0);

    const before = w.sandbox.balance(w.demoKey);
    await u.pressButton("✅ Konfirmasi");
    expect(w.sandbox.calls(PAY).map((c) => c.body)).toEqual([
      expect.objectContaining({ code: "PPLN", reff_id: ref, customer_no: SANDBOX_CUSTOMERS.twoSheets }),
    ]);
    expect(w.sandbox.balance(w.demoKey)).toBe(before - bill.harga);
    const paid = (await w.store.getTx(ref))!;
    expect(paid.status).toBe("pending");
    expect(paid.upstreamId).toBe((w.sandbox.transaction(ref) as { id: string }).id);
    expect(u.lastReply()).toContain("Pembayaran tagihan");
    expect(u.lastReply()).toContain("Sedang diproses");

    // The sandbox now knows the bill is paid: asking again says so, nothing is charged.
    await inquirePln(u, SANDBOX_CUSTOMERS.twoSheets);
    expect(u.lastReply()).toContain("Tagihan sudah dibayar");
    expect(w.sandbox.calls(PAY)).toHaveLength(1);
  });

  it("explains an unknown customer number and lets the user type another", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "en" });
    await inquirePln(u, SANDBOX_CUSTOMERS.notFound);
    const reply = u.lastReply()!;
    expect(reply).toContain("The provider says (in Indonesian): Nomor pelanggan tidak ditemukan");
    expect(reply).toContain("not registered with PLN Pascabayar");
    expect(reply).toContain("Type another customer number");
    // The failed inquiry's draft is closed, not left dangling.
    expect((await txs(u)).map((t) => t.status)).toEqual(["cancel"]);

    await u.sendText(SANDBOX_CUSTOMERS.oneSheet);
    expect(u.lastReply()).toContain("Check before you confirm");
    expect(u.lastReply()).toContain("Total the customer owes");
    expect(u.lastReply()).toContain("Your cost (debited from your balance)");
    const statuses = (await txs(u)).map((t) => t.status).sort();
    expect(statuses).toEqual(["cancel", "draft"]);
    expect(w.sandbox.calls(PAY)).toHaveLength(0);
  });

  it("explains a bill that is already paid; the user can cancel", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    await inquirePln(u, SANDBOX_CUSTOMERS.alreadyPaid);
    expect(u.lastReply()).toContain("Penyedia menjawab: Tagihan sudah dibayar");
    expect(u.lastReply()).toContain("sudah lunas");
    expect((await txs(u)).map((t) => t.status)).toEqual(["cancel"]);

    await u.pressButton("❌ Batal");
    expect(u.lastReply()).toContain("Dibatalkan");
    await u.sendText(SANDBOX_CUSTOMERS.oneSheet); // the flow is over: no inquiry
    expect(w.sandbox.calls(INQUIRY)).toHaveLength(1);
    expect(w.sandbox.calls(PAY)).toHaveLength(0);
  });

  it("re-asks an invalid number without losing the chosen service", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("bill");
    await u.pressButton("PLN Pascabayar");
    await u.sendText("abc123");
    expect(u.lastReply()).toContain("digits only");
    expect(u.buttons()).toEqual(["❌ Cancel"]);
    await u.sendText("1234 5");
    expect(u.lastReply()).toContain("6 to 20 digits; you typed 5");
    await u.sendText("123456789012345678901");
    expect(u.lastReply()).toContain("you typed 21");
    expect(w.sandbox.calls(INQUIRY)).toHaveLength(0);

    await u.sendText(SANDBOX_CUSTOMERS.oneSheet);
    expect(u.lastReply()).toContain("PLN Pascabayar");
    expect(u.buttons()).toEqual(["✅ Confirm", "❌ Cancel"]);
    expect(w.sandbox.calls(INQUIRY).map((c) => c.body.code)).toEqual(["PPLN"]);
  });

  it("cancel at the number step: no inquiry, no payment, nothing saved", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("tagihan");
    await u.pressButton("PLN Pascabayar");
    await u.pressButton("❌ Batal");
    expect(u.lastReply()).toContain("Dibatalkan");

    // /batal works the same way.
    await u.sendCommand("tagihan");
    await u.pressButton("PLN Pascabayar");
    await u.sendCommand("batal");
    expect(u.lastReply()).toContain("Dibatalkan");

    await u.sendText(SANDBOX_CUSTOMERS.oneSheet);
    expect(w.sandbox.calls(INQUIRY)).toHaveLength(0);
    expect(w.sandbox.calls(PAY)).toHaveLength(0);
    expect(await txs(u)).toHaveLength(0);
  });

  it("a double tap on Confirm pays once", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    await inquirePln(u, SANDBOX_CUSTOMERS.oneSheet);
    const first = u.callbackUpdate("✅ Konfirmasi");
    const second = u.callbackUpdate("✅ Konfirmasi");
    const before = w.sandbox.balance(w.demoKey);
    await Promise.all([u.deliver(first), u.deliver(second)]);

    expect(w.sandbox.calls(PAY)).toHaveLength(1);
    const [tx] = await txs(u);
    const charge = (w.sandbox.transaction(tx!.refId) as { harga: number }).harga;
    expect(w.sandbox.balance(w.demoKey)).toBe(before - charge);
    const answers = w.fake.callsOf("answerCallbackQuery").map((c) => c.payload.text);
    expect(answers).toContain("Transaksi ini sudah diproses.");
  });

  it("a timeout on payment is an unknown outcome, never sent again", async () => {
    await world({ upstreamTimeoutMs: 300 });
    const u = await w.linkedUser({ languageCode: "en" });
    await inquirePln(u, SANDBOX_CUSTOMERS.oneSheet);
    w.sandbox.fault(PAY, "timeout");
    await u.pressButton("✅ Confirm");

    const [tx] = await txs(u);
    expect(tx!.status).toBe("unknown");
    expect(u.lastReply()).toContain("Outcome unknown");
    expect(u.lastReply()).toContain(tx!.refId);
    expect(u.buttons()).not.toContain("🔁 Try again");
    await w.clock.advance(60_000);
    expect(w.sandbox.calls(PAY)).toHaveLength(1);
    // The sandbox did take the payment: it was the answer that got lost.
    expect((w.sandbox.transaction(tx!.refId) as { reffId: string }).reffId).toBe(tx!.refId);
  });

  it("refuses on low balance with the provider's message; Try again inquires afresh under a new id", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    await inquirePln(u, SANDBOX_CUSTOMERS.oneSheet);
    const firstRef = (await txs(u))[0]!.refId;
    w.sandbox.setBalance(w.demoKey, 1_000);
    await u.pressButton("✅ Konfirmasi");

    expect(u.lastReply()).toContain("Ditolak penyedia");
    expect(u.lastReply()).toContain("Saldo tidak mencukupi");
    expect(u.lastReply()).toContain("Saldo Anda Rp1.000");
    expect(await w.store.getTx(firstRef)).toMatchObject({ status: "failed", message: "Saldo tidak mencukupi" });
    expect(w.sandbox.balance(w.demoKey)).toBe(1_000);

    w.sandbox.setBalance(w.demoKey, 500_000);
    await u.pressButton("🔁 Coba lagi");
    const inquiries = w.sandbox.calls(INQUIRY);
    expect(inquiries).toHaveLength(2);
    const secondRef = inquiries[1]!.body.reff_id!;
    expect(secondRef).not.toBe(firstRef);
    expect(await w.store.getTx(secondRef)).toMatchObject({ status: "draft", target: SANDBOX_CUSTOMERS.oneSheet });
    expect(u.lastReply()).toContain("Total tagihan pelanggan");
    expect(u.lastReply()).toContain(secondRef);

    await u.pressButton("✅ Konfirmasi");
    expect(w.sandbox.calls(PAY).map((c) => c.body.reff_id)).toEqual([firstRef, secondRef]);
    expect((await w.store.getTx(secondRef))!.status).toBe("pending");
  });

  it("an inquiry outage can be retried with the same number", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    w.sandbox.fault(INQUIRY, "html502");
    await inquirePln(u, SANDBOX_CUSTOMERS.oneSheet);
    expect(u.lastReply()).toContain("Server penyedia sedang tidak bisa dihubungi");
    expect(u.buttons()).toEqual(["🔁 Coba lagi", "❌ Batal"]);
    expect((await txs(u)).map((t) => t.status)).toEqual(["cancel"]);

    // A typo after the outage is re-asked with the retry button still there.
    await u.sendText("12ab");
    expect(u.buttons()).toEqual(["🔁 Coba lagi", "❌ Batal"]);
    await u.pressButton("🔁 Coba lagi");
    expect(w.sandbox.calls(INQUIRY).map((c) => c.body.customer_no)).toEqual([SANDBOX_CUSTOMERS.oneSheet, SANDBOX_CUSTOMERS.oneSheet]);
    expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
  });

  it("shows disrupted services but refuses them; search narrows the list; menu entry works", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("menu");
    await u.pressButton("🧾 Bills");
    await u.pressButton("⛔ PAM Jaya DKI Jakarta (disrupted)");
    expect(u.lastReply()).toContain("is disrupted at the provider");
    expect(u.lastReply()).toContain("Choose the billing service");
    await u.sendText("pdam");
    expect(u.buttons()).toEqual([
      "PDAM Surya Sembada Kota Surabaya",
      "PDAM Tirtawening Kota Bandung",
      "⛔ PAM Jaya DKI Jakarta (disrupted)",
      "❌ Cancel",
    ]);
    await u.pressButton("PDAM Tirtawening Kota Bandung");
    await u.sendText(SANDBOX_CUSTOMERS.oneSheet);
    expect(w.sandbox.calls(INQUIRY).map((c) => c.body.code)).toEqual(["PDAMBDG"]);
    expect(u.lastReply()).toContain("PDAM Tirtawening Kota Bandung");
  });

  it("BPJS shows participants and period labels without amounts", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("tagihan");
    await u.pressButton("BPJS Kesehatan");
    await u.sendText(SANDBOX_CUSTOMERS.bpjs);
    expect(u.lastReply()).toMatch(/Jumlah peserta: \d/);
    expect(u.lastReply()).toMatch(/• Des 2025\n/);
  });

  it("needs a private chat and a linked key", async () => {
    await world();
    const group = w.user({ chatType: "group", languageCode: "en" });
    await group.sendCommand("tagihan");
    expect(group.lastReply()).toContain("only works in a private chat");
    const stranger = w.user({ languageCode: "id" });
    await stranger.sendCommand("tagihan");
    expect(stranger.lastReply()).toContain("belum terhubung");
    expect(w.sandbox.calls()).toHaveLength(0);
  });
});
