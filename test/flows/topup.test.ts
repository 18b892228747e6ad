import type { Update } from "grammy/types";
import { afterEach, describe, expect, it } from "vitest";
import { rupiah } from "../../src/render/format.js";
import type { TxRecord } from "../../src/store/index.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World, type WorldOptions } from "../support/world.js";

const CREATE = "/transaksi/create";
const PRICE_LIST = "/layanan/price_list";
const CONFIRM = /Konfirmasi|Confirm/;

let w: World;
afterEach(() => w?.close());

async function world(opts?: WorldOptions): Promise<World> {
  w = await makeWorld(opts);
  return w;
}

async function txs(u: FakeUser): Promise<readonly TxRecord[]> {
  return (await w.store.listTxByChat(u.chatId, { limit: 100 })).items;
}

async function priceOf(code: string): Promise<number> {
  const [p] = await w.upstream.prepaidPriceList(w.demoKey, code);
  return p!.price;
}

/** No handler failed during the test (the bot answers a failure with its generic apology). */
function expectNoFailures(u: FakeUser): void {
  const texts = u.messages().filter((m) => m.from === "bot").map((m) => m.text ?? "");
  expect(texts.filter((t) => /terjadi kesalahan|something went wrong/.test(t))).toEqual([]);
  const failed = w.fake.calls.filter((c) => c.response && !c.response.ok && c.method !== "getUpdates");
  expect(failed.map((c) => `${c.method}: ${!c.response!.ok ? c.response!.description : ""}`)).toEqual([]);
}

describe("browsing and buying", () => {
  it("category -> provider -> product -> buy -> target -> confirm -> pending, then the sale succeeds", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    const price = await priceOf("S10");

    await u.sendCommand("harga");
    expect(u.lastReply()).toContain("Daftar harga");
    expect(u.buttons()).toEqual(expect.arrayContaining(["🧾 Tagihan", "🔄 Perbarui harga"]));
    await u.pressButton(/^📱 Pulsa/);
    expect(u.lastReply()).toContain("pilih provider");
    await u.pressButton(/^TELKOMSEL/);
    expect(u.lastReply()).toContain(`Telkomsel 10.000: ${rupiah(price, "id")}`);
    await u.pressButton(`Telkomsel 10.000 · ${rupiah(price, "id")}`);
    const detail = u.lastReply()!;
    expect(detail).toContain("Kode: S10");
    expect(detail).toContain(`Harga: ${rupiah(price, "id")}`);
    expect(detail).toContain("Tersedia");
    expect(detail).toContain("masukkan nomor HP");

    await u.pressButton("🛒 Beli");
    expect(u.lastReply()).toContain("Kirim nomor HP tujuan");
    await u.sendText("+62 812-3456-7890");
    const confirm = u.lastReply()!;
    expect(confirm).toContain("Periksa sebelum konfirmasi");
    expect(confirm).toContain("Produk: Telkomsel 10.000");
    expect(confirm).toContain("Kode: S10");
    expect(confirm).toContain("Tujuan: 081234567890");
    expect(confirm).toContain(`Harga modal: ${rupiah(price, "id")}`);
    const [draft] = await txs(u);
    expect(draft).toMatchObject({ status: "draft", kind: "prepaid", code: "S10", target: "081234567890", amount: price });
    expect(confirm).toContain(draft!.refId);
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);

    await u.pressButton(CONFIRM);
    const calls = w.sandbox.calls(CREATE);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({
      code: "S10",
      reff_id: draft!.refId,
      target: "081234567890",
      limit_price: String(price),
    });
    const receipt = u.lastReply()!;
    expect(receipt).toContain("Telkomsel 10.000");
    expect(receipt).toContain("Sedang diproses");
    expect(receipt).toContain(draft!.refId);
    const sent = (await w.store.getTx(draft!.refId))!;
    expect(sent.status).toBe("pending");
    expect(sent.upstreamId).toBeTruthy();

    await w.clock.advance(6000);
    expect(w.sandbox.transaction(draft!.refId)).toMatchObject({ status: "success", target: "081234567890" });
    expectNoFailures(u);
  });

  it("/beli opens the browser in buy mode: a product tap asks for the target at once", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("topup");
    expect(u.lastReply()).toContain("Buy a product");
    await u.pressButton(/^⚡ PLN/); // one provider: straight to its products
    expect(u.lastReply()).toContain("PLN › PLN");
    await u.pressButton(/^PLN 50,000 ·/); // English thousands, as its price
    expect(u.lastReply()).toContain("PLN meter number or customer id");
    await u.sendText("5301 1234 5678");
    expect(u.lastReply()).toContain("Target: 530112345678");
    expectNoFailures(u);
  });

  it("/harga tsel 10 lists matches to pick from, with codes", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("harga", "tsel 10");
    const reply = u.lastReply()!;
    expect(reply).toContain('Hasil untuk "tsel 10"');
    expect(reply).toContain("S10 Telkomsel 10.000");
    expect(reply).toContain("TSEL-DATA-10GB");
    expect(reply).not.toContain("Indosat");
    await u.pressButton(/^Telkomsel 10\.000 ·/);
    expect(u.lastReply()).toContain("Kode: S10");

    await u.sendCommand("harga", "ff 70");
    expect(u.buttons()[0]).toMatch(/^Free Fire 70 Diamonds ·/);
    // An operator name with a digit is one word, not "im" and "3".
    await u.sendCommand("harga", "im3 10");
    expect(u.lastReply()).toContain('Hasil untuk "im3 10"');
    expect(u.lastReply()).toContain("I10 Indosat 10.000");
    expect(u.lastReply()).not.toContain("Telkomsel");
    await u.sendCommand("harga", "qwerty");
    expect(u.lastReply()).toContain("Tidak ada produk yang cocok");
    expectNoFailures(u);
  });

  it("a price list with one malformed item shows the rest; a bills list without admin fees says 'as stated on the bill'", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    w.sandbox.reshape("/layanan/price_list", { omit: ["code", "price"], item: 0 });
    await u.sendCommand("harga");
    expect(u.buttons().some((b) => b.startsWith("📱 Pulsa"))).toBe(true);
    w.sandbox.reshape("/layanan/price_list", { omit: ["admin", "komisi"] });
    await u.pressButton("🧾 Tagihan");
    expect(u.lastReply()).toContain("PLN Pascabayar (PPLN): admin sesuai tagihan");
    expectNoFailures(u);
  });

  it("lists postpaid services with their admin fee and refreshes prices on request", async () => {
    await world({ adminIds: [424242] });
    const u = await w.linkedUser({ languageCode: "id", id: 424242 });
    await u.sendCommand("harga");
    await u.pressButton("🧾 Tagihan");
    const bills = u.lastReply()!;
    expect(bills).toContain("PLN Pascabayar (PPLN): admin Rp2.750");
    expect(bills).toContain("PAM Jaya DKI Jakarta");
    expect(u.buttons()).toContain("🧾 Cek & bayar tagihan");
    await u.pressButton("⬅️ Kembali");

    // The cached list hides a new price until the refresh button.
    const before = w.sandbox.calls(PRICE_LIST).length;
    w.sandbox.setPrice("S10", 12_345);
    await u.pressButton(/^📱 Pulsa/);
    await u.pressButton(/^TELKOMSEL/);
    expect(u.lastReply()).not.toContain("Rp12.345");
    expect(w.sandbox.calls(PRICE_LIST)).toHaveLength(before);
    await u.pressButton("🔄 Perbarui harga");
    expect(u.lastReply()).toContain("Telkomsel 10.000: Rp12.345");
    expect(w.sandbox.calls(PRICE_LIST)).toHaveLength(before + 1);

    // An admin drops every cached list.
    w.sandbox.setPrice("S10", 12_500);
    await u.sendCommand("harga", "refresh");
    expect(u.lastReply()).toContain("Semua daftar harga");
    await u.sendCommand("harga", "s10");
    expect(u.lastReply()).toContain("Rp12.500");
    expectNoFailures(u);
  });

  it("browser buttons keep working after a restart (no state kept between presses)", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("harga");
    await w.restart();
    await u.pressButton(/^💳 E-Money/);
    await u.pressButton(/^DANA/);
    await u.pressButton(/^DANA 10\.000 ·/);
    await w.restart();
    await u.pressButton("🛒 Beli");
    expect(u.lastReply()).toContain("nomor HP yang terdaftar");
    await u.sendText("081234567890");
    expect(u.lastReply()).toContain("Kode: DANA10");
    expectNoFailures(u);
  });

  it("the menu buttons open prices and buying", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("menu");
    await u.pressButton("📋 Harga");
    expect(u.lastReply()).toContain("Daftar harga");
    await u.sendCommand("menu");
    await u.pressButton("📱 Beli");
    expect(u.lastReply()).toContain("Beli produk");
    expectNoFailures(u);
  });
});

describe("fast path and targets", () => {
  it("a text typed where buttons wait is told to tap one (or /beli CODE TARGET after /beli), not 'not understood'", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli");
    await u.sendText("halo");
    expect(u.lastReply()).toContain("Pilih salah satu tombol di atas, atau /batal");
    expect(u.lastReply()).toContain("/beli KODE TUJUAN");
    await u.sendCommand("menu");
    await u.sendText("halo");
    expect(u.lastReply()).toContain("Pilih salah satu tombol di atas, atau /batal");
    expect(u.lastReply()).not.toContain("/beli KODE");
    // Once a command without buttons answered, a text is simply not understood.
    await u.sendCommand("saldo");
    await u.sendText("halo");
    expect(u.lastReply()).toContain("tidak mengerti");
  });

  it("/beli CODE TARGET goes straight to the confirm screen", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    const price = await priceOf("DANA25");
    await u.sendCommand("beli", "dana25 0896 1234 5678");
    const confirm = u.lastReply()!;
    expect(confirm).toContain("Periksa sebelum konfirmasi");
    expect(confirm).toContain("Kode: DANA25");
    expect(confirm).toContain("Tujuan: 089612345678");
    expect(confirm).toContain(`Harga modal: ${rupiah(price, "id")}`);
    await u.pressButton(CONFIRM);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
    expectNoFailures(u);
  });

  it("explains an unknown code and an empty product, and creates nothing", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "NOPE99 081234567890");
    expect(u.lastReply()).toContain("kode NOPE99 tidak ditemukan");
    await u.sendCommand("beli", "I5 085712345678");
    expect(u.lastReply()).toContain("Indosat 5.000 (I5) sedang kosong");
    // Words instead of a code: the matches, in buy mode.
    await u.sendCommand("beli", "tsel 10");
    expect(u.lastReply()).toContain("Ketuk produk untuk membelinya");
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
    expect(await txs(u)).toHaveLength(0);
    expectNoFailures(u);
  });

  it("re-asks an invalid target and keeps the chosen product", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10");
    expect(u.lastReply()).toContain("Telkomsel 10.000");
    await u.sendText("12345");
    expect(u.lastReply()).toContain("bukan nomor HP yang benar");
    await u.sendText("0857 1234 5678");
    expect(u.lastReply()).toContain("085712345678 adalah nomor Indosat, sedangkan produk ini untuk Telkomsel");
    await u.sendText("081234567890");
    expect(u.lastReply()).toContain("Tujuan: 081234567890");
    expect(await txs(u)).toHaveLength(1);

    // A wrong target on the fast path: explained, then asked for.
    await u.sendCommand("beli", "PLN20 12-34");
    expect(u.replies().join("\n")).toContain("10–13 angka");
    expect(u.lastReply()).toContain("nomor meter atau ID pelanggan PLN");
    await u.sendText("12345678901");
    expect(u.lastReply()).toContain("Tujuan: 12345678901");

    // A game id with its server, as the note asks (written together).
    await u.sendCommand("beli", "ML85");
    expect(u.lastReply()).toContain("ID dan server");
    await u.sendText("12345678 (1234)");
    expect(u.lastReply()).toContain("Tujuan: 123456781234");
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
    expectNoFailures(u);
  });

  it("an empty product cannot be bought from the browser", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("harga");
    await u.pressButton(/^📱 Pulsa/);
    await u.pressButton(/^INDOSAT/);
    await u.pressButton(/^⛔ Indosat 5\.000 ·/);
    expect(u.lastReply()).toContain("Stok kosong");
    expect(u.buttons()).not.toContain("🛒 Beli");

    await u.sendCommand("beli");
    await u.pressButton(/^📱 Pulsa/);
    await u.pressButton(/^INDOSAT/);
    await u.pressButton(/^⛔ Indosat 5\.000 ·/);
    const answer = w.fake.callsOf("answerCallbackQuery").at(-1)!.payload;
    expect(answer).toMatchObject({ show_alert: true });
    expect(String(answer.text)).toContain("kosong");
    // No flow started: a phone number now is not a target.
    await u.sendText("085712345678");
    expect(u.lastReply()).not.toContain("Periksa sebelum konfirmasi");
    expect(await txs(u)).toHaveLength(0);
    expect(w.sandbox.calls(CREATE)).toHaveLength(0);
  });
});

describe("money safety", () => {
  it("cancelling at any step creates nothing", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    // Cancel button at the target step.
    await u.sendCommand("beli");
    await u.pressButton(/^📱 Pulsa/);
    await u.pressButton(/^TELKOMSEL/);
    await u.pressButton(/^Telkomsel 10\.000 ·/);
    await u.pressButton("❌ Batal");
    expect(u.lastReply()).toContain("Dibatalkan");
    await u.sendText("081234567890");
    expect(u.lastReply()).not.toContain("Periksa sebelum konfirmasi");

    // /batal at the target step.
    await u.sendCommand("beli", "S10");
    await u.sendCommand("batal");
    expect(u.lastReply()).toContain("Dibatalkan");

    // Cancel on the confirm screen.
    await u.sendCommand("beli", "S10 081234567890");
    await u.pressButton("❌ Batal");
    expect(u.lastReply()).toContain("Dibatalkan");
    expect((await txs(u)).map((t) => t.status)).toEqual(["cancel"]);
    expect(w.sandbox.calls(CREATE)).toEqual([]);
    expectNoFailures(u);
  });

  it("a double Confirm and a re-delivered update create exactly once", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    const first = u.callbackUpdate(CONFIRM);
    const second = u.callbackUpdate(CONFIRM);
    await Promise.all([u.deliver(first), u.deliver(second)]);
    const answered = w.fake.callsOf("answerCallbackQuery").length;
    await u.deliver(structuredClone(first) as Update);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
    // The re-delivered copy is skipped before any handler (its update_id was claimed): the first
    // delivery already answered the press.
    expect(w.fake.callsOf("answerCallbackQuery")).toHaveLength(answered);
    const answers = w.fake.callsOf("answerCallbackQuery").map((c) => String(c.payload.text ?? ""));
    expect(answers.filter((t) => t.includes("sudah diproses"))).toHaveLength(1);
    expect((await txs(u)).map((t) => t.status)).toEqual(["pending"]);
  });

  it("a price rise between quote and confirm is refused by limit_price; retry confirms the new price", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    const price = await priceOf("S10");
    await u.sendCommand("beli", "S10 081234567890");
    expect(u.lastReply()).toContain(`Harga modal: ${rupiah(price, "id")}`);
    w.sandbox.setPrice("S10", price + 500);

    await u.pressButton(CONFIRM);
    const refusal = u.lastReply()!;
    expect(refusal).toContain("Ditolak penyedia");
    expect(refusal).toContain(`sekarang ${rupiah(price + 500, "id")} (tadi ${rupiah(price, "id")})`);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
    expect(w.sandbox.calls(CREATE)[0]!.body.limit_price).toBe(String(price));
    expect((await txs(u))[0]).toMatchObject({ status: "failed" });
    expect(w.sandbox.balance(w.demoKey)).toBeGreaterThan(0);

    await u.pressButton("🔁 Coba lagi");
    const again = u.lastReply()!;
    expect(again).toContain("Periksa sebelum konfirmasi");
    expect(again).toContain(`Harga modal: ${rupiah(price + 500, "id")}`);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1); // a new confirm screen, nothing sent yet
    await u.pressButton(CONFIRM);
    const calls = w.sandbox.calls(CREATE);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.body.limit_price).toBe(String(price + 500));
    expect(calls[1]!.body.reff_id).not.toBe(calls[0]!.body.reff_id);
    expect(u.lastReply()).toContain("Sedang diproses");
    expectNoFailures(u);
  });

  it("insufficient balance shows the provider's message with try again and menu", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    // Spent elsewhere after the confirm screen (too little up front is refused before: trustMoney.test.ts).
    w.sandbox.setBalance(w.demoKey, 0);
    await u.pressButton(CONFIRM);
    expect(u.lastReply()).toContain("Saldo tidak mencukupi");
    expect(u.buttons()).toEqual(["🔁 Coba lagi", "🏠 Menu"]);
    expect((await txs(u))[0]).toMatchObject({ status: "failed", message: "Saldo tidak mencukupi" });
    expectNoFailures(u);
  });

  it("a create timeout is recorded as unknown, shown as such, and never re-sent", async () => {
    await world({ upstreamTimeoutMs: 300 });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("beli", "S10 081234567890");
    w.sandbox.fault(CREATE, "timeout");
    await u.pressButton(CONFIRM);
    expect(u.lastReply()).toContain("Hasil belum diketahui");
    expect((await txs(u))[0]).toMatchObject({ status: "unknown" });
    await w.clock.advance(60_000);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
    // The request did reach the provider: only the answer was lost.
    expect(w.sandbox.transaction((await txs(u))[0]!.refId)).toBeTruthy();
  });

  it("every button of the browser fits Telegram's 64-byte callback data", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    const all = await w.upstream.prepaidPriceList(w.demoKey);
    const seen = new Set<string>();
    for (const command of ["harga", "beli"]) {
      await u.sendCommand(command);
      const messageId = u.sentMessageIds.at(-1)!;
      const queue = keyboardData(u, messageId);
      while (queue.length > 0) {
        const data = queue.shift()!;
        if (seen.has(data)) continue;
        seen.add(data);
        // Buy-mode products start a flow and refresh buttons refetch: record them, don't walk them.
        if (!data.startsWith("pr:") || /^pr:b:i:|^pr:[hb]:[CP]/.test(data)) continue;
        await u.deliver(withData(u, messageId, data));
        queue.push(...keyboardData(u, messageId));
      }
    }
    for (const data of seen) expect(Buffer.byteLength(data), data).toBeLessThanOrEqual(64);
    const viewed = new Set([...seen].filter((d) => d.startsWith("pr:h:i:")).map((d) => d.slice(7)));
    const bought = new Set([...seen].filter((d) => d.startsWith("pr:b:i:")).map((d) => d.slice(7)));
    for (const p of all) {
      expect(viewed.has(p.code), p.code).toBe(true);
      expect(bought.has(p.code), p.code).toBe(true);
    }
    expectNoFailures(u);
  });
});

function keyboardData(u: FakeUser, messageId: number): string[] {
  const m = w.fake.message(u.chatId, messageId)!;
  expect(m.inlineKeyboard?.every((row) => row.length > 0), "no empty keyboard rows").toBe(true);
  return (m.inlineKeyboard ?? []).flat().flatMap((b) => ("callback_data" in b && b.callback_data ? [b.callback_data] : []));
}

/** A press of a button with this data on the browser message. */
function withData(u: FakeUser, messageId: number, data: string): Update {
  const label = u.keyboard({ messageId }).flat()[0]!;
  const update = u.callbackUpdate(label, { messageId });
  return { ...update, callback_query: { ...update.callback_query!, data } };
}

describe("provider strings of any length", () => {
  it("a 6,000-character product note and name never push a message past Telegram's limits", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    const note = `Catatan <penting> & ${"panjang sekali ".repeat(400)}`;
    w.sandbox.setProductText("S10", { note, name: `Telkomsel 10.000 ${"X".repeat(6000)}` });
    await u.sendCommand("harga");
    await u.pressButton(/^📱 Pulsa/);
    await u.pressButton(/^TELKOMSEL/);
    await u.pressButton(/^Telkomsel 10\.000/);
    expect(u.lastReply()).toContain("Catatan <penting> & panjang");
    expect(u.lastReply()).toContain("…");
    await u.pressButton("🛒 Beli");
    await u.sendText("081234567890");
    expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
    await u.pressButton(CONFIRM);
    expect(w.sandbox.calls(CREATE)).toHaveLength(1);
    expect(u.lastReply()).toContain("Sedang diproses");
    await u.sendCommand("riwayat");
    await u.sendCommand("beli", "S10 081234567891"); // another target: not a repeat purchase
    expect(u.lastReply()).toContain("Periksa sebelum konfirmasi");
    for (const m of u.messages().filter((x) => x.from === "bot")) expect((m.text ?? m.caption ?? "").length).toBeLessThanOrEqual(4096);
    expectNoFailures(u);
  });

  it("any HTML text over 4,096 characters (1,024 for a caption) is cut with an ellipsis, not refused", async () => {
    await world();
    const u = await w.linkedUser({ languageCode: "id" });
    const sent = await w.bot.api.sendMessage(u.chatId, `<b>Judul</b>\n${"kata &amp; <i>miring</i> ".repeat(400)}`);
    expect(sent.text!.length).toBeLessThanOrEqual(4096);
    expect(sent.text).toMatch(/…$/);
    const photo = await w.bot.api.sendPhoto(u.chatId, "AgACAgIAAxkBAAIB", { caption: `<b>QR</b> ${"x".repeat(2000)}` });
    expect(photo.caption!.length).toBeLessThanOrEqual(1024);
  });
});

