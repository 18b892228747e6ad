/**
 * The network in the figures, through the built bot (docs/wallets.md): the owner's /laporan adds what
 * the downlines sold (per level, per downline, commissions paid to uplines) and keeps its own totals
 * right; a downline's /laporan and /ekspor are its own sales at its own price, never the owner's cost
 * or margin; /mutasi sends its entries as a CSV; /downline lists each downline's month and last activity.
 */
import { parse } from "csv-parse/sync";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rupiah } from "../../src/render/format.js";
import type { TxRecord } from "../../src/store/index.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";
import { run } from "../jobs/support.js";
import { fund, joinAs } from "./support.js";

let w: World;
beforeEach(async () => {
  w = await makeWorld({ watcher: true });
});
afterEach(() => w.close());

const rp = (n: number) => rupiah(n, "id");

let n = 0;
/** A successful sale on the owner's ledger: the owner's own (`buyer` undefined) or a downline's, paid from its wallet. */
async function sale(owner: number, buyer: number | undefined, cost: number, price: number, extra: { commissions?: { chat: number; amount: number }[]; status?: TxRecord["status"]; clientRef?: string } = {}): Promise<void> {
  n++;
  await w.store.createTx({
    refId: `NR${n}`,
    chatId: owner,
    kind: "prepaid",
    status: extra.status ?? "success",
    code: `P${n % 2}`,
    title: `Produk ${n % 2}`,
    target: "081234567890",
    amount: cost,
    sale: { price, profit: price - cost },
    ...(extra.clientRef !== undefined ? { clientRef: extra.clientRef } : {}),
    ...(buyer !== undefined
      ? { by: buyer, wallet: { chat: buyer, price, state: extra.status === "failed" ? "released" : "posted", ...(extra.commissions ? { commissions: extra.commissions } : {}) } }
      : {}),
  } as never);
}

/** The bot's text messages to `u`, newest last. */
function texts(u: FakeUser): string[] {
  return u.messages().filter((m) => m.from === "bot").map((m) => m.text ?? m.caption ?? "");
}

function lastDocument(u: FakeUser): { name: string | undefined; rows: string[][] } {
  const doc = u.messages().filter((m) => m.kind === "document").at(-1)!;
  return { name: doc.message.document?.file_name, rows: parse(doc.file!.bytes, { bom: true }) as string[][] };
}

describe("the owner's /laporan", () => {
  it("adds the network: per level and per downline (top 5, then how many more), commissions paid, and its own totals at the downlines' prices", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const andi = await joinAs(w, rina, "Andi", "Gold");
    const names = ["Budi", "Citra", "Dedi", "Eka", "Fajar"];
    const others: FakeUser[] = [];
    for (const name of names) others.push(await joinAs(w, rina, name, "Platinum"));
    // Rina's own sale: cost 10.000, sold at 12.000.
    await sale(rina.chatId, undefined, 10_000, 12_000);
    // Andi (Gold): two sales, one of them paying Budi a commission of 300 (Budi his upline in the record).
    await sale(rina.chatId, andi.chatId, 10_000, 11_000);
    await sale(rina.chatId, andi.chatId, 20_000, 21_500, { commissions: [{ chat: others[0]!.chatId, amount: 300 }] });
    await sale(rina.chatId, andi.chatId, 5_000, 6_000, { status: "failed" });
    // Five Platinum downlines, one sale each, turnover falling.
    for (const [i, o] of others.entries()) await sale(rina.chatId, o.chatId, 9_000 - i * 1_000, 9_500 - i * 1_000);

    await rina.sendCommand("laporan");
    const report = rina.lastReply()!;
    // The month's own totals count each downline's sale at its price: 1 + 2 + 5 sales.
    const turnover = 12_000 + 11_000 + 21_500 + [9_500, 8_500, 7_500, 6_500, 5_500].reduce((a, b) => a + b, 0);
    const cost = 10_000 + 10_000 + 20_000 + [9_000, 8_000, 7_000, 6_000, 5_000].reduce((a, b) => a + b, 0);
    const networkMargin = 1_000 + 1_500 - 300 + 5 * 500;
    const month = report.slice(report.indexOf("Bulan ini"));
    expect(month).toContain("Terjual: 8 · Gagal: 1");
    expect(month).toContain(`Omzet: ${rp(turnover)} · Modal: ${rp(cost)} · Untung: ${rp(2_000 + networkMargin)}`);

    const network = report.slice(report.indexOf("Jaringan bulan ini"));
    expect(network).toContain(`Downline: 7 penjualan · omzet ${rp(turnover - 12_000)} · margin Anda ${rp(networkMargin)}`);
    expect(network).toContain(`Komisi dibayar ke upline: ${rp(300)}`);
    expect(network).toContain(`• Gold: 2 penjualan · omzet ${rp(32_500)} · margin ${rp(2_200)}`);
    expect(network).toContain(`• Platinum: 5 penjualan · omzet ${rp(37_500)} · margin ${rp(2_500)}`);
    const lines = network.split("\n").filter((l) => l.startsWith("• ") && l.includes("("));
    expect(lines.map((l) => l.split(" (")[0])).toEqual(["• Andi", "• Budi", "• Citra", "• Dedi", "• Eka"]);
    expect(lines[0]).toBe(`• Andi (Gold): 2 penjualan · omzet ${rp(32_500)} · margin ${rp(2_200)}`);
    expect(network).toContain("… dan 1 downline lainnya");
    // Downlines are not staff: no per-person lines naming them by chat id.
    expect(report).not.toContain("Per orang bulan ini");
    expect(report).not.toContain(String(andi.chatId));
  });

  it("the owner's CSV names the downline who made each sale, and its profit column leaves out the uplines' commissions", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const andi = await joinAs(w, rina, "Andi", "Gold");
    const budi = await joinAs(w, rina, "Budi", "Gold");
    await sale(rina.chatId, undefined, 10_000, 12_000);
    await sale(rina.chatId, andi.chatId, 20_000, 21_500, { commissions: [{ chat: budi.chatId, amount: 300 }] });
    await rina.sendCommand("ekspor");
    await rina.pressButton(/\d{4}/);
    const [header, ...rows] = lastDocument(rina).rows;
    const by = header!.indexOf("Oleh");
    const profit = header!.indexOf("Untung");
    expect(rows.map((r) => [r[by], r[profit]])).toEqual([
      ["Pemilik", "2000"],
      ["Andi", "1200"],
    ]);
  });

  it("reads in English too, one sale and one more downline in the singular", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "en" });
    await rina.sendCommand("downline");
    await rina.pressButton(/Gold/);
    const token = /start=dl_([A-Za-z0-9_-]+)/.exec(rina.lastReply() ?? "")?.[1];
    const andi = w.user({ firstName: "Andi", languageCode: "en" });
    await andi.sendCommand("start", `dl_${token}`);
    await sale(rina.chatId, andi.chatId, 10_000, 11_000);
    await rina.sendCommand("report");
    const report = rina.lastReply()!;
    expect(report).toContain("Network this month");
    expect(report).toContain(`Downlines: 1 sale · turnover ${rupiah(11_000, "en")} · your margin ${rupiah(1_000, "en")}`);
    expect(report).toContain(`• Andi (Gold): 1 sale · turnover ${rupiah(11_000, "en")}`);
    await rina.sendCommand("downline");
    expect(rina.lastReply()).toContain(`• Andi · Gold · wallet Rp0 (on hold Rp0) · 1 sale this month · active`);
  });

  it("marks the sales a downline's own system made over H2H: their count and turnover", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const andi = await joinAs(w, rina, "Andi", "Gold");
    await sale(rina.chatId, andi.chatId, 10_000, 11_000);
    await sale(rina.chatId, andi.chatId, 20_000, 21_000, { clientRef: "ANDI-1" });
    await sale(rina.chatId, andi.chatId, 5_000, 6_000, { clientRef: "ANDI-2" });
    await sale(rina.chatId, andi.chatId, 5_000, 6_000, { clientRef: "ANDI-3", status: "failed" });
    await rina.sendCommand("laporan");
    const network = rina.lastReply()!.slice(rina.lastReply()!.indexOf("Jaringan bulan ini"));
    expect(network).toContain(`lewat H2H: 2 penjualan · omzet ${rp(27_000)}`);
  });

  it("an owner without downlines reads no network block", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    await sale(rina.chatId, undefined, 10_000, 12_000);
    await rina.sendCommand("laporan");
    expect(rina.lastReply()).not.toContain("Jaringan");
  });
});

describe("a downline's own figures", () => {
  it("/laporan: its sales and what it paid from its wallet, its commissions; never the owner's cost, margin or other downlines", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const andi = await joinAs(w, rina, "Andi", "Gold");
    const budi = await joinAs(w, rina, "Budi", "Gold");
    await fund(w, rina, "Andi", 50_000);
    // A real purchase through the confirm screen, then records of the month.
    await andi.sendCommand("beli", "S10");
    await andi.sendText("081234567890");
    const price = Number(/Harga jual: Rp([\d.]+)/.exec(andi.lastReply()!)![1]!.replace(/\./g, ""));
    await andi.pressButton(/Konfirmasi/);
    await run(w, 10_000);
    await w.app.deps.wallets.idle();
    await sale(rina.chatId, andi.chatId, 20_000, 21_000, { status: "failed" });
    await sale(rina.chatId, budi.chatId, 30_000, 31_000, { commissions: [{ chat: andi.chatId, amount: 400 }] });
    await sale(rina.chatId, undefined, 40_000, 45_000);
    await w.store.postEntries([{ ref: "NRc1", wallet: andi.chatId, owner: rina.chatId, amount: 400, kind: "commission", txRef: `NR${n}` }]);

    await andi.sendCommand("laporan");
    const told = texts(andi).slice(-1).join("\n");
    expect(told).toContain("Penjualan Anda");
    const month = told.slice(told.indexOf("Bulan ini"));
    expect(month).toContain("Terjual: 1 · Gagal: 1");
    expect(month).toContain(`Dibayar dari dompet: ${rp(price)}`);
    expect(month).toContain(`Komisi dari downline Anda: ${rp(400)}`);
    expect(told).not.toMatch(/Modal|Untung|margin|Omzet/i);
    expect(told).not.toContain(rp(31_000));
    expect(told).not.toContain(rp(45_000));
    // No chart of the owner's profit, and no daily-summary switch of the owner's.
    expect(andi.messages().some((m) => m.kind === "photo")).toBe(false);
    expect(andi.buttons()).toEqual(["📄 Ekspor CSV"]);

    // /ekspor: its own records only, at its price, no cost or profit columns.
    await andi.pressButton(/Ekspor CSV/);
    await andi.pressButton(/\d{4}/);
    const { rows } = lastDocument(andi);
    const [header, ...body] = rows;
    expect(header).toEqual(["Waktu (WIB)", "ID referensi", "Jenis", "Kode", "Produk", "Tujuan", "Harga Anda", "Dompet", "Status", "SN"]);
    expect(body).toHaveLength(2);
    expect(body.map((r) => [r[6], r[7], r[8]])).toEqual([
      [String(price), String(-price), "Berhasil"],
      ["21000", "", "Gagal"],
    ]);
    expect(JSON.stringify(rows)).not.toContain("31000");
  });

  it("/laporan and /ekspor are on a downline's menu of commands it may use", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const andi = await joinAs(w, rina, "Andi");
    await andi.sendCommand("laporan");
    expect(andi.lastReply()).toContain("Belum ada penjualan Anda bulan ini");
    await andi.sendCommand("ekspor");
    expect(andi.lastReply()).toContain("Ekspor CSV");
    await andi.pressButton(/\d{4}/);
    expect(String(w.fake.callsOf("answerCallbackQuery").at(-1)?.payload.text)).toContain("Tidak ada transaksi");
  });

  it("the main menu (/menu) of a downline offers its Laporan and Ekspor, and both open its own", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const andi = await joinAs(w, rina, "Andi");
    await andi.sendCommand("menu");
    const menu = andi.messages().at(-1)!.messageId;
    expect(andi.buttons({ messageId: menu })).toEqual(expect.arrayContaining(["📊 Laporan", "📄 Ekspor"]));
    // Never the owner's own: money out of her balance, her shop.
    expect(andi.buttons({ messageId: menu })).not.toEqual(expect.arrayContaining(["💸 Transfer"]));
    await andi.pressButton(/Laporan/, { messageId: menu });
    expect(andi.lastReply()).toContain("Belum ada penjualan Anda bulan ini");
    await andi.sendCommand("menu");
    await andi.pressButton(/Ekspor/, { messageId: andi.messages().at(-1)!.messageId });
    expect(andi.lastReply()).toContain("Ekspor CSV");
  });
});

describe("/mutasi as a CSV", () => {
  it("a button sends the wallet's entries: time, kind, amount, running balance, ref, reason", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const andi = await joinAs(w, rina, "Andi");
    await fund(w, rina, "Andi", 50_000, "tunai");
    await fund(w, rina, "Andi", 20_000, "transfer BCA");
    await w.store.postEntries([{ ref: "NRp1", wallet: andi.chatId, owner: rina.chatId, amount: -11_000, kind: "purchase", txRef: "TRX1" }]);
    await andi.sendCommand("mutasi");
    await andi.pressButton(/CSV/);
    const { name, rows } = lastDocument(andi);
    expect(name).toMatch(/^mutasi-dompet.*\.csv$/);
    const [header, ...body] = rows;
    expect(header).toEqual(["Waktu (WIB)", "Jenis", "Jumlah", "Saldo", "Referensi", "Alasan"]);
    expect(body.map((r) => r.slice(1))).toEqual([
      ["oleh upline", "50000", "50000", expect.any(String), "tunai"],
      ["oleh upline", "20000", "70000", expect.any(String), "transfer BCA"],
      ["pembelian", "-11000", "59000", "TRX1", ""],
    ]);
    expect(body[0]![0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });
});

describe("the owner's /downline list", () => {
  it("shows each downline's level, wallet, sales this month and last activity", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const andi = await joinAs(w, rina, "Andi", "Gold");
    await joinAs(w, rina, "Budi", "Platinum");
    await sale(rina.chatId, andi.chatId, 10_000, 11_000);
    await sale(rina.chatId, andi.chatId, 10_000, 11_000);
    await sale(rina.chatId, andi.chatId, 10_000, 11_000, { status: "failed" });
    await rina.sendCommand("downline");
    const list = rina.lastReply()!;
    const andiLine = list.split("\n").find((l) => l.includes("Andi"))!;
    const budiLine = list.split("\n").find((l) => l.includes("Budi"))!;
    expect(andiLine).toMatch(/^• Andi · Gold · saldo Rp0 \(ditahan Rp0\) · 2 penjualan bulan ini · aktif \d/);
    expect(budiLine).toContain("• Budi · Platinum · saldo Rp0 (ditahan Rp0) · 0 penjualan bulan ini · belum bertransaksi");
  });
});
