/**
 * A kind's file with many documents, changed one at a time and flushed after each (a shop's orders
 * moving, each move durable before its provider call): a flush serialises what changed, not every
 * document again, appended to the kind's journal; a clean close folds the journal into the one JSON file
 * other readers (migrate-store) expect; a crash in the middle of an append or of a compaction leaves the
 * last flushed state readable.
 */
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import type { DocKind } from "../../src/store/api.js";
import { ManualClock } from "../../src/tools/clock.js";
import * as z from "../../src/tools/zod.js";
import { openStore, tempDir } from "./helpers.js";

const OrderKind: DocKind<{ amount: number; note: string }> = { name: "test_order", schema: z.object({ amount: z.int(), note: z.string() }) };
const ORDERS = 1_000;
const filePath = (dir: string) => join(dir, "store", "docs", "test_order.json");
const journalPath = (dir: string) => join(dir, "store", "docs", "test_order.jsonl");
const idOf = (i: number) => `O${String(i).padStart(4, "0")}`;

afterEach(() => {
  vi.restoreAllMocks();
});

async function storeWithOrders(dir: string) {
  const s = await openStore(dir, { clock: new ManualClock(1_000) });
  for (let i = 0; i < ORDERS; i++) {
    await s.createDoc(OrderKind, { id: idOf(i), owner: 1 + (i % 7), state: "awaiting", value: { amount: 20_000 + i, note: "a customer's order, long enough to weigh" } });
  }
  await s.flush();
  return s;
}

it("a flush after one document's move serialises that document, not the kind's other 999", async () => {
  const dir = await tempDir();
  const s = await storeWithOrders(dir);
  const fileSize = (await readFile(filePath(dir))).length;

  const stringify = JSON.stringify;
  let serialised = 0;
  vi.spyOn(JSON, "stringify").mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
    const text = stringify(...args);
    serialised += text?.length ?? 0;
    return text;
  });
  for (let i = 0; i < 20; i++) {
    expect(await s.updateDoc(OrderKind, idOf(i * 37), { states: ["awaiting"] }, { state: "paid" })).toBeDefined();
    await s.flush();
  }
  vi.restoreAllMocks();
  // 20 flushes of a whole file would serialise 20 × fileSize; each moved order is ~1/1000 of it.
  expect(serialised).toBeLessThan(fileSize / 10);

  const moved = Array.from({ length: 20 }, (_, i) => idOf(i * 37));
  // The moves went to the journal, one line each, as flushed; a crash now (no close) keeps them.
  const lines = (await readFile(journalPath(dir), "utf8")).trimEnd().split("\n");
  expect(lines.map((l) => (JSON.parse(l) as { id: string; state: string }).id)).toEqual(moved);
  const crashed = await openStore(dir, { clock: new ManualClock(2_000) });
  expect((await crashed.listDocs(OrderKind, { states: ["paid"] })).map((d) => d.id).sort()).toEqual(moved);
  await crashed.close();
  await s.close();

  // A clean close folds the journal into the file: it alone holds the kind (what migrate-store reads).
  const onDisk = JSON.parse(await readFile(filePath(dir), "utf8")) as { docs: { id: string; state: string; version: number }[] };
  expect(onDisk.docs).toHaveLength(ORDERS);
  expect(onDisk.docs.filter((d) => d.state === "paid").map((d) => d.id)).toEqual(moved);
  expect(await readFile(journalPath(dir), "utf8")).toBe("");
});

it("the file is byte for byte the JSON of the kind's documents, and reopens with every flushed move", async () => {
  const dir = await tempDir();
  const s = await storeWithOrders(dir);
  for (let i = 0; i < ORDERS; i += 3) {
    await s.updateDoc(OrderKind, idOf(i), { version: 1 }, { state: "paid", value: { amount: 1, note: `paid "${i}" ✓` } });
  }
  await s.flush();
  const text = await readFile(filePath(dir), "utf8");
  expect(text).toBe(JSON.stringify({ docs: (JSON.parse(text) as { docs: unknown[] }).docs }));
  await s.close();

  const again = await openStore(dir, { clock: new ManualClock(2_000) });
  const docs = await again.listDocs(OrderKind, { limit: 5_000 });
  expect(docs).toHaveLength(ORDERS);
  const byId = new Map(docs.map((d) => [d.id, d]));
  expect(byId.get(idOf(3))).toMatchObject({ state: "paid", version: 2, value: { amount: 1, note: 'paid "3" ✓' } });
  expect(byId.get(idOf(4))).toMatchObject({ state: "awaiting", version: 1, value: { amount: 20_004 } });
  // A move after reopening rewrites the file from the documents read back.
  await again.updateDoc(OrderKind, idOf(4), { version: 1 }, { state: "paid" });
  await again.close();
  const third = await openStore(dir, { clock: new ManualClock(3_000) });
  expect(await third.getDoc(OrderKind, idOf(4))).toMatchObject({ state: "paid", version: 2 });
  expect(await third.getDoc(OrderKind, idOf(3))).toMatchObject({ state: "paid", version: 2 });
  await third.close();
});

it("a crash in the middle of a rewrite (a torn temp file beside it) leaves the last flushed state readable", async () => {
  const dir = await tempDir();
  const s = await storeWithOrders(dir);
  await s.updateDoc(OrderKind, idOf(5), { version: 1 }, { state: "paid" });
  await s.flush();
  const durable = await readFile(filePath(dir));
  await s.close();
  // What a rewrite cut short leaves: half of the next file in the temp file, the last one in place.
  await writeFile(join(dir, "store", "docs", ".test_order.json.tmp"), durable.subarray(0, durable.length >> 1));

  const again = await openStore(dir, { clock: new ManualClock(2_000) });
  expect(await again.getDoc(OrderKind, idOf(5))).toMatchObject({ state: "paid", version: 2 });
  expect(await again.listDocs(OrderKind, { limit: 5_000 })).toHaveLength(ORDERS);
  await again.updateDoc(OrderKind, idOf(6), { version: 1 }, { state: "paid" });
  await again.close();
  const third = await openStore(dir, { clock: new ManualClock(3_000) });
  expect(await third.getDoc(OrderKind, idOf(6))).toMatchObject({ state: "paid", version: 2 });
  await third.close();
});

it("a journal's torn last line (a crash during an append) is dropped with a warning; the flushed moves before it are kept", async () => {
  const dir = await tempDir();
  const s = await storeWithOrders(dir);
  await s.updateDoc(OrderKind, idOf(1), { version: 1 }, { state: "paid" });
  await s.flush();
  const journal = await readFile(journalPath(dir), "utf8");
  expect(journal.trimEnd().split("\n")).toHaveLength(1);
  // What an append cut short leaves: the start of the next line, no newline. The store never closed.
  await appendFile(journalPath(dir), journal.slice(0, 40).replace('"O0001"', '"O0002"'));

  const warnings: string[] = [];
  const again = await openStore(dir, { clock: new ManualClock(2_000), onWarning: (m) => warnings.push(m) });
  expect(await again.getDoc(OrderKind, idOf(1))).toMatchObject({ state: "paid", version: 2 });
  expect(await again.getDoc(OrderKind, idOf(2))).toMatchObject({ state: "awaiting", version: 1 });
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/test_order\.jsonl.*torn last line/);
  await again.updateDoc(OrderKind, idOf(2), { version: 1 }, { state: "paid" });
  await again.flush();
  const third = await openStore(dir, { clock: new ManualClock(3_000), onWarning: (m) => warnings.push(m) });
  expect(await third.getDoc(OrderKind, idOf(2))).toMatchObject({ state: "paid", version: 2 });
  expect(await third.getDoc(OrderKind, idOf(1))).toMatchObject({ state: "paid", version: 2 });
  expect(warnings).toHaveLength(1);
  await third.close();
  await again.close();
});

it("a crash between a compaction's rename and the journal's emptying reads the same: older journal lines do not undo newer documents", async () => {
  const dir = await tempDir();
  const s = await storeWithOrders(dir);
  await s.updateDoc(OrderKind, idOf(7), { version: 1 }, { state: "paid" });
  await s.flush();
  const journal = await readFile(journalPath(dir), "utf8");
  await s.updateDoc(OrderKind, idOf(7), { version: 2 }, { state: "done" });
  await s.close(); // folds: the file has O0007 done at version 3, the journal is emptied
  await writeFile(journalPath(dir), journal); // as if the crash came before the emptying

  const again = await openStore(dir, { clock: new ManualClock(2_000) });
  expect(await again.getDoc(OrderKind, idOf(7))).toMatchObject({ state: "done", version: 3 });
  await again.close();
});

it("a damaged journal line that is not the last is never rewritten: the kind's calls fail, the files stay", async () => {
  const dir = await tempDir();
  const s = await storeWithOrders(dir);
  await s.updateDoc(OrderKind, idOf(1), { version: 1 }, { state: "paid" });
  await s.flush();
  await s.updateDoc(OrderKind, idOf(2), { version: 1 }, { state: "paid" });
  await s.flush();
  const lines = (await readFile(journalPath(dir), "utf8")).split("\n");
  await writeFile(journalPath(dir), ["{not json", ...lines.slice(1)].join("\n"));
  const before = await readFile(journalPath(dir), "utf8");
  const file = await readFile(filePath(dir), "utf8");
  // `s` never closes: a crash (a close would fold the journal).

  const again = await openStore(dir, { clock: new ManualClock(2_000) });
  await expect(again.getDoc(OrderKind, idOf(1))).rejects.toThrow(/test_order\.jsonl/);
  await expect(again.updateDoc(OrderKind, idOf(3), { version: 1 }, { state: "paid" })).rejects.toThrow(/test_order\.jsonl/);
  await again.close();
  expect(await readFile(journalPath(dir), "utf8")).toBe(before);
  expect(await readFile(filePath(dir), "utf8")).toBe(file);
});
