import { readdir, readFile, stat, appendFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { Archive, ARCHIVE_AFTER_MS } from "../../src/store/file/archive.js";
import type { FileStore, NewTx } from "../../src/store/file/fileStore.js";
import type { TxRecord } from "../../src/store/index.js";
import { openStore, tempDir } from "./helpers.js";

const DAY = 24 * 60 * 60 * 1000;
// 2025-10-01 12:00 WIB: history spans Oct..Jan, the hot window's boundary falls in between.
const START = Date.UTC(2025, 9, 1, 5, 0, 0);

function sale(refId: string, chatId: number, status: TxRecord["status"] = "success"): NewTx {
  return { refId, chatId, kind: "prepaid", status, amount: 10_000, code: "S10", target: "0812", upstreamId: `UP-${refId}` };
}

/** One sale a day for `days` days in chat 1 (and every 3rd day in chat 2), each final the same day. */
async function history(store: FileStore, clock: ManualClock, days: number): Promise<string[]> {
  const refs: string[] = [];
  for (let d = 0; d < days; d++) {
    const ref = `R${String(d).padStart(3, "0")}`;
    await store.createTx(sale(ref, 1, "pending"));
    await store.updateTx(ref, { status: "success", sn: `SN${d}` });
    refs.push(ref);
    if (d % 3 === 0) await store.createTx(sale(`C2-${d}`, 2));
    await clock.advance(DAY);
  }
  await store.flush();
  return refs;
}

async function hotRefs(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(join(dir, "store"))) {
    if (!name.startsWith("tx-")) continue;
    const data = JSON.parse(await readFile(join(dir, "store", name), "utf8")) as { txs: TxRecord[] };
    out.push(...data.txs.map((t) => t.refId));
  }
  return out.sort();
}

async function archiveLines(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(join(dir, "archive"))) {
    if (!name.endsWith(".jsonl")) continue;
    for (const line of (await readFile(join(dir, "archive", name), "utf8")).split("\n")) {
      if (line) out.push((JSON.parse(line) as TxRecord).refId);
    }
  }
  return out.sort();
}

describe("monthly archive", () => {
  it("moves final records unchanged for the hot window out of memory and the hot files; 0600 files in a 0700 folder", async () => {
    const dir = await tempDir();
    const clock = new ManualClock(START);
    const store = await openStore(dir, { clock, sweepEveryMs: DAY });
    await store.createTx(sale("OPEN", 1, "pending")); // open: never archived, however old
    const refs = await history(store, clock, 100);
    // The daily timer started sweeps while the clock ran; their disk work is real, so one may still be
    // writing its archive: the records leave memory once it is done (on a loaded machine, not yet now).
    await vi.waitFor(() => expect(store.stats().txs).toBeLessThan(100 + 34 + 1), { timeout: 10_000 });
    await store.sweep(); // the one in flight, if any
    await store.sweep();
    const old = refs.filter((_, d) => START + d * DAY < clock.now() - ARCHIVE_AFTER_MS);
    expect(old.length).toBeGreaterThan(40);
    for (const ref of old) expect(await store.getTx(ref)).toBeUndefined();
    expect(await store.getTx(refs.at(-1)!)).toBeDefined();
    expect((await store.getTx("OPEN"))?.status).toBe("pending");
    await store.flush();
    const hot = await hotRefs(dir);
    for (const ref of old) expect(hot).not.toContain(ref);
    expect(hot).toContain("OPEN");
    expect(await archiveLines(dir)).toEqual(expect.arrayContaining(old));

    expect((await stat(join(dir, "archive"))).mode & 0o777).toBe(0o700);
    const files = (await readdir(join(dir, "archive"))).filter((n) => n.endsWith(".jsonl"));
    expect(files).toEqual(expect.arrayContaining(["tx-2025-10.jsonl", "tx-2025-11.jsonl"]));
    for (const name of [...files, "index.json"]) expect((await stat(join(dir, "archive", name))).mode & 0o777).toBe(0o600);
  });

  it("lists history in order across the boundary, finds archived records, reads a month, and survives a restart", async () => {
    const dir = await tempDir();
    const clock = new ManualClock(START);
    const a = await openStore(dir, { clock, sweepEveryMs: DAY });
    const refs = await history(a, clock, 100);
    const expected = [...refs].reverse();
    const check = async (store: FileStore) => {
      expect((await store.listTxByChat(1, { limit: 1000 })).total).toBe(100);
      const pages: string[] = [];
      for (let offset = 0; offset < 100; offset += 7) {
        const page = await store.listTxByChat(1, { offset, limit: 7 });
        expect(page.total).toBe(100);
        pages.push(...page.items.map((t) => t.refId));
      }
      expect(pages).toEqual(expected);
      expect((await store.listTxByChat(1, { offset: 100 })).items).toEqual([]);
      expect(await store.findTx(1, "R003")).toMatchObject({ refId: "R003", status: "success", sn: "SN3" });
      expect((await store.findTx(1, "UP-R004"))?.refId).toBe("R004");
      expect(await store.findTx(2, "R003")).toBeUndefined(); // another chat's record
      expect((await store.listTxByChat(2, { limit: 100 })).items.map((t) => t.refId)).toEqual(
        refs.map((_, d) => d).filter((d) => d % 3 === 0).reverse().map((d) => `C2-${d}`),
      );
      // October 2025 WIB: days 0..30 of the history.
      expect((await store.txsOfMonth(1, "2025-10")).map((t) => t.refId)).toEqual(refs.slice(0, 31));
      expect(Object.isFrozen(await store.findTx(1, "R003"))).toBe(true);
    };
    await check(a);
    await a.close();
    const b = await openStore(dir, { clock });
    expect(b.stats().txs).toBeLessThan(100);
    await check(b);
  });

  it("history read while a sweep moves several months to the archive counts every record once", async () => {
    const dir = await tempDir();
    const clock = new ManualClock(START);
    const store = await openStore(dir, { clock, sweepEveryMs: 1000 * DAY });
    await history(store, clock, 100); // Oct..Jan: the sweep appends two months or more
    let done = false;
    const sweeping = store.sweep().then(() => (done = true));
    const totals = new Set<number>();
    while (!done) {
      totals.add((await store.listTxByChat(1, { limit: 1 })).total);
      await new Promise((r) => setImmediate(r));
    }
    await sweeping;
    totals.add((await store.listTxByChat(1, { limit: 1 })).total);
    expect([...totals]).toEqual([100]);
    await store.close();
  });

  it("a crash between the archive append and the shard write loses nothing and duplicates nothing", async () => {
    const dir = await tempDir();
    const clock = new ManualClock(START);
    const a = await openStore(dir, { clock, sweepEveryMs: 1000 * DAY });
    const refs = await history(a, clock, 60);
    const old = await Promise.all(refs.slice(0, 10).map(async (r) => (await a.getTx(r))!));
    await a.close();
    // What a sweep leaves when the process dies after the fsynced append: lines in the archive, not
    // in the index, and the records still in the hot shards; plus a torn line of a later append.
    const { archive } = await Archive.open(join(dir, "archive"));
    await archive.append(old);
    await appendFile(archive.file("2025-10"), '{"refId":"TORN","chatId":1,"ki');
    expect((await hotRefs(dir)).filter((r) => refs.slice(0, 10).includes(r))).toHaveLength(10);

    const b = await openStore(dir, { clock, sweepEveryMs: 1000 * DAY });
    const all = await b.listTxByChat(1, { limit: 1000 });
    expect(all.total).toBe(60);
    expect(all.items.map((t) => t.refId)).toEqual([...refs].reverse());
    for (const ref of refs.slice(0, 10)) expect(await b.getTx(ref)).toBeUndefined();
    await b.flush();
    const lines = await archiveLines(dir);
    expect(new Set(lines).size).toBe(lines.length); // each record archived once
    expect(lines).not.toContain("TORN");
    expect(await hotRefs(dir)).not.toContain("R000");
    await b.close();

    const c = await openStore(dir, { clock });
    expect((await c.listTxByChat(1, { limit: 1000 })).items.map((t) => t.refId)).toEqual([...refs].reverse());
  });
});

describe("history pages of archived months", () => {
  it("a page reads only the records it shows: a damaged record elsewhere in the chat's month does not stop it", async () => {
    const dir = await tempDir();
    const clock = new ManualClock(START);
    // No sweep while the month is written: one sweep at the next open archives it in one segment.
    const a = await openStore(dir, { clock, sweepEveryMs: 1000 * DAY });
    const refs: string[] = [];
    for (let i = 0; i < 200; i++) {
      const ref = `P${String(i).padStart(3, "0")}`;
      await a.createTx(sale(ref, 1));
      refs.push(ref);
      if (i % 10 === 0) await a.createTx(sale(`Q${i}`, 2));
      await clock.advance(DAY / 10); // 200 sales over 20 days of October
    }
    await a.close();
    await clock.advance(ARCHIVE_AFTER_MS + DAY);
    const b = await openStore(dir, { clock });
    expect(b.stats().txs).toBe(0);
    await b.close();
    // The oldest sale's line is damaged in place (same length): only a page showing it may fail.
    const file = join(dir, "archive", "tx-2025-10.jsonl");
    const text = await readFile(file, "utf8");
    const line = text.split("\n").find((l) => l.includes('"P000"'))!;
    await writeFile(file, text.replace(line, "x".repeat(line.length)));
    const c = await openStore(dir, { clock });
    const newestFirst = [...refs].reverse();
    const first = await c.listTxByChat(1, { limit: 10 });
    expect(first.total).toBe(200);
    expect(first.items.map((t) => t.refId)).toEqual(newestFirst.slice(0, 10));
    const deep = await c.listTxByChat(1, { offset: 150, limit: 10 });
    expect(deep.items.map((t) => t.refId)).toEqual(newestFirst.slice(150, 160));
    expect((await c.listTxByChat(2, { offset: 5, limit: 3 })).items.map((t) => t.refId)).toEqual(["Q140", "Q130", "Q120"]);
    await expect(c.listTxByChat(1, { offset: 195, limit: 10 })).rejects.toThrow(/tx-2025-10/);
    await c.close();
  });
});
