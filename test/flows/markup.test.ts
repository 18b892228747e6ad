import { afterEach, describe, expect, it } from "vitest";
import { rupiah } from "../../src/render/format.js";
import { SANDBOX_CUSTOMERS } from "../../src/sandbox/index.js";
import type { TxRecord } from "../../src/store/index.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";
import { run } from "../jobs/support.js";

const CREATE = "/transaksi/create";
const PAY = "/transaksi/tagihan/bayar";
const INQUIRY = "/transaksi/tagihan";

let w: World;
afterEach(() => w?.close());

async function txs(u: FakeUser): Promise<readonly TxRecord[]> {
  return (await w.store.listTxByChat(u.chatId, { limit: 100 })).items;
}

async function costOf(code: string): Promise<number> {
  const [p] = await w.upstream.prepaidPriceList(w.demoKey, code);
  return p!.price;
}

const up100 = (n: number) => Math.ceil(n / 100) * 100;

/** The line of one product in a price list reply, and the line after it. */
function productLines(reply: string, code: string): [string, string] {
  const lines = reply.split("\n");
  const i = lines.findIndex((l) => l.includes(` ${code} `));
  expect(i, `${code} in:\n${reply}`).toBeGreaterThanOrEqual(0);
  return [lines[i]!, lines[i + 1] ?? ""];
}

/** No handler failed during the test (the bot answers a failure with its generic apology). */
function expectNoFailures(u: FakeUser): void {
  const texts = u.messages().filter((m) => m.from === "bot").map((m) => m.text ?? "");
  expect(texts.filter((t) => /terjadi kesalahan|something went wrong/.test(t))).toEqual([]);
  const failed = w.fake.calls.filter((c) => c.response && !c.response.ok && c.method !== "getUpdates");
  expect(failed.map((c) => c.method)).toEqual([]);
}

describe("/markup and /hargajual", () => {
  it("the most specific rule wins (fixed > product code > category > all), rounded up to Rp100; /harga shows the selling price with the cost below", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const [s5, s10, s20, data1] = await Promise.all(["S5", "S10", "S20", "TSEL-DATA-1GB"].map(costOf));

    // No rules: the list looks as it always did, without a cost line.
    await u.sendCommand("harga", "tsel");
    expect(productLines(u.lastReply()!, "S5")[0]).toContain(`Telkomsel 5.000: ${rupiah(s5!, "id")}`);
    expect(u.lastReply()).not.toContain("modal");

    await u.sendCommand("markup");
    expect(u.lastReply()).toContain("Belum ada aturan");
    await u.sendCommand("markup", "2000");
    expect(u.lastReply()).toContain("Semua produk: +Rp2.000");
    await u.sendCommand("markup", "pulsa 5%");
    expect(u.lastReply()).toContain("Kategori pulsa: +5%");
    await u.sendCommand("markup", "s10 1.500");
    expect(u.lastReply()).toContain("Produk S10: +Rp1.500");
    await u.sendCommand("hargajual", "S20 25000");
    expect(u.lastReply()).toContain(`Harga jual Telkomsel 20.000 (S20) sekarang Rp25.000`);
    expect(u.lastReply()).toContain(`untung ${rupiah(25_000 - s20!, "id")}`);

    await u.sendCommand("markup");
    const shown = u.lastReply()!;
    for (const line of ["Semua produk: +Rp2.000", "Kategori pulsa: +5%", "Produk S10: +Rp1.500", "Harga tetap S20: Rp25.000"]) {
      expect(shown).toContain(line);
    }
    expect(shown.match(/dibulatkan ke atas/g)).toHaveLength(1);

    await u.sendCommand("harga", "tsel");
    const list = u.lastReply()!;
    const expected: [string, number, number][] = [
      ["S5", s5!, up100((s5! * 105) / 100)], // category 5%
      ["S10", s10!, up100(s10! + 1500)], // product code beats the category
      ["S20", s20!, 25_000], // fixed price beats everything, as typed
      ["TSEL-DATA-1GB", data1!, up100(data1! + 2000)], // no category rule for data: the rule for all
    ];
    for (const [code, cost, price] of expected) {
      const [line, below] = productLines(list, code);
      expect(line, code).toMatch(new RegExp(`: ${rupiah(price, "id").replace(".", "\\.")}$`));
      expect(below, code).toBe(`modal ${rupiah(cost, "id")}`);
      expect(u.buttons(), code).toContainEqual(expect.stringMatching(new RegExp(`· ${rupiah(price, "id").replace(".", "\\.")}$`)));
    }
    expect(up100((s5! * 105) / 100)).toBe(5_700);

    // A product's own page says both.
    await u.pressButton(/^Telkomsel 10\.000 ·/);
    expect(u.lastReply()).toContain(`Harga jual: ${rupiah(up100(s10! + 1500), "id")}`);
    expect(u.lastReply()).toContain(`Harga modal: ${rupiah(s10!, "id")}`);

    // Removing: "hapus" and "clear" both work.
    await u.sendCommand("markup", "hapus pulsa");
    expect(u.lastReply()).not.toContain("Kategori pulsa");
    await u.sendCommand("markup", "clear S10");
    expect(u.lastReply()).not.toContain("Produk S10");
    await u.sendCommand("hargajual", "S20 hapus");
    expect(u.lastReply()).toContain("S20");
    await u.sendCommand("harga", "tsel");
    expect(productLines(u.lastReply()!, "S5")[0]).toContain(rupiah(up100(s5! + 2000), "id"));
    expect(productLines(u.lastReply()!, "S10")[0]).toContain(rupiah(up100(s10! + 2000), "id"));
    expect(productLines(u.lastReply()!, "S20")[0]).toContain(rupiah(up100(s20! + 2000), "id"));

    await u.sendCommand("markup", "hapus semua");
    expect(u.lastReply()).toContain("Belum ada aturan");
    expect((await w.store.getChat(u.chatId))!.pricing).toBeUndefined();
    await u.sendCommand("harga", "tsel");
    expect(u.lastReply()).not.toContain("modal");
    expectNoFailures(u);
  });

  it("bad input gets a clear message with an example and changes nothing (English; 'hapus' works too)", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("markup", "pulsa 1500");
    await u.sendCommand("sellprice", "PLN100 102500");
    const before = (await w.store.getChat(u.chatId))!.pricing;
    expect(before).toEqual({ categories: { pulsa: { flat: 1500 } }, fixed: { PLN100: 102_500 } });

    const bad: [string, string, RegExp][] = [
      ["markup", "abc", /couldn't read that rule[\s\S]*\/markup 2000/],
      ["markup", "150%", /between 0% and 100%/],
      ["markup", "2000000", /at most Rp1,000,000/],
      ["markup", "NOPE99 1000", /No category or product code NOPE99[\s\S]*\/markup pulsa 1500/],
      ["markup", "bills 5%", /admin fee for bills is an amount in rupiah[\s\S]*\/markup bills 2500/],
      ["markup", "pulsa 1500 extra", /couldn't read that rule/],
      ["markup", "clear data", /no rule for data/],
      ["sellprice", "PLN100", /\/sellprice PLN100 102500/],
      ["sellprice", "PLN100 lots", /\/sellprice PLN100 102500/],
      ["sellprice", "NOPE99 5000", /code NOPE99 was not found/],
    ];
    for (const [command, args, message] of bad) {
      await u.sendCommand(command, args);
      expect(u.lastReply(), `/${command} ${args}`).toMatch(message);
      expect((await w.store.getChat(u.chatId))!.pricing, `/${command} ${args}`).toEqual(before);
    }

    await u.sendCommand("markup");
    expect(u.lastReply()).toContain("Selling prices");
    expect(u.lastReply()).toContain("Category pulsa: +Rp1,500");
    expect(u.lastReply()).toContain("Fixed price PLN100: Rp102,500");
    expect(u.lastReply()).toContain("rounded up");
    await u.sendCommand("markup", "hapus pulsa");
    await u.sendCommand("sellprice", "PLN100 clear");
    expect((await w.store.getChat(u.chatId))!.pricing).toBeUndefined();

    // A fixed price under today's cost is taken, with a warning about the loss.
    const cost = await costOf("S10");
    await u.sendCommand("sellprice", `S10 ${cost - 500}`);
    expect(u.lastReply()).toContain(`below today's cost (${rupiah(cost, "en")})`);
    expect((await w.store.getChat(u.chatId))!.pricing).toEqual({ fixed: { S10: cost - 500 } });
    expectNoFailures(u);
  });
});

describe("an api key typed by mistake", () => {
  it("is never echoed back by /markup or /hargajual (another key than the linked one: that one the key guard catches)", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const other = "Xk9Qw2Lm7Zp4Rt8Vb3Nc6Hd1";
    for (const args of [`${other} 10%`, `hapus ${other}`, `${other} 5000`]) {
      await u.sendCommand("markup", args);
      expect(u.lastReply()).not.toContain(other);
    }
    for (const args of [`${other} 5000`, `${other} hapus`]) {
      await u.sendCommand("hargajual", args);
      expect(u.lastReply()).not.toContain(other);
    }
  });
});

describe("selling prices on the confirm screen and the record", () => {
  it("shows cost, selling price and profit; sends limit_price = cost; keeps the profit of confirm time when the rule changes", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const cost = await costOf("S10");
    const price = up100(cost + 2000);
    await u.sendCommand("markup", "2000");
    await u.sendCommand("beli", "S10 081234567890");
    const confirm = u.lastReply()!;
    expect(confirm).toContain("Periksa sebelum konfirmasi");
    expect(confirm).toContain(`Harga modal: ${rupiah(cost, "id")}`);
    expect(confirm).toContain(`Harga jual: ${rupiah(price, "id")}`);
    expect(confirm).toContain(`Untung: ${rupiah(price - cost, "id")}`);
    const [draft] = await txs(u);
    expect(draft).toMatchObject({ status: "draft", amount: cost, sale: { price, profit: price - cost } });

    // The rule changes while the confirm screen waits: the screen's numbers stand.
    await u.sendCommand("markup", "5000");
    await u.pressButton(/Konfirmasi/);
    expect(w.sandbox.calls(CREATE).map((c) => c.body.limit_price)).toEqual([String(cost)]);
    expect(await w.store.getTx(draft!.refId)).toMatchObject({ status: "pending", sale: { price, profit: price - cost } });
    // The reseller's receipt shows what they sell it for and earn.
    expect(u.lastReply()).toContain(`Harga jual: ${rupiah(price, "id")}`);
    expect(u.lastReply()).toContain(`Untung: ${rupiah(price - cost, "id")}`);

    w.sandbox.settle(draft!.refId, "success");
    await w.clock.advance(6000);
    await u.sendCommand("status", draft!.refId);
    expect(await w.store.getTx(draft!.refId)).toMatchObject({ status: "success", sale: { price, profit: price - cost } });
    expect(u.lastReply()).toContain(`Harga jual: ${rupiah(price, "id")}`);

    // A new sale takes the new rule.
    await u.sendCommand("beli", "S10 081298765432");
    expect(u.lastReply()).toContain(`Harga jual: ${rupiah(up100(cost + 5000), "id")}`);
    expectNoFailures(u);
  });

  it("a price rise between quote and confirm is still refused by limit_price = cost; the retry quotes the new cost", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const cost = await costOf("S10");
    await u.sendCommand("markup", "pulsa 2000");
    await u.sendCommand("beli", "S10 081234567890");
    expect(u.lastReply()).toContain(`Harga jual: ${rupiah(up100(cost + 2000), "id")}`);
    const balance = w.sandbox.balance(w.demoKey);
    w.sandbox.setPrice("S10", cost + 700);

    await u.pressButton(/Konfirmasi/);
    expect(w.sandbox.calls(CREATE).map((c) => c.body.limit_price)).toEqual([String(cost)]);
    expect(u.lastReply()).toContain("Ditolak penyedia");
    expect(u.lastReply()).toContain(`sekarang ${rupiah(cost + 700, "id")} (tadi ${rupiah(cost, "id")})`);
    expect((await txs(u))[0]).toMatchObject({ status: "failed" });
    expect(w.sandbox.balance(w.demoKey)).toBe(balance);

    await u.pressButton("🔁 Coba lagi");
    expect(u.lastReply()).toContain(`Harga modal: ${rupiah(cost + 700, "id")}`);
    expect(u.lastReply()).toContain(`Harga jual: ${rupiah(up100(cost + 700 + 2000), "id")}`);
    expectNoFailures(u);
  });

  it("a provider that charges less than the confirmed cost: the selling price stays, the profit grows by the difference", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const cost = await costOf("S10");
    await u.sendCommand("markup", "2000");
    await u.sendCommand("beli", "S10 081234567890");
    const price = up100(cost + 2000);
    w.sandbox.setPrice("S10", cost - 300);
    await u.pressButton(/Konfirmasi/);
    expect(w.sandbox.calls(CREATE).map((c) => c.body.limit_price)).toEqual([String(cost)]);
    expect((await txs(u))[0]).toMatchObject({ status: "pending", amount: cost - 300, sale: { price, profit: price - cost + 300 } });
    expectNoFailures(u);
  });

  it("bills: the reseller's admin fee is added to the bill total; the provider is paid the bill only", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("markup", "bills 2500");
    expect(u.lastReply()).toContain("Bills (your admin fee): +Rp2,500");
    await u.sendCommand("markup", "tagihan 3000"); // the Indonesian word works in English too
    expect(u.lastReply()).toContain("Bills (your admin fee): +Rp3,000");
    // A bill fee alone leaves the prepaid lists as they were.
    await u.sendCommand("prices", "tsel 10");
    expect(u.lastReply()).not.toContain("cost");
    await u.sendCommand("markup", "10%"); // a prepaid rule: not for bills

    await u.sendCommand("bill");
    await u.pressButton("PLN Pascabayar");
    await u.sendText(SANDBOX_CUSTOMERS.oneSheet);
    const ref = w.sandbox.calls(INQUIRY)[0]!.body.reff_id!;
    const bill = (w.sandbox.transaction(ref) as { bill: { total: number; harga: number } }).bill;
    const screen = u.lastReply()!;
    expect(screen).toContain(`Total the customer owes: ${rupiah(bill.total, "en")}`);
    expect(screen).toContain(`Your shop's admin fee: ${rupiah(3000, "en")}`);
    expect(screen).toContain(`Selling price: ${rupiah(bill.total + 3000, "en")}`);
    expect(screen).toContain(`Your cost (debited from your balance): ${rupiah(bill.harga, "en")}`);
    expect(screen).toContain(`Profit: ${rupiah(bill.total + 3000 - bill.harga, "en")}`);
    expect((await w.store.getTx(ref))!.sale).toEqual({ price: bill.total + 3000, profit: bill.total + 3000 - bill.harga });

    const before = w.sandbox.balance(w.demoKey);
    await u.pressButton(/Confirm/);
    expect(w.sandbox.calls(PAY)).toHaveLength(1);
    expect(w.sandbox.balance(w.demoKey)).toBe(before - bill.harga);
    expectNoFailures(u);
  });

  it("a product tapped in the list asks for the number with the price the button showed, the cost below", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const cost = await costOf("S10");
    const price = up100(cost + 2000);
    await u.sendCommand("markup", "2000");
    await u.sendCommand("beli");
    await u.pressButton(/Pulsa/);
    await u.pressButton(/TELKOMSEL/);
    await u.pressButton(`Telkomsel 10.000 · ${rupiah(price, "id")}`);
    const [head, second] = u.lastReply()!.split("\n");
    expect(head).toBe(`🛒 Telkomsel 10.000 (S10): ${rupiah(price, "id")}`);
    expect(second).toBe(`modal ${rupiah(cost, "id")}`);

    // Without rules it reads as before: the price is the cost, no second line.
    await u.sendCommand("markup", "hapus semua");
    await u.sendCommand("beli", "S10");
    expect(u.lastReply()!.split("\n")[0]).toBe(`🛒 Telkomsel 10.000 (S10): ${rupiah(cost, "id")}`);
    expect(u.lastReply()).not.toContain("modal");
    expectNoFailures(u);
  });

  it("after confirm, the status message and the history detail name the cost as the confirm screen did: a bill's is what the provider debits", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("markup", "tagihan 2500");
    await u.sendCommand("tagihan");
    await u.pressButton("PLN Pascabayar");
    await u.sendText(SANDBOX_CUSTOMERS.oneSheet);
    const ref = w.sandbox.calls(INQUIRY)[0]!.body.reff_id!;
    const bill = (w.sandbox.transaction(ref) as { bill: { total: number; harga: number } }).bill;
    await u.pressButton(/Konfirmasi/);
    const lines = (text: string) => text.split("\n");
    // Cost, selling price, profit: three numbers that add up, with the words of the confirm screen.
    const status = lines(u.lastReply()!);
    expect(status).toContain(`Harga modal: ${rupiah(bill.harga, "id")}`);
    expect(status).toContain(`Harga jual: ${rupiah(bill.total + 2500, "id")}`);
    expect(status).toContain(`Untung: ${rupiah(bill.total + 2500 - bill.harga, "id")}`);
    expect(status.filter((l) => l.includes(rupiah(bill.total, "id")))).toEqual([]);

    await run(w, 10_000);
    await u.sendCommand("riwayat");
    await u.pressButton("1");
    const detail = lines(u.lastReply()!);
    expect(detail.filter((l) => l.startsWith("Harga modal"))).toEqual([`Harga modal: ${rupiah(bill.harga, "id")}`]);
    expect(detail.filter((l) => l.startsWith("Nominal"))).toEqual([]);

    // A prepaid sale: the cost is the price the provider charges.
    await u.sendCommand("beli", "S10 081234567890");
    await u.pressButton(/Konfirmasi/);
    expect(lines(u.lastReply()!)).toContain(`Harga modal: ${rupiah(await costOf("S10"), "id")}`);
    expectNoFailures(u);
  });

  it("the /riwayat list shows what the customer paid for every sale: a bill's and a product's selling price", async () => {
    w = await makeWorld({ watcher: true });
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("markup", "2000");
    await u.sendCommand("markup", "tagihan 2500");
    await u.sendCommand("tagihan");
    await u.pressButton("PLN Pascabayar");
    await u.sendText(SANDBOX_CUSTOMERS.oneSheet);
    const ref = w.sandbox.calls(INQUIRY)[0]!.body.reff_id!;
    const bill = (w.sandbox.transaction(ref) as { bill: { total: number } }).bill;
    await u.pressButton(/Konfirmasi/);
    await u.sendCommand("beli", "S10 081234567890");
    await u.pressButton(/Konfirmasi/);
    await run(w, 10_000);
    const sold = Math.ceil(((await costOf("S10")) + 2000) / 100) * 100;
    await u.sendCommand("riwayat");
    const list = u.lastReply()!.split("\n");
    expect(list.find((l) => l.includes("S10") || l.includes("Telkomsel"))).toContain(rupiah(sold, "id"));
    expect(list.find((l) => l.includes("PLN"))).toContain(rupiah(bill.total + 2500, "id"));
    expectNoFailures(u);
  });

  it("transfers have no markup: same screen, no selling price on the record", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("markup", "2000");
    await u.sendCommand("markup", "bills 2500");
    await u.sendCommand("transfer");
    await u.sendText("bca");
    await u.pressButton(/BCA/);
    await u.sendText("1234567890");
    await u.sendText("50rb");
    await u.pressButton("⏭ Skip");
    const confirm = u.lastReply()!;
    expect(confirm).toContain("Check before you confirm");
    expect(confirm).toContain("Rp50,000");
    expect(confirm).not.toMatch(/Selling price|Profit|Cost:/);
    expect((await txs(u))[0]!.sale).toBeUndefined();
    expectNoFailures(u);
  });
});
