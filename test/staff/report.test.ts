/**
 * Reports and exports split sales and profit per person (the owner, each staff member): the lines add
 * up to the totals, in /laporan and in the CSV of /ekspor, through the built bot.
 */
import { parse } from "csv-parse/sync";
import { afterEach, beforeEach, expect, it } from "vitest";
import { perPerson, summarize, wibDay } from "../../src/domain/report.js";
import type { TxRecord } from "../../src/store/index.js";
import { makeWorld, type World } from "../support/world.js";
import { inviteToken, ownerAndStaff } from "./support.js";

let w: World;
beforeEach(async () => {
  w = await makeWorld();
});
afterEach(() => w.close());

let n = 0;
/** A successful prepaid sale on the owner's ledger, made by `by` (undefined: the owner). */
async function sale(owner: number, by: number | undefined, cost: number, price: number, status: TxRecord["status"] = "success"): Promise<void> {
  await w.store.createTx({
    refId: `T${++n}`,
    chatId: owner,
    kind: "prepaid",
    status,
    code: `P${n % 3}`,
    title: `Produk ${n % 3}`,
    target: "081234567890",
    amount: cost,
    sale: { price, profit: price - cost },
    ...(by !== undefined ? { by } : {}),
  });
}

const rupiahs = (text: string) => [...text.matchAll(/Rp\s?([\d.]+)/g)].map((m) => Number(m[1]!.replace(/\./g, "")));

it("per-person sales, turnover and profit add up to the month's totals (/laporan)", async () => {
  const { rina, dewi } = await ownerAndStaff(w);
  const sari = w.user({ firstName: "Sari", languageCode: "id" });
  await sari.sendCommand("start", `staff_${await inviteToken(rina, "admin")}`);
  const plan: [number | undefined, number, number, TxRecord["status"]?][] = [
    [undefined, 9_800, 11_000],
    [dewi.chatId, 4_900, 6_000],
    [dewi.chatId, 19_500, 21_000],
    [sari.chatId, 49_000, 52_500],
    [dewi.chatId, 9_800, 11_000, "failed"],
    [undefined, 97_000, 100_000],
    [sari.chatId, 4_900, 5_500, "pending"],
  ];
  for (const [by, cost, price, status] of plan) await sale(rina.chatId, by, cost, price, status);

  const txs = (await w.store.listTxByChat(rina.chatId)).items;
  const today = wibDay(w.clock.now());
  const total = summarize(txs, today, today);
  const people = perPerson(txs, today, today);
  expect(people.reduce((s, p) => s + p.sales, 0)).toBe(total.sales);
  expect(people.reduce((s, p) => s + p.turnover, 0)).toBe(total.turnover);
  expect(people.reduce((s, p) => s + p.profit, 0)).toBe(total.profit);
  expect(people.map((p) => p.by)).toEqual([undefined, sari.chatId, dewi.chatId]);

  await rina.sendCommand("laporan");
  const report = rina.lastReply()!;
  const block = report.slice(report.indexOf("Per orang bulan ini"));
  const lines = block.split("\n").slice(1);
  expect(lines.map((l) => l.split(":")[0])).toEqual(["• Pemilik", "• Sari", "• Dewi"]);
  const profits = lines.map((l) => rupiahs(l).at(-1)!);
  const turnovers = lines.map((l) => rupiahs(l).at(0)!);
  expect(profits.reduce((a, b) => a + b, 0)).toBe(total.profit);
  expect(turnovers.reduce((a, b) => a + b, 0)).toBe(total.turnover);

  // A shop admin reads the same report of the owner's ledger.
  await sari.sendCommand("laporan");
  expect(sari.lastReply()).toContain("Per orang bulan ini");
});

it("the CSV names who made each record; per-person profit sums equal the column's total", async () => {
  const { rina, dewi } = await ownerAndStaff(w);
  await sale(rina.chatId, undefined, 9_800, 11_000);
  await sale(rina.chatId, dewi.chatId, 4_900, 6_000);
  await sale(rina.chatId, dewi.chatId, 19_500, 21_000);
  await rina.sendCommand("ekspor");
  await rina.pressButton(/\d{4}/);
  const doc = rina.messages().find((m) => m.kind === "document")!;
  const rows = parse(doc.file!.bytes, { bom: true }) as string[][];
  const header = rows[0]!;
  const by = header.indexOf("Oleh");
  const profit = header.indexOf("Untung");
  expect(by).toBeGreaterThan(-1);
  const perPersonSum = new Map<string, number>();
  for (const r of rows.slice(1)) perPersonSum.set(r[by]!, (perPersonSum.get(r[by]!) ?? 0) + Number(r[profit] || 0));
  expect(Object.fromEntries(perPersonSum)).toEqual({ Pemilik: 1_200, Dewi: 2_600 });
  const total = rows.slice(1).reduce((s, r) => s + Number(r[profit] || 0), 0);
  expect([...perPersonSum.values()].reduce((a, b) => a + b, 0)).toBe(total);
});

it("in English, one sale is '1 sale', not '1 sales'; the daily summary time reads 21:00", async () => {
  const rina = await w.linkedUser({ firstName: "Rina", languageCode: "en" });
  const dewi = w.user({ firstName: "Dewi", languageCode: "en" });
  await dewi.sendCommand("start", `staff_${await inviteToken(rina, "cashier")}`);
  await sale(rina.chatId, undefined, 9_800, 11_000);
  await sale(rina.chatId, dewi.chatId, 9_800, 11_000);
  await rina.sendCommand("report");
  const told = rina.messages().filter((m) => m.from === "bot").map((m) => m.text ?? m.caption ?? "").join("\n");
  expect(told).toMatch(/• Dewi: 1 sale · turnover/);
  expect(told).not.toContain("1 sales");
  expect(rina.buttons()).toContain("🔔 Daily summary at 21:00 WIB: turn on");
  await rina.pressButton(/Daily summary/);
  expect(rina.lastReply()).toContain("every day at 21:00 WIB");
  expect(w.deps.translate("en", "report-chart-total", { profit: "Rp1,200", sales: 1 })).toBe("Total: Rp1,200 from 1 sale");
  expect(w.deps.translate("en", "report-shop-line", { profit: "Rp1,200", sales: 1 })).toContain("1 sale,");
  expect(w.deps.translate("en", "report-chart-total", { profit: "Rp2,400", sales: 2 })).toBe("Total: Rp2,400 from 2 sales");
});
