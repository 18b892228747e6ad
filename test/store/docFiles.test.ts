/**
 * What only the file store's documents and logs do (docFiles.ts): a log's torn last line is cut off
 * with a warning, failed writes make canPersist false and are written whole once the disk works again.
 * What both stores keep is in contract.test.ts.
 */
import { appendFile, mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import type { DocKind } from "../../src/store/api.js";
import { StoreFile } from "../../src/store/file/shards.js";
import { ManualClock } from "../../src/tools/clock.js";
import * as z from "../../src/tools/zod.js";
import { openStore, tempDir } from "./helpers.js";

const AuditKind: DocKind<{ action: string }> = { name: "test_audit", schema: z.object({ action: z.string() }) };
const OrderKind: DocKind<{ amount: number }> = { name: "test_order", schema: z.object({ amount: z.int() }) };

afterEach(() => {
  vi.restoreAllMocks();
});

const logPath = (dir: string) => join(dir, "store", "logs", "test_audit.jsonl");

it("a log's torn last line (a crash during an append) is dropped with a warning; the next append starts a whole line", async () => {
  const dir = await tempDir();
  const clock = new ManualClock(1_000);
  const s = await openStore(dir, { clock });
  await s.appendLog(AuditKind, 1, { action: "a" });
  await s.appendLog(AuditKind, 1, { action: "b" });
  await s.close();
  await appendFile(logPath(dir), '{"seq":3,"owner":1,"at":1000,"entr');

  const warnings: string[] = [];
  const again = await openStore(dir, { clock, onWarning: (m) => warnings.push(m) });
  expect((await again.listLog(AuditKind, 1)).map((e) => e.entry.action)).toEqual(["b", "a"]);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/test_audit\.jsonl.*torn last line/);
  expect(await again.appendLog(AuditKind, 1, { action: "c" })).toMatchObject({ seq: 3 });
  await again.close();

  const lines = (await readFile(logPath(dir), "utf8")).split("\n");
  expect(lines.pop()).toBe("");
  expect(lines.map((l) => (JSON.parse(l) as { entry: { action: string } }).entry.action)).toEqual(["a", "b", "c"]);
  const third = await openStore(dir, { clock, onWarning: (m) => warnings.push(m) });
  expect((await third.listLog(AuditKind, 1)).map((e) => e.seq)).toEqual([3, 2, 1]);
  expect(warnings).toHaveLength(1);
});

it("a log append that fails makes canPersist false and flush reject; once the disk works the entries land whole, once", async () => {
  const dir = await tempDir();
  const s = await openStore(dir, { clock: new ManualClock() });
  await s.appendLog(AuditKind, 1, { action: "a" });
  await s.flush();
  // The file cannot be opened for a while (a directory stands in its place).
  await rename(logPath(dir), `${logPath(dir)}.away`);
  await mkdir(logPath(dir));
  await s.appendLog(AuditKind, 1, { action: "b" });
  await s.appendLog(AuditKind, 2, { action: "c" });
  await expect(s.flush()).rejects.toThrow();
  expect(s.canPersist()).toBe(false);
  expect((await s.listLog(AuditKind, 1)).map((e) => e.entry.action)).toEqual(["b", "a"]);

  await rm(logPath(dir), { recursive: true });
  await rename(`${logPath(dir)}.away`, logPath(dir));
  await s.appendLog(AuditKind, 1, { action: "d" });
  await s.flush();
  expect(s.canPersist()).toBe(true);
  await s.close();
  const actions = (await readFile(logPath(dir), "utf8")).trimEnd().split("\n").map((l) => (JSON.parse(l) as { entry: { action: string } }).entry.action);
  expect(actions).toEqual(["a", "b", "c", "d"]);
});

it("a documents file that fails to write makes canPersist false; the retry writes it and a reopen finds the document", async () => {
  const dir = await tempDir();
  const clock = new ManualClock();
  const s = await openStore(dir, { clock });
  const full = vi.spyOn(StoreFile.prototype, "write").mockRejectedValue(Object.assign(new Error("ENOSPC"), { code: "ENOSPC" }));
  await s.createDoc(OrderKind, { id: "O1", owner: 1, state: "draft", value: { amount: 5 } });
  await expect(s.flush()).rejects.toThrow("ENOSPC");
  expect(s.canPersist()).toBe(false);
  full.mockRestore();
  await s.flush();
  expect(s.canPersist()).toBe(true);
  await s.close();
  const again = await openStore(dir, { clock });
  expect(await again.getDoc(OrderKind, "O1")).toMatchObject({ state: "draft", value: { amount: 5 } });
});

it("a damaged documents file is never rewritten: the kind's calls fail, the file stays as it was", async () => {
  const dir = await tempDir();
  const clock = new ManualClock();
  const s = await openStore(dir, { clock });
  await s.createDoc(OrderKind, { id: "O1", owner: 1, state: "draft", value: { amount: 5 } });
  await s.close();
  const path = join(dir, "store", "docs", "test_order.json");
  await appendFile(path, "garbage");
  const before = await readFile(path, "utf8");
  const again = await openStore(dir, { clock });
  await expect(again.createDoc(OrderKind, { id: "O2", owner: 1, state: "draft", value: { amount: 6 } })).rejects.toThrow(/test_order\.json/);
  await expect(again.updateDoc(OrderKind, "O1", { version: 1 }, { state: "paid" })).rejects.toThrow(/test_order\.json/);
  await again.close();
  expect(await readFile(path, "utf8")).toBe(before);
});

it("documents and logs are the owner's only: 0700 folders, 0600 files", async () => {
  const dir = await tempDir();
  const s = await openStore(dir, { clock: new ManualClock() });
  await s.createDoc(OrderKind, { id: "O1", owner: 1, state: "draft", value: { amount: 5 } });
  await s.appendLog(AuditKind, 1, { action: "a" });
  await s.flush();
  const mode = async (path: string) => (await stat(path)).mode & 0o777;
  expect(await mode(join(dir, "store", "docs"))).toBe(0o700);
  expect(await mode(join(dir, "store", "logs"))).toBe(0o700);
  expect(await mode(join(dir, "store", "docs", "test_order.json"))).toBe(0o600);
  expect(await mode(logPath(dir))).toBe(0o600);
});

it("flushDoc resolves once the document's kind is written; the journal's appends keep one handle", async () => {
  const dir = await tempDir();
  const clock = new ManualClock(); // no timer runs: only what flushDoc itself writes reaches the disk
  const s = await openStore(dir, { clock });
  await s.createDoc(OrderKind, { id: "O1", owner: 1, state: "new", value: { amount: 1 } });
  await s.flush(); // the kind's file made (the first write folds); the next ones append to its journal
  const fh = await open(join(dir, "probe"), "a");
  const proto = Object.getPrototypeOf(fh) as { stat: () => Promise<unknown> };
  await fh.close();
  const opened = vi.spyOn(proto, "stat"); // an append that opens the journal checks its length first
  const before = s.stats().writesByFile;
  for (let i = 2; i <= 4; i++) {
    await s.updateDoc(OrderKind, "O1", { states: ["new"] }, { value: { amount: i } });
    await s.flushDoc(OrderKind, "O1");
  }
  const after = s.stats().writesByFile;
  expect(after["docs/test_order.json"]! - before["docs/test_order.json"]!).toBe(3);
  expect(opened).toHaveBeenCalledTimes(1); // one handle for the three appends (a write and an fsync each)
  const journal = (await readFile(join(dir, "store", "docs", "test_order.jsonl"), "utf8")).trim().split("\n");
  expect(journal.map((l) => (JSON.parse(l) as { value: { amount: number } }).value.amount)).toEqual([2, 3, 4]);
  await s.close();
  const again = await openStore(dir, { clock });
  expect((await again.getDoc(OrderKind, "O1"))?.value.amount).toBe(4);
  await again.close();
});
