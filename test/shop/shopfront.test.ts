/**
 * The online shop's front through the built bot: the reseller opens and sets the shop in /toko, a
 * customer opens its link and walks from the catalogue to "Bayar dengan QRIS"; a customer chat gets
 * nothing of the reseller's, whatever it types or presses. One file: every case stands on the same open
 * shop (openShop) and the file reads as the shop's story, owner, customer, gate, staff.
 */
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import type { FakeUser } from "../support/chat.js";
import { decodeQrPng } from "../support/qr.js";
import { FAKE_BOT_INFO } from "../support/botInfo.js";
import { WIB_OFFSET_MS } from "../../src/tools/time.js";
import { Staff } from "../../src/domain/staff.js";
import { AuditKind } from "../../src/domain/audit.js";

let w: World;
afterEach(async () => {
  await w?.close();
});

const link = (code: string) => `https://t.me/${FAKE_BOT_INFO.username}?start=${code}`;

/** A reseller (linked to the sandbox) whose online shop is on, sold with a Rp1.000 markup. */
async function openShop(): Promise<{ rina: FakeUser; code: string }> {
  const rina = await w.linkedUser({ firstName: "Rina" });
  await w.deps.settings.setPricing(rina.chatId, { all: { flat: 1000 } });
  await rina.sendCommand("toko", "Cell Rina | Jl. Melati 5");
  await rina.sendCommand("toko");
  await rina.pressButton("🛒 Toko online");
  expect(rina.lastReply()).toContain("Status: ⛔ mati");
  await rina.pressButton("▶️ Buka toko");
  expect(rina.lastReply()).toContain("Status: ✅ buka");
  const code = (await w.deps.shop.get(rina.chatId)).code;
  expect(code).toMatch(/^[A-Za-z0-9]{12}$/);
  expect(rina.lastReply()).toContain(link(code));
  return { rina, code };
}

/** A new private chat that opens the shop link. */
async function customerOf(code: string, name = "Sari"): Promise<FakeUser> {
  const sari = w.user({ firstName: name });
  await sari.sendCommand("start", code);
  return sari;
}

/** The customer's orders in the owner's shop, as the orders keep them. */
const ordersOf = async (owner: FakeUser, customer: FakeUser) => await w.deps.shopOrders.listByCustomer(owner.chatId, customer.chatId);

describe("the reseller's online shop in /toko", () => {
  it("is turned on with a link and its QR, paused in one tap, set by buttons and typed settings", async () => {
    w = await makeWorld();
    const { rina, code } = await openShop();

    await rina.pressButton("🔗 Link & QR");
    expect(decodeQrPng(rina.lastPhoto())).toBe(link(code));
    expect(rina.lastReply()).toContain(link(code));

    await rina.pressButton("🛒 Toko online", { messageId: rina.messages().find((m) => m.text?.includes("Struk untuk pelanggan"))!.messageId });
    await rina.pressButton("⏸ Jeda");
    expect(rina.lastReply()).toContain("Status: ⏸ dijeda");
    expect((await w.deps.shop.get(rina.chatId)).paused).toBe(true);
    await rina.pressButton("▶️ Lanjutkan");
    expect(rina.lastReply()).toContain("Status: ✅ buka");

    await rina.pressButton(/Biaya QRIS: pelanggan/);
    expect((await w.deps.shop.get(rina.chatId)).feePayer).toBe("reseller");
    expect(rina.lastReply()).toContain("dibayar: Anda (dipotong dari untung)");
    await rina.pressButton(/Izinkan lepas dana instan/);
    expect((await w.deps.shop.get(rina.chatId)).instantRelease).toBe(true);
    // What customers pay is rounded up to Rp100 until she picks another step.
    expect(rina.lastReply()).toContain("kelipatan Rp100");
    await rina.pressButton("🔢 Pembulatan: Rp100");
    expect((await w.deps.shop.get(rina.chatId)).payStep).toBe(500);
    expect(rina.lastReply()).toContain("kelipatan Rp500");
    expect(rina.buttons()).toContain("🔢 Pembulatan: Rp500");

    await rina.pressButton("🗂 Kategori");
    expect(rina.buttons()).toContain("✅ Pulsa");
    await rina.pressButton("✅ Pulsa");
    expect((await w.deps.shop.get(rina.chatId)).categories).not.toContain("pulsa");
    expect(rina.buttons()).toContain("▫️ Pulsa");
    await rina.pressButton(/Semua/);
    expect((await w.deps.shop.get(rina.chatId)).categories).toBeUndefined();

    await rina.sendCommand("toko", "jam 08:00-21:00");
    expect((await w.deps.shop.get(rina.chatId)).hours).toEqual({ open: "08:00", close: "21:00" });
    // Indonesian writes clock times with a dot, as the bot's other times (12.19 WIB) and its own example.
    expect(rina.lastReply()).toContain("Jam buka: 08.00–21.00 WIB");
    expect(rina.lastReply()).toContain("/toko jam 08.00-21.00");
    await rina.sendCommand("toko", "jam 08.00-21.00"); // the example as shown is accepted
    expect((await w.deps.shop.get(rina.chatId)).hours).toEqual({ open: "08:00", close: "21:00" });
    await rina.sendCommand("toko", "jam 25:00-21:00");
    expect(rina.lastReply()).toContain("Tulis jam buka");
    await rina.sendCommand("toko", "batas 30");
    expect((await w.deps.shop.get(rina.chatId)).dailyUnpaidCap).toBe(30);
    await rina.sendCommand("toko", "batas 0");
    expect(rina.lastReply()).toContain("angka 1–1.000");
    await rina.sendCommand("toko", "kontak WA <b>0812</b>");
    expect((await w.deps.shop.get(rina.chatId)).contact).toBe("WA <b>0812</b>");
    expect(rina.lastReply()).toContain("WA <b>0812</b>"); // shown as typed, not as markup
    await rina.sendCommand("toko", "kontak");
    expect(rina.lastReply()).toContain("Tulis kontaknya");
    await rina.sendCommand("toko", `kontak ${"x".repeat(101)}`);
    expect(rina.lastReply()).toContain("maksimal 100 huruf");
    // The receipt name and footer are still set the old way.
    expect(await w.store.getChat(rina.chatId)).toMatchObject({ shopName: "Cell Rina", shopFooter: "Jl. Melati 5" });
  });

  it("a new link retires the old one: the old code finds nothing, the new one opens the shop", async () => {
    w = await makeWorld();
    const { rina, code } = await openShop();
    await rina.pressButton("♻️ Link baru");
    await rina.pressButton("♻️ Ya, buat link baru");
    const fresh = (await w.deps.shop.get(rina.chatId)).code;
    expect(fresh).not.toBe(code);
    expect(decodeQrPng(rina.lastPhoto())).toBe(link(fresh));

    const late = await customerOf(code, "Late");
    expect(late.lastReply()).toContain("Toko tidak ditemukan");
    expect((await w.store.getChat(late.chatId))?.customerOf).toBeUndefined();
    const guessed = await customerOf("AAAAAAAAAAAA", "Guess");
    expect(guessed.lastReply()).toContain("Toko tidak ditemukan");
    await w.restart();
    const sari = await customerOf(fresh);
    expect(sari.lastReply()).toContain("Cell Rina");
    expect((await w.store.getChat(sari.chatId))?.customerOf).toEqual({ owner: rina.chatId, code: fresh });
    expect((await customerOf(code, "AfterRestart")).lastReply()).toContain("Toko tidak ditemukan");
  });

  it("staff and newcomers cannot set an online shop; a reseller cannot become a customer", async () => {
    w = await makeWorld();
    const { code } = await openShop();
    const budi = w.user({ firstName: "Budi" });
    await budi.sendCommand("toko", "online");
    expect(budi.lastReply()).toContain("hanya untuk reseller");
    const other = await w.linkedUser({ firstName: "Dewi" });
    await other.sendCommand("start", code);
    expect(other.lastReply()).toContain("akun reseller tidak bisa menjadi pelanggan");
    expect((await w.store.getChat(other.chatId))?.customerOf).toBeUndefined();
  });
});

describe("a customer in the shop", () => {
  it("sees the shop's available products at the reseller's selling prices, never the cost", async () => {
    w = await makeWorld();
    const { code } = await openShop();
    const sari = await customerOf(code);
    expect(sari.lastReply()).toContain("Cell Rina");
    expect(sari.buttons()).toContain("📦 Pesanan saya");
    expect(sari.buttons()).toEqual(expect.arrayContaining([expect.stringMatching(/^Pulsa \(\d+\)$/), expect.stringMatching(/^PLN/)]));
    await sari.pressButton(/^Pulsa/);
    expect(sari.lastReply()).toContain("Pulsa");
    await sari.pressButton(/Berikutnya|Next|➡️/);
    expect(sari.buttons().some((b) => b.includes("·"))).toBe(true);
    await sari.sendText("telkomsel");
    const labels = sari.buttons();
    // S10 costs Rp10.500: +Rp1.000 markup = Rp11.500, + the QRIS fee (0,7%) the customer carries.
    expect(labels).toContain("Telkomsel 10.000 · Rp11.600");
    expect(labels.join(" ")).not.toContain("10.500");
    // S5 (Rp6.000) is below the QRIS minimum: not offered. I5 is out of stock: not offered.
    expect(labels.join(" ")).not.toMatch(/Telkomsel 5\.000|Indosat 5\.000/);
  });

  it("puts the reseller's best sellers first, on the home screen and in their category", async () => {
    w = await makeWorld();
    const { rina, code } = await openShop();
    const sold = async (refId: string, code: string) =>
      await w.store.createTx({ refId, chatId: rina.chatId, kind: "prepaid", status: "success", upstreamId: `P${refId}`, code, title: code, target: "081234567890", amount: 10_000 });
    for (const [i, c] of ["X10", "X10", "X10", "PLN20", "PLN20", "T10"].entries()) await sold(`R${i}REF00000000`, c);
    const sari = await customerOf(code);
    expect(sari.lastReply()).toContain("Paling laris");
    const home = sari.buttons();
    expect(home.slice(0, 3).map((b) => b.split(" · ")[0])).toEqual(["XL 10.000", "PLN 20.000", "Tri 10.000"]);
    await sari.pressButton(/^Pulsa/);
    expect(sari.buttons().slice(0, 2).map((b) => b.split(" · ")[0])).toEqual(["XL 10.000", "Tri 10.000"]);
  });

  it("offers only the categories and operators the shop sells", async () => {
    w = await makeWorld();
    const { rina, code } = await openShop();
    await w.deps.shop.update(rina.chatId, { categories: ["pulsa", "pln"], operators: ["telkomsel"] });
    const sari = await customerOf(code);
    const home = sari.buttons();
    expect(home.some((b) => b.startsWith("Pulsa"))).toBe(true);
    expect(home.some((b) => b.startsWith("PLN"))).toBe(true);
    expect(home.some((b) => b.startsWith("Data") || b.startsWith("Games"))).toBe(false);
    await sari.pressButton(/^Pulsa/);
    expect(sari.buttons().filter((b) => b.includes("·")).every((b) => b.startsWith("Telkomsel"))).toBe(true);
    await sari.sendText("ff 70");
    expect(sari.lastReply()).toContain("Tidak ada produk");
  });

  it("searches, enters a target checked like the reseller's flow, sees the summary and pays once", async () => {
    w = await makeWorld();
    const { rina, code } = await openShop();
    const sari = await customerOf(code);
    await sari.sendText("tsel 10");
    await sari.pressButton("Telkomsel 10.000 · Rp11.600");
    expect(sari.lastReply()).toContain("Kirim nomor HP tujuan");
    await sari.sendText("085712345678"); // an Indosat number for a Telkomsel product
    expect(sari.lastReply()).toContain("nomor Indosat");
    // A mistyped number that looks like a key: deleted, and the customer is asked for the number again.
    const typo = await sari.sendText("o812345678g");
    expect(typo.some((c) => c.method === "deleteMessage")).toBe(true);
    expect(sari.lastReply()).toContain("Kirim lagi nomor tujuan");
    expect(sari.buttons()).toContain("❌ Batal");
    await sari.sendText("0812-3456-7890");
    const summary = sari.lastReply()!;
    expect(summary).toContain("Ringkasan pesanan");
    expect(summary).toContain("081234567890");
    expect(summary).toContain("Total bayar: Rp11.600");
    expect(summary).toContain("Harga Rp11.500 + biaya QRIS Rp82 + pembulatan Rp18");
    await sari.pressButton("💳 Bayar dengan QRIS");
    // The orders take it from here: a QRIS for the amount shown, made with Rina's key.
    expect(decodeQrPng(sari.lastPhoto())).toMatch(/^000201/);
    expect(sari.lastReply()).toContain("Rp11.600");
    expect(sari.buttons()).toContain("🔄 Cek pembayaran");
    const orders = await ordersOf(rina, sari);
    expect(orders.map((o) => o.value)).toEqual([
      expect.objectContaining({
        customer: sari.chatId,
        customerName: "Sari",
        productCode: "S10",
        productName: "Telkomsel 10.000",
        target: "081234567890",
        price: 11_600,
        cost: 10_500,
        fee: 82,
        feePayer: "customer",
        lang: "id",
      }),
    ]);
    // The same summary's button again: nothing more.
    const summaryId = sari.messages().find((m) => m.text?.includes("Ringkasan"))!.messageId;
    const again = await sari.pressButton("💳 Bayar dengan QRIS", { messageId: summaryId }).catch(() => []);
    expect(again.filter((c) => c.method === "sendPhoto")).toEqual([]);
    expect(await ordersOf(rina, sari)).toHaveLength(1);
    // "Pesanan saya" (or /pesanan): her own order and its state.
    await sari.sendCommand("menu");
    await sari.pressButton("📦 Pesanan saya");
    expect(sari.lastReply()).toContain("Telkomsel 10.000 → 081234567890: menunggu pembayaran");
    await sari.sendCommand("pesanan");
    expect(sari.lastReply()).toContain("Telkomsel 10.000 → 081234567890: menunggu pembayaran");
  });

  it("the reseller carrying the fee: the customer pays the selling price, no fee line", async () => {
    w = await makeWorld();
    const { rina, code } = await openShop();
    await w.deps.shop.update(rina.chatId, { feePayer: "reseller" });
    const sari = await customerOf(code);
    await sari.sendText("tsel 10");
    await sari.pressButton("Telkomsel 10.000 · Rp11.500");
    await sari.sendText("081234567890");
    expect(sari.lastReply()).not.toContain("biaya QRIS");
    await sari.pressButton("💳 Bayar dengan QRIS");
    expect(sari.lastReply()).toContain("Rp11.500");
    expect((await ordersOf(rina, sari))[0]?.value).toMatchObject({ price: 11_500, cost: 10_500, fee: 81, feePayer: "reseller" });
  });

  it("a paused, turned-off or closed shop says so and sells nothing", async () => {
    w = await makeWorld();
    const { rina, code } = await openShop();
    const sari = await customerOf(code);
    await sari.sendText("tsel 10");
    await sari.pressButton("Telkomsel 10.000 · Rp11.600");
    await w.deps.shop.update(rina.chatId, { paused: true });
    await sari.sendText("081234567890");
    expect(sari.lastReply()).toContain("sedang istirahat");
    await sari.sendCommand("menu");
    expect(sari.lastReply()).toContain("sedang istirahat");
    expect(sari.buttons().some((b) => b.includes("·"))).toBe(false);

    await w.deps.shop.update(rina.chatId, { paused: false, hours: { open: "08:00", close: "21:00" } });
    const wibHour = () => Math.floor(((w.clock.now() + WIB_OFFSET_MS) % 86_400_000) / 3_600_000);
    await w.clock.advance(((22 - wibHour() + 24) % 24) * 3_600_000);
    expect(wibHour()).toBe(22);
    await sari.sendCommand("menu");
    expect(sari.lastReply()).toContain("Toko sedang tutup. Jam buka: 08.00–21.00 WIB");
    await w.clock.advance(11 * 3_600_000);
    expect(wibHour()).toBe(9);
    await sari.sendCommand("menu");
    expect(sari.buttons().some((b) => b.startsWith("Pulsa"))).toBe(true);

    await w.deps.shop.update(rina.chatId, { enabled: false });
    await sari.sendCommand("menu");
    expect(sari.lastReply()).toContain("tidak menerima pesanan");
  });
});

describe("a customer chat gets nothing of the reseller's", () => {
  it("a newcomer asked for a key who opens a link shops; another shop's link moves it there, the old summary is stale", async () => {
    w = await makeWorld();
    const { rina, code } = await openShop();
    const dewi = await w.linkedUser({ firstName: "Dewi" });
    await dewi.sendCommand("toko", "Dewi Pulsa");
    await dewi.sendCommand("toko", "online");
    await dewi.pressButton("▶️ Buka toko");
    const dewiCode = (await w.deps.shop.get(dewi.chatId)).code;

    const sari = w.user({ firstName: "Sari" });
    await sari.sendCommand("start");
    expect(sari.lastReply()).toContain("API key");
    await sari.sendCommand("start", code);
    expect(sari.lastReply()).toContain("Cell Rina");
    await sari.sendText("tsel 10");
    await sari.pressButton("Telkomsel 10.000 · Rp11.600");
    await sari.sendText("081234567890");
    const rinaSummary = sari.messages().filter((m) => m.text?.includes("Ringkasan")).at(-1)!.messageId;

    await sari.sendCommand("start", dewiCode);
    expect(sari.lastReply()).toContain("Dewi Pulsa");
    expect(await w.store.getChat(sari.chatId)).toMatchObject({ customerOf: { owner: dewi.chatId, code: dewiCode } });
    const calls = await sari.pressButton("💳 Bayar dengan QRIS", { messageId: rinaSummary });
    expect(calls.find((c) => c.method === "answerCallbackQuery")?.payload.text).toMatch(/tidak berlaku/);
    expect(await ordersOf(rina, sari)).toEqual([]);
    expect(await ordersOf(dewi, sari)).toEqual([]);
    // Dewi sells at cost: the same product, her price.
    await sari.sendText("tsel 10");
    expect(sari.buttons()).toContain("Telkomsel 10.000 · Rp10.600");
    expect(sari.buttons()).not.toContain("Telkomsel 10.000 · Rp11.600");
  });


  it("reseller commands, a pasted key and forged reseller buttons", async () => {
    w = await makeWorld();
    const { rina, code } = await openShop();
    const sari = await customerOf(code);
    for (const cmd of ["saldo", "beli S10 081234567890", "riwayat", "transfer", "kunci", "deposit", "harga", "laporan", "markup 10%", "staf", "audit", "ekspor"]) {
      const [name, ...args] = cmd.split(" ");
      await sari.sendCommand(name!, args.join(" ") || undefined);
      const said = sari.replies().join("\n");
      expect(said, cmd).toContain("chat pelanggan toko");
      expect(said, cmd).not.toMatch(/Saldo|Rp\d|riwayat|API key Anda/i);
    }
    expect(await w.store.getChat(sari.chatId)).toMatchObject({ customerOf: { owner: rina.chatId } });
    expect((await w.store.getChat(sari.chatId))?.apiKeyEnc).toBeUndefined();
    expect((await w.store.getChat(sari.chatId))?.awaitingKey).toBeFalsy();

    const calls = await sari.sendText(w.demoKey);
    expect(calls.some((c) => c.method === "deleteMessage")).toBe(true);
    expect(sari.lastReply()).toContain("API key tidak dipakai");
    expect((await w.store.getChat(sari.chatId))?.apiKeyEnc).toBeUndefined();

    // Buttons a reseller's screens carry, forged into the customer's chat.
    const [tx] = (await w.store.listTxByChat(rina.chatId)).items;
    for (const data of ["menu:balance", "menu:history", "pr:b:c", "hp:0", `ok:${tx?.refId ?? "REF1234567890123"}`, "sh:e:off", "sh:n", "sh:ny", "cu:p:0"]) {
      await w.bot.api.sendMessage(sari.chatId, "old", { reply_markup: { inline_keyboard: [[{ text: "forged", callback_data: data }]] } });
      const answer = await sari.pressButton("forged");
      const toast = answer.find((c) => c.method === "answerCallbackQuery")?.payload.text;
      expect(toast, data).toMatch(/kedaluwarsa|tidak berlaku|expired/i);
      expect(answer.filter((c) => c.method === "sendMessage" || c.method === "sendPhoto"), data).toEqual([]);
    }
    expect((await w.deps.shop.get(rina.chatId)).enabled).toBe(true);
    expect((await w.deps.shop.get(rina.chatId)).code).toBe(code);
  });

  it("an owner's staff invitation still reaches a customer: the owner chose that person", async () => {
    w = await makeWorld();
    const { rina, code } = await openShop();
    const sari = await customerOf(code);
    const invited = await new Staff(w.store, () => w.clock.now()).invite(rina.chatId, "cashier");
    if (invited === "full") throw new Error("full");
    await sari.sendCommand("start", `staff_${invited.token}`);
    expect((await w.store.getChat(sari.chatId))?.staffOf).toMatchObject({ owner: rina.chatId, role: "cashier" });
    await sari.sendCommand("saldo");
    expect(sari.lastReply()).not.toContain("chat pelanggan toko");
  });

  it("every text it types is bounded and escaped", async () => {
    w = await makeWorld();
    const { code } = await openShop();
    const sari = await customerOf(code);
    await sari.sendText("<b>pulsa</b> & <i>x</i>");
    expect(sari.lastReply()).toContain("<b>pulsa</b> & <i>x</i>"); // shown as typed: escaped, not markup
    await sari.sendText("a".repeat(5000));
    expect(sari.lastReply()).toContain("maksimal 64 karakter");
    expect(sari.lastReply()!.length).toBeLessThan(200);

    await sari.sendText("tsel 10");
    await sari.pressButton("Telkomsel 10.000 · Rp11.600");
    await sari.sendText(`0812${"9".repeat(3000)}`);
    expect(sari.lastReply()).toContain("maksimal 64 karakter");
    await sari.sendText("<script>");
    expect(sari.lastReply()).toContain("bukan nomor HP");
  });

  it("its Menu lists the shop's commands only; language and help answer; /start again shows the shop", async () => {
    w = await makeWorld();
    const { code } = await openShop();
    const sari = w.user({ firstName: "Sari" });
    const opened = await sari.sendCommand("start", code);
    const menus = opened.filter((c) => c.method === "setMyCommands").map((c) => c.payload);
    expect(menus).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ scope: { type: "chat", chat_id: sari.chatId }, language_code: "id" }),
        expect.objectContaining({ scope: { type: "chat", chat_id: sari.chatId } }),
      ]),
    );
    const names = (menus[0]!.commands as { command: string }[]).map((c) => c.command);
    expect(names).toEqual(["start", "menu", "pesanan", "bahasa", "batal", "bantuan"]);
    await sari.sendCommand("bantuan");
    expect(sari.lastReply()).toContain("Cara belanja");
    await sari.sendCommand("bahasa");
    await sari.pressButton(/English/);
    await sari.sendCommand("start");
    expect(sari.lastReply()).toContain("Cell Rina");
    expect(sari.buttons()).toContain("📦 My orders");
  });
});

describe("staff and the online shop", () => {
  it("a shop admin sets the owner's online shop, a cashier cannot; each change is in the owner's audit log", async () => {
    w = await makeWorld();
    const { rina } = await openShop();
    const staff = new Staff(w.store, () => w.clock.now());
    const join = async (name: string, role: "admin" | "cashier") => {
      const person = w.user({ firstName: name });
      const invited = await staff.invite(rina.chatId, role);
      if (invited === "full") throw new Error("full");
      await person.sendCommand("start", `staff_${invited.token}`);
      return person;
    };
    const admin = await join("Ani", "admin");
    const cashier = await join("Cici", "cashier");

    await admin.sendCommand("toko", "online");
    expect(admin.lastReply()).toContain("Status: ✅ buka");
    await admin.pressButton("⏸ Jeda");
    expect((await w.deps.shop.get(rina.chatId)).paused).toBe(true);
    expect((await w.deps.shop.get(admin.chatId)).enabled).toBe(false); // no shop of her own
    // Turning the shop off and the instant release are the owner's alone.
    const off = admin.callbackUpdate("⛔ Matikan toko");
    const answers = (await admin.deliver(off)).filter((c) => c.method === "answerCallbackQuery");
    expect(String(answers[0]?.payload.text)).toContain("Hanya pemilik yang bisa menonaktifkan toko online");
    expect((await w.deps.shop.get(rina.chatId)).enabled).toBe(true);
    await admin.pressButton("⚡ Izinkan lepas dana instan");
    expect((await w.deps.shop.get(rina.chatId)).instantRelease).toBe(false);

    await cashier.sendCommand("toko", "online");
    expect((await w.deps.shop.get(rina.chatId)).paused).toBe(true);
    await w.bot.api.sendMessage(cashier.chatId, "old", { reply_markup: { inline_keyboard: [[{ text: "forged", callback_data: "sh:p:off" }]] } });
    await cashier.pressButton("forged");
    expect(cashier.lastReply()).toContain("hanya untuk reseller");
    expect((await w.deps.shop.get(rina.chatId)).paused).toBe(true);

    const log = await w.store.listLog(AuditKind, rina.chatId, { limit: 100 });
    expect(log.map((e) => e.entry)).toEqual(
      expect.arrayContaining([expect.objectContaining({ act: "shop_changed", by: admin.chatId, after: expect.stringContaining('"paused":true') })]),
    );
  });
});
