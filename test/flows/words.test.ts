/** Words a reseller reads: each as the user sees it (the "Words" list of the daily-use issue). */
import { afterEach, expect, it } from "vitest";
import { SANDBOX_CUSTOMERS } from "../../src/sandbox/index.js";
import { makeWorld, type World } from "../support/world.js";
import { createTranslate } from "../../src/render/i18n.js";
import { itemLabel } from "../../src/bot/shop/shopBuy.js";
import type { PrepaidProduct } from "../../src/upstream/index.js";

let w: World;
afterEach(() => w?.close());

it("an e-wallet destination is an 'akun', not a 'rekening'", async () => {
  w = await makeWorld();
  const u = await w.linkedUser({ languageCode: "id" });
  await u.sendCommand("transfer");
  await u.sendText("ovo");
  await u.pressButton(/OVO/);
  await u.sendText("081234567890");
  expect(u.lastReply()).toContain("Akun ditemukan");
  expect(u.lastReply()).not.toContain("Rekening");
});

it("bill periods read as bills in English, and a BPJS month count reads '1 bulan'", async () => {
  w = await makeWorld();
  const en = await w.linkedUser({ languageCode: "en" });
  await en.sendCommand("bill");
  await en.pressButton("PLN Pascabayar");
  await en.sendText(SANDBOX_CUSTOMERS.twoSheets);
  expect(en.lastReply()).toContain("Billing periods (2 bills):");

  // The provider gives BPJS periods as a number of months.
  const id = await w.linkedUser({ languageCode: "id" });
  await id.sendCommand("tagihan");
  await id.pressButton("BPJS Kesehatan");
  await id.sendText(SANDBOX_CUSTOMERS.bpjsMonthCount);
  expect(id.lastReply()).toContain("• 1 bulan");
  expect(id.lastReply()).not.toMatch(/• 1\n/);
});

it("/peringatan is the Indonesian name of /alerts; both work and help and the menu list name it", async () => {
  w = await makeWorld();
  const u = await w.linkedUser({ languageCode: "id" });
  await u.sendCommand("peringatan");
  expect(u.lastReply()).toContain("Peringatan saldo");
  await u.sendCommand("alerts");
  expect(u.lastReply()).toContain("Peringatan saldo");
  await u.sendCommand("bantuan");
  expect(u.lastReply()).toContain("/peringatan");
  expect(u.lastReply()).not.toContain("/alerts");
  const { registerCommands } = await import("../../src/telegram/roleCommands.js");
  await registerCommands(w.bot.api, w.deps.translate);
  const lists = w.fake.callsOf("setMyCommands").map((c) => JSON.stringify(c.payload));
  expect(lists.find((l) => l.includes('"language_code":"id"'))).toContain('"peringatan"');
});

it("Confirm on a screen that was cancelled says so (not 'already processed'), and nothing is bought", async () => {
  w = await makeWorld();
  const u = await w.linkedUser({ languageCode: "id" });
  await u.sendCommand("beli", "S10 081234567890");
  const confirm = u.callbackUpdate(/Konfirmasi/);
  await u.pressButton("❌ Batal");
  await u.deliver(confirm);
  const answer = String(w.fake.lastCall("answerCallbackQuery")!.payload.text);
  expect(answer).toContain("sudah dibatalkan");
  expect(answer).not.toContain("sudah diproses");
  expect(w.sandbox.calls("/transaksi/create")).toHaveLength(0);
});

it("a cancelled confirm screen reads as cancelled, not 'Periksa sebelum konfirmasi', and offers no Confirm", async () => {
  w = await makeWorld();
  const u = await w.linkedUser({ languageCode: "id" });
  await u.sendCommand("beli", "S10 081234567890");
  const screen = u.messages().findLast((m) => m.from === "bot" && m.text?.includes("Periksa sebelum konfirmasi"))!;
  await u.pressButton("❌ Batal");
  const after = u.messages().find((m) => m.messageId === screen.messageId)!;
  expect(after.text).not.toContain("Periksa sebelum konfirmasi");
  expect(after.text).toContain("Dibatalkan");
  expect(after.text).toContain("Telkomsel");
  expect(u.buttons({ messageId: screen.messageId })).toEqual([]);
});

it("English mode: the provider's note is marked as the provider's (in Indonesian); sent files are named in the chat's language", async () => {
  w = await makeWorld({ watcher: true });
  const en = await w.linkedUser({ languageCode: "en" });
  await en.sendCommand("topup", "S10");
  expect(en.replies().join("\n")).toContain("Provider's note (in Indonesian): Pulsa Telkomsel");
  await en.sendText("081234567890");
  await en.pressButton("✅ Confirm");
  await w.clock.advance(10_000);
  await w.watcher!.whenIdle();
  await en.pressButton("🧾 Receipt");
  const photo = w.fake.sentTo(en.chatId).findLast((c) => c.method === "sendPhoto")!;
  expect(photo.files.photo!.filename).toMatch(/^receipt-/);
  await en.sendCommand("export");
  await en.pressButton(/2026|\d{4}/);
  const csv = w.fake.sentTo(en.chatId).findLast((c) => c.method === "sendDocument")!;
  expect(csv.files.document!.filename).toMatch(/^transactions-/);
});

it("the Indonesian broadcast screen has an Indonesian heading", async () => {
  w = await makeWorld({ adminIds: [900_001] });
  const admin = w.user({ id: 900_001, languageCode: "id" });
  await admin.sendCommand("siaran");
  expect(admin.lastReply()).toContain("📣 Siaran");
  expect(admin.lastReply()).not.toContain("Broadcast");
});

it("English help: /topup buys, /deposit adds money: 'top up' no longer names both", async () => {
  w = await makeWorld();
  const en = await w.linkedUser({ languageCode: "en" });
  await en.sendCommand("help");
  const help = en.lastReply()!;
  const line = (cmd: string) => help.split("\n").find((l) => l.startsWith(`/${cmd}:`)) ?? "";
  expect(line("topup")).toContain("buy");
  expect(line("deposit")).not.toMatch(/top.?up/i);
  expect(line("deposit")).toContain("balance");
});

it("no 'H+1' in English: the next working day is said in words", () => {
  const t = createTranslate();
  for (const key of ["status-deposit-processing", "watch-caption-processing"]) expect(t("en", key)).not.toContain("H+1");
  expect(t("id", "status-deposit-processing")).toContain("H+1");
});

it("a product button writes its numbers the way its price is written (English: 10,000 · Rp12,589)", () => {
  const item = { product: { code: "S10", name: "Telkomsel 10.000", price: 10_200 } as PrepaidProduct, quote: { pay: 12_589 } } as Parameters<typeof itemLabel>[0];
  expect(itemLabel(item, "en")).toBe("Telkomsel 10,000 · Rp12,589");
  expect(itemLabel(item, "id")).toBe("Telkomsel 10.000 · Rp12.589");
  const data = { ...item, product: { ...item.product, name: "XL Data 1.5GB 2.000 menit" } };
  expect(itemLabel(data, "en")).toBe("XL Data 1.5GB 2,000 menit · Rp12,589");
});

it("English: the provider's own words are marked as Indonesian wherever they are quoted", async () => {
  const t = createTranslate();
  for (const key of ["upstream-rejected", "key-rejected", "money-rejected", "bill-not-found", "bill-already-paid", "watch-failed-reason"]) {
    expect(t("en", key, { message: "Api key tidak valid", reason: "Api key tidak valid", service: "PLN" }), key).toContain("(in Indonesian)");
  }
  w = await makeWorld();
  const ani = w.user({ languageCode: "en" });
  await ani.sendCommand("start");
  await ani.sendText("WRONG-KEY-123456789");
  expect(ani.lastReply()).toContain("(in Indonesian)");
});

it("Indonesian /admin names the admin commands by their Indonesian names", async () => {
  w = await makeWorld({ adminIds: [990_101] });
  const admin = w.user({ id: 990_101, languageCode: "id" });
  await admin.sendCommand("admin");
  expect(admin.lastReply()).toContain("/siaran");
  expect(admin.lastReply()).toContain("/ceksaldo");
  expect(admin.lastReply()).not.toContain("/broadcast");
  expect(admin.lastReply()).not.toContain("/balances");
});
