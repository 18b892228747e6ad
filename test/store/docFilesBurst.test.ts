/**
 * A kind's file with many documents, changed one at a time and flushed after each (a shop's orders
 * moving, each move durable before its provider call): a flush serialises what changed, not every
 * document again; the file stays the one JSON document other readers (migrate-store) expect; a crash
 * in the middle of a rewrite leaves the last flushed state.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import type { DocKind } from "../../src/store/api.js";
import { ManualClock } from "../../src/tools/clock.js";
import * as z from "../../src/tools/zod.js";
import { openStore, tempDir } from "./helpers.js";

const OrderKind: DocKind<{ amount: number; note: string }> = { name: "test_order", schema: z.object({ amount: z.int(), note: z.string() }) };
const ORDERS = 1_000;
const filePath = (dir: string) => join(dir, "store", "docs", "test_order.json");
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

  const onDisk = JSON.parse(await readFile(filePath(dir), "utf8")) as { docs: { id: string; state: string; version: number }[] };
  expect(onDisk.docs).toHaveLength(ORDERS);
  expect(onDisk.docs.filter((d) => d.state === "paid").map((d) => d.id)).toEqual(Array.from({ length: 20 }, (_, i) => idOf(i * 37)));
  await s.close();
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
