import { afterEach, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { pngSize } from "../../src/render/png.js";
import { CHART_HEIGHT, CHART_WIDTH } from "../../src/render/reportChart.js";
import type { NewTx } from "../../src/store/index.js";
import type { TxRecord } from "../../src/store/index.js";
import { TelegramErrors } from "../support/fakeBotApi.js";
import type { FakeUser } from "../support/chat.js";
import { onPostgres } from "../support/pg.js";
import { makeWorld, type World } from "../support/world.js";

let w: World;
afterEach(() => w?.close());

/** An instant given as WIB wall-clock time. The world's clock starts at 15 Jan 2026 10.00 WIB. */
const wib = (y: number, mo: number, d: number, h = 12, mi = 0) => Date.UTC(y, mo - 1, d, h - 7, mi);
const HOUR = 60 * 60 * 1000;

let n = 0;
async function put(chatId: number, fields: Omit<NewTx, "refId" | "chatId"> & { createdAt: number }): Promise<TxRecord> {
  const refId = `${fields.kind === "deposit" ? "DP" : "PR"}2601${String(++n).padStart(10, "0")}`;
  return await w.store.createTx({ refId, chatId, updatedAt: fields.createdAt, ...fields } as NewTx);
}

/**
 * A known month for `u`: sales today (one at cost, one failed), one yesterday at 23.59 WIB, one
 * earlier this week, one on the 2nd (archived by the time of the report), one in December
 * (archived), a deposit today, a draft, and another chat's sale. Returns the records.
 */
async function knownMonth(u: FakeUser): Promise<TxRecord[]> {
  const c = u.chatId;
  // put() numbers the records when called: all in this order, whenever each resolves.
  const out = await Promise.all([
    put(c, { kind: "deposit", status: "success", code: "bca", title: "BCA", amount: 100_000, detail: { credited: 99_300 }, createdAt: wib(2026, 1, 15, 7) }),
    put(c, { kind: "prepaid", status: "success", upstreamId: "T1", code: "S10", title: "Telkomsel 10.000", target: "081234567890", amount: 10_200, sale: { price: 12_000, profit: 1_800 }, sn: "R2601150800", createdAt: wib(2026, 1, 15, 8) }),
    put(c, { kind: "prepaid", status: "success", upstreamId: "T2", code: "S10", title: "Telkomsel 10.000", target: "081298765432", amount: 10_200, createdAt: wib(2026, 1, 15, 9) }),
    put(c, { kind: "prepaid", status: "failed", upstreamId: "T3", code: "S5", title: "Telkomsel 5.000", target: "081200000000", amount: 5_200, sale: { price: 6_000, profit: 800 }, createdAt: wib(2026, 1, 15, 9, 30) }),
    put(c, { kind: "prepaid", status: "draft", code: "S10", title: "Telkomsel 10.000", target: "0812", amount: 10_200, createdAt: wib(2026, 1, 15, 9, 45) }),
    put(c, { kind: "postpaid", status: "success", upstreamId: "T4", code: "PLN", title: "PLN Pascabayar", target: "530000000001", amount: 102_200, sale: { price: 104_700, profit: 2_500 }, createdAt: wib(2026, 1, 14, 23, 59) }),
    put(c, { kind: "prepaid", status: "success", upstreamId: "T5", code: "XL10", title: "XL 10.000", target: "081711111111", amount: 10_500, sale: { price: 12_000, profit: 1_500 }, createdAt: wib(2026, 1, 10) }),
    put(c, { kind: "prepaid", status: "success", upstreamId: "T6", code: "S10", title: "Telkomsel 10.000", target: "081222222222", amount: 10_200, sale: { price: 11_500, profit: 1_300 }, createdAt: wib(2026, 1, 2) }),
    put(c, { kind: "prepaid", status: "success", upstreamId: "T7", code: "S10", title: "Telkomsel 10.000", target: "081233333333", amount: 10_200, sale: { price: 12_500, profit: 2_300 }, createdAt: wib(2025, 12, 20) }),
  ]);
  await put(c + 1, { kind: "prepaid", status: "success", code: "S10", title: "Telkomsel 10.000", amount: 10_200, sale: { price: 50_000, profit: 39_800 }, createdAt: wib(2026, 1, 15, 8) });
  // Records older than a week leave memory for the monthly archive: the report reads them back.
  // (PostgreSQL keeps every record in one table: nothing to sweep, the same report.)
  if (!onPostgres) expect(await w.fileStore.sweep()).toBe(2);
  return out;
}

describe("/laporan", () => {
  it("shows today, yesterday, the last 7 days and this month from hot and archived records, with a profit chart", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await knownMonth(u);

    await u.sendCommand("laporan");
    const chart = u.messages().find((m) => m.kind === "photo");
    expect(chart?.caption).toBe("📈 Untung per hari, Januari 2026.");
    expect(pngSize(u.lastPhoto())).toEqual({ width: CHART_WIDTH, height: CHART_HEIGHT });

    const report = u.lastReply()!;
    expect(report).toContain("📊 Laporan penjualan");
    const block = (name: string) => report.split("\n\n").find((b) => b.startsWith(name));
    expect(block("Hari ini")).toBe(
      ["Hari ini (15 Jan)", "Terjual: 2 · Gagal: 1", "Omzet: Rp22.200 · Modal: Rp20.400 · Untung: Rp1.800", "Deposit masuk: Rp99.300 (1x)", "Terlaris: Telkomsel 10.000 (2x)"].join("\n"),
    );
    expect(block("Kemarin")).toBe(
      ["Kemarin (14 Jan)", "Terjual: 1 · Gagal: 0", "Omzet: Rp104.700 · Modal: Rp102.200 · Untung: Rp2.500", "Terlaris: PLN Pascabayar (1x)"].join("\n"),
    );
    expect(block("7 hari terakhir")).toBe(
      [
        "7 hari terakhir (9 Jan–15 Jan)",
        "Terjual: 4 · Gagal: 1",
        "Omzet: Rp138.900 · Modal: Rp133.100 · Untung: Rp5.800",
        "Deposit masuk: Rp99.300 (1x)",
        "Terlaris: Telkomsel 10.000 (2x), PLN Pascabayar (1x), XL 10.000 (1x)",
      ].join("\n"),
    );
    expect(block("Bulan ini")).toBe(
      ["Bulan ini (1 Jan–15 Jan)", "Terjual: 5 · Gagal: 1", "Omzet: Rp150.400 · Modal: Rp143.300 · Untung: Rp7.100", "Deposit masuk: Rp99.300 (1x)"].join("\n"),
    );
    expect(block("🏆")).toBe(
      ["🏆 Terlaris bulan ini", "1. Telkomsel 10.000: 3x · untung Rp3.100", "2. PLN Pascabayar: 1x · untung Rp2.500", "3. XL 10.000: 1x · untung Rp1.500"].join("\n"),
    );
    expect(u.buttons()).toEqual(["🔔 Ringkasan harian 21.00 WIB: nyalakan", "📄 Ekspor CSV"]);
  });

  it("shows the money sent out by transfer: count, amount and the provider's fees; a failed one is not counted", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const c = u.chatId;
    const transfer = { kind: "transfer" as const, code: "bca", title: "BCA", target: "1234567890", detail: { holderName: "BUDI", bankType: "bank" as const, note: "" } };
    await put(c, { ...transfer, status: "success", amount: 50_000, fee: 2_500, total: 52_500, createdAt: wib(2026, 1, 15, 8) });
    await put(c, { ...transfer, status: "success", amount: 20_000, fee: 1_000, total: 21_000, createdAt: wib(2026, 1, 13, 8) });
    await put(c, { ...transfer, status: "failed", amount: 90_000, createdAt: wib(2026, 1, 15, 9) });

    await u.sendCommand("laporan");
    const report = u.lastReply()!;
    const block = (name: string) => report.split("\n\n").find((b) => b.startsWith(name));
    expect(block("Hari ini")).toContain("Transfer keluar: Rp50.000 (1x) · biaya admin Rp2.500");
    expect(block("Kemarin")).not.toContain("Transfer");
    expect(block("Bulan ini")).toContain("Transfer keluar: Rp70.000 (2x) · biaya admin Rp3.500");

    const en = await w.linkedUser({ languageCode: "en" });
    await put(en.chatId, { ...transfer, status: "success", amount: 50_000, fee: 2_500, total: 52_500, createdAt: wib(2026, 1, 15, 8) });
    await en.sendCommand("report");
    expect(en.lastReply()).toContain("Transfers out: Rp50,000 (1x) · fees Rp2,500");
  });

  it("says so when there is nothing to report, in English too, without a chart", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("report");
    expect(u.lastReply()).toBe("📊 No transactions this month yet. The report fills in after the first sale.");
    expect(u.messages().filter((m) => m.kind === "photo")).toEqual([]);
    expect(u.buttons()).toEqual(["🔔 Daily summary at 21:00 WIB: turn on", "📄 Export CSV"]);
  });
});

describe("daily summary", () => {
  const summaries = (u: FakeUser) => u.messages().filter((m) => m.from === "bot" && m.text?.startsWith("🌙"));

  it("is switched on from /laporan and sent once at 21.00 WIB, not at 20.59, and not again after a restart", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await knownMonth(u);
    await u.sendCommand("laporan");
    await u.pressButton("🔔 Ringkasan harian 21.00 WIB: nyalakan");
    expect(u.lastReply()).toContain("Ringkasan harian aktif");
    expect(u.buttons()).toEqual(["🔕 Ringkasan harian: matikan", "📄 Ekspor CSV"]);
    w.app.dailySummary.start();

    // 10.00 -> 20.59 WIB: nothing yet.
    await w.clock.advance(10 * HOUR + 59 * 60_000);
    await w.app.dailySummary.idle();
    expect(summaries(u)).toEqual([]);

    await w.clock.advance(60_000);
    await w.app.dailySummary.idle();
    expect(summaries(u).map((m) => m.text)).toEqual([
      [
        "🌙 Ringkasan hari ini (15 Jan)",
        "",
        "Terjual: 2 · Gagal: 1",
        "Omzet: Rp22.200 · Modal: Rp20.400 · Untung: Rp1.800",
        "Deposit masuk: Rp99.300 (1x)",
        "",
        "🏆 Terlaris hari ini",
        "1. Telkomsel 10.000: 2x · untung Rp1.800",
        "",
        "Laporan lengkap: /laporan (ringkasan ini bisa dimatikan di sana).",
      ].join("\n"),
    ]);

    // A restart at 21.30 finds the day marked: no second summary.
    await w.clock.advance(30 * 60_000);
    await w.restart();
    w.app.dailySummary.start();
    await w.app.dailySummary.idle();
    await w.clock.advance(2 * HOUR);
    await w.app.dailySummary.idle();
    expect(summaries(u)).toHaveLength(1);

    // 23.30 -> the next day 21.30: the 21.00 run brings the next one.
    await w.clock.advance(22 * HOUR);
    await w.app.dailySummary.idle();
    expect(summaries(u)).toHaveLength(2);
    expect(summaries(u)[1]!.text).toContain("Ringkasan hari ini (16 Jan)");
    expect(summaries(u)[1]!.text).toContain("Terjual: 0 · Gagal: 0");
  });

  it("a start after 21.00 sends the day's summaries still due; switched off or switched on after 21.00, none today", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const off = await w.linkedUser({ languageCode: "id" });
    await w.store.updateChat(u.chatId, { dailySummary: true });
    await w.store.updateChat(off.chatId, { dailySummary: false });
    // Down from 20.00 to 21.10 WIB: the start at 21.10 sends the day's summary at once.
    await w.clock.advance(11 * HOUR + 10 * 60_000);
    // Switched on after 21.00 (while down): the first summary is tomorrow's.
    const late = await w.linkedUser({ languageCode: "id" });
    await late.sendCommand("laporan");
    await late.pressButton(/nyalakan/);
    w.app.dailySummary.start();
    await w.app.dailySummary.idle();
    expect(summaries(u)).toHaveLength(1);
    expect(summaries(off)).toEqual([]);
    expect(summaries(late)).toEqual([]);
    expect((await w.store.getChat(u.chatId))?.summaryDay).toBe("2026-01-15");
  });

  it("the day is on disk before the summary goes out (a crash in between loses it, never sends it twice)", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    await w.store.updateChat(u.chatId, { dailySummary: true });
    // What a crash would leave, read at the moment the summary goes out.
    const seen: Promise<string | undefined>[] = [];
    w.fake.setResponder((method, payload) => {
      if (method === "sendMessage" && payload.chat_id === u.chatId) seen.push(w.savedChat(u.chatId).then((c) => c?.summaryDay));
      return undefined;
    });
    w.app.dailySummary.start();
    await w.clock.advance(11 * HOUR);
    await w.app.dailySummary.idle();
    expect(await Promise.all(seen)).toEqual(["2026-01-15"]);
    expect(summaries(u)).toHaveLength(1);
  });

  it("skips a chat that blocked the bot from then on, and still sends to the others", async () => {
    w = await makeWorld();
    const blocker = await w.linkedUser({ languageCode: "id" });
    const u = await w.linkedUser({ languageCode: "en" });
    for (const c of [blocker, u]) await w.store.updateChat(c.chatId, { dailySummary: true });
    w.app.dailySummary.start();
    w.fake.failNext("sendMessage", TelegramErrors.blocked(), { chatId: blocker.chatId });
    await w.clock.advance(11 * HOUR);
    await w.app.dailySummary.idle();
    expect(summaries(u).map((m) => m.text?.split("\n")[0])).toEqual(["🌙 Today's summary (15 Jan)"]);
    expect((await w.store.getChat(blocker.chatId))?.inactive).toBe(true);

    const before = w.fake.sentTo(blocker.chatId).length;
    await w.clock.advance(24 * HOUR);
    await w.app.dailySummary.idle();
    expect(w.fake.sentTo(blocker.chatId)).toHaveLength(before);
    expect(summaries(u)).toHaveLength(2);
  });
});

describe("/ekspor", () => {
  it("offers this month and earlier months with records, and sends a month as a CSV that parses back to its records", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "id" });
    const records = await knownMonth(u);

    await u.sendCommand("ekspor");
    expect(u.lastReply()).toContain("Ekspor CSV");
    expect(u.buttons()).toEqual(["Januari 2026", "Desember 2025"]);
    await u.pressButton("Januari 2026");
    const doc = u.messages().find((m) => m.kind === "document")!;
    expect(doc.message.document?.file_name).toBe("transaksi-2026-01.csv");
    expect(doc.caption).toBe("📄 Transaksi Januari 2026: 7 baris.");
    const bytes = doc.file!.bytes;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = parse(bytes, { bom: true }) as string[][];
    expect(header).toEqual(["Waktu (WIB)", "ID referensi", "ID penyedia", "Jenis", "Kode", "Produk", "Tujuan", "Harga modal", "Harga jual", "Untung", "Deposit masuk", "Transfer keluar", "Status", "SN"]);

    // Every January record but the draft, oldest first, archived ones included.
    const january = records.filter((t) => t.createdAt >= wib(2026, 1, 1, 0) && t.status !== "draft").sort((a, b) => a.createdAt - b.createdAt);
    const kind = { prepaid: "Pembelian", postpaid: "Pembayaran tagihan", transfer: "Transfer", deposit: "Deposit" };
    const status = { success: "Berhasil", failed: "Gagal" } as Record<string, string>;
    const time = (at: number) => new Date(at + 7 * HOUR).toISOString().slice(0, 19).replace("T", " ");
    expect(rows).toEqual(
      january.map((t) => {
        const sale = t.kind === "prepaid" || t.kind === "postpaid";
        const price = t.sale?.price ?? t.amount;
        return [
          time(t.createdAt), t.refId, t.upstreamId ?? "", kind[t.kind], t.code ?? "", t.title ?? "", t.target ?? "", sale ? String(t.amount) : "",
          sale ? String(price) : "", sale && t.status === "success" ? String(price - t.amount) : "",
          t.kind === "deposit" ? "99300" : "", "", status[t.status], t.sn ?? "",
        ];
      }),
    );
    expect(rows[2]).toEqual(["2026-01-14 23:59:00", records[5]!.refId, "T4", "Pembayaran tagihan", "PLN", "PLN Pascabayar", "530000000001", "102200", "104700", "2500", "", "", "Berhasil", ""]);

    // December: only the archived record.
    await u.sendCommand("ekspor");
    await u.pressButton("Desember 2025");
    const december = u.messages().filter((m) => m.kind === "document")[1]!;
    expect((parse(december.file!.bytes, { bom: true }) as string[][]).slice(1).map((r) => r[1])).toEqual([records[8]!.refId]);
  });

  it("puts money in and money out in columns of their own: cost is only a sale's, and only money that moved is summed", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    const c = u.chatId;
    await put(c, { kind: "deposit", status: "cancel", upstreamId: "D1", code: "qris", title: "QRIS", amount: 500_000, createdAt: wib(2026, 1, 15, 7) });
    await put(c, { kind: "deposit", status: "success", code: "qris", title: "QRIS", amount: 200_000, detail: { credited: 198_600 }, createdAt: wib(2026, 1, 15, 7, 10) });
    await put(c, { kind: "transfer", status: "success", code: "bca", title: "BCA", target: "1234567890", amount: 100_000, total: 102_500, createdAt: wib(2026, 1, 15, 7, 20) });
    await put(c, { kind: "transfer", status: "failed", code: "bca", title: "BCA", target: "1234567890", amount: 50_000, total: 52_500, createdAt: wib(2026, 1, 15, 7, 30) });
    await put(c, { kind: "prepaid", status: "success", code: "S10", title: "Telkomsel 10.000", target: "081234567890", amount: 10_200, sale: { price: 12_000, profit: 1_800 }, createdAt: wib(2026, 1, 15, 8) });

    await u.sendCommand("export");
    await u.pressButton("January 2026");
    const [header, ...rows] = parse(u.messages().find((m) => m.kind === "document")!.file!.bytes, { bom: true }) as string[][];
    const col = (name: string) => rows.map((r) => r[header!.indexOf(name)]);
    expect(header).toContain("Deposit in");
    expect(header).toContain("Transfer out");
    expect(col("Cost price")).toEqual(["", "", "", "", "10200"]);
    expect(col("Deposit in")).toEqual(["", "198600", "", "", ""]);
    expect(col("Transfer out")).toEqual(["", "", "102500", "", ""]);
  });

  it("a month without records says so; another chat's months are not offered", async () => {
    w = await makeWorld();
    const u = await w.linkedUser({ languageCode: "en" });
    const other = await w.linkedUser({ languageCode: "en" });
    await put(other.chatId, { kind: "prepaid", status: "success", code: "S10", amount: 10_200, createdAt: wib(2025, 11, 3) });
    await u.sendCommand("export");
    expect(u.buttons()).toEqual(["January 2026"]);
    const calls = await u.pressButton("January 2026");
    expect(calls.find((c) => c.method === "answerCallbackQuery")?.payload.text).toBe("No transactions in that month.");
    expect(u.messages().filter((m) => m.kind === "document")).toEqual([]);
  });
});
