import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { FileStore, StoreCorruptError, TX_FLUSH_DELAY_MS } from "../../src/store/file/fileStore.js";
import { openStore, SECRET, tempDir } from "./helpers.js";

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, "utf8")) as unknown;
}

async function waitFor(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
}

describe("coalesced writes", () => {
  it("turns a burst of changes into one write per dirty shard, after the delay", async () => {
    const clock = new ManualClock();
    const store = await openStore(await tempDir(), { clock, flushDelayMs: 50, chatShards: 4, txShards: 4 });
    const before = store.stats().writes;
    for (let i = 0; i < 200; i++) await store.updateChat(i, { lang: i % 2 ? "id" : "en" });
    for (let i = 0; i < 100; i++) await store.createTx({ refId: `R${i}`, chatId: i, kind: "prepaid", status: "draft", amount: 1 });
    await store.setMeta("a", 1);
    await store.setMeta("a", 2);
    await clock.advance(49);
    expect(store.stats().writes).toBe(before);
    expect(store.stats().dirty).toBe(9);
    await clock.advance(1); // the timer starts the flush
    await store.flush(); // waits for it to reach the disk
    const s = store.stats();
    expect(s.writes - before).toBe(9); // 4 chat shards + 4 tx shards + meta.json
    expect(Object.values(s.writesByFile).every((n) => n <= 2)).toBe(true);
    expect(s.writesByFile["chats-00.json"]).toBe(1);
    expect(s.dirty).toBe(0);
  });

  it("a tx shard is rewritten by the timer after its own longer delay; the journal has what must be saved at once", async () => {
    const clock = new ManualClock();
    const dir = await tempDir();
    const store = await openStore(dir, { clock, flushDelayMs: 50, chatShards: 1, txShards: 1 });
    await store.flush();
    const writes = (file: string) => store.stats().writesByFile[file] ?? 0;
    const before = { tx: writes("tx-00.json"), chats: writes("chats-00.json") };
    await store.createTx({ refId: "R1", chatId: 1, kind: "prepaid", status: "draft", amount: 1 });
    await store.updateChat(1, { lang: "en" });
    await clock.advance(50);
    await waitFor(() => writes("chats-00.json") === before.chats + 1);
    expect(writes("tx-00.json")).toBe(before.tx);
    await store.flushTx("R1"); // saved now, in the journal, without waiting for the shard
    expect(writes("tx-00.json")).toBe(before.tx);
    await clock.advance(TX_FLUSH_DELAY_MS - 50);
    await waitFor(() => writes("tx-00.json") === before.tx + 1);
    const file = (await readJson(join(dir, "store", "tx-00.json"))) as { txs: { refId: string }[] };
    expect(file.txs.map((t) => t.refId)).toEqual(["R1"]);
    await store.close();
  });

  it("a shard's write after one change serialises that record only, and the file reads back the same", async () => {
    const dir = await tempDir();
    const store = await openStore(dir, { txShards: 1 });
    for (let i = 0; i < 50; i++) await store.createTx({ refId: `R${i}`, chatId: i, kind: "prepaid", status: "pending", amount: 1 });
    await store.flush();
    await waitFor(() => !store.stats().flushing); // the pass that wrote them has ended
    const unchanged = (await store.getTx("R7"))!;
    const serialised: unknown[] = [];
    const stringify = JSON.stringify;
    JSON.stringify = ((value: unknown, ...rest: never[]) => (serialised.push(value), stringify(value, ...rest))) as typeof JSON.stringify;
    try {
      await store.updateTx("R3", { watch: { nextCheckAt: 5, attempts: 1 } });
      await store.flush();
    } finally {
      JSON.stringify = stringify;
    }
    // Neither the shard as a whole nor an unchanged record is serialised again (a 10,000-sale store rewrote ~150 per change).
    expect(serialised.some((v) => v === unchanged || (typeof v === "object" && v !== null && "txs" in v))).toBe(false);
    expect(serialised).toContainEqual(expect.objectContaining({ refId: "R3" }));
    const file = (await readJson(join(dir, "store", "tx-00.json"))) as { txs: { refId: string; watch?: unknown }[] };
    expect(file.txs).toHaveLength(50);
    expect(file.txs.find((t) => t.refId === "R3")!.watch).toEqual({ nextCheckAt: 5, attempts: 1 });
    expect(file.txs.find((t) => t.refId === "R7")).toEqual(JSON.parse(stringify(unchanged)));
    await store.close();
  });

  it("a flow step rewrites only its chat's flow shard, never meta.json", async () => {
    const store = await openStore(await tempDir(), { chatShards: 4 });
    await store.flush();
    const before = store.stats().writesByFile;
    expect(await store.setFlow(1, { buy: [{ step: 1 }] }, 0)).toBe(true);
    expect(await store.setFlow(1, { buy: [{ step: 2 }] }, 1)).toBe(true);
    await store.flush();
    const after = store.stats().writesByFile;
    expect(after["meta.json"] ?? 0).toBe(before["meta.json"] ?? 0);
    const written = Object.keys(after).filter((f) => (after[f] ?? 0) !== (before[f] ?? 0));
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^flows-0\d\.json$/);
    expect(await readJson(join(store.path, written[0]!))).toEqual({ flows: [{ chatId: 1, version: 2, state: { buy: [{ step: 2 }] } }] });
  });

  it("rewrites only the shard that changed", async () => {
    const store = await openStore(await tempDir());
    await store.updateChat(1, {});
    await store.updateChat(2, {});
    await store.flush();
    const before = store.stats().writesByFile;
    await store.updateChat(1, { lang: "en" });
    await store.flush();
    const after = store.stats().writesByFile;
    const changed = Object.keys(after).filter((f) => after[f] !== before[f]);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatch(/^chats-\d\d\.json$/);
  });

  it("flush resolves once the data is on disk", async () => {
    const dir = await tempDir();
    const store = await openStore(dir, { txShards: 1 });
    await store.createTx({ refId: "REF-1", chatId: 9, kind: "transfer", status: "sending", amount: 50_000 });
    await store.flush();
    const onDisk = (await readJson(join(dir, "store", "tx-00.json"))) as { txs: { refId: string; status: string }[] };
    expect(onDisk.txs).toEqual([expect.objectContaining({ refId: "REF-1", status: "sending" })]);
  });

  it("a change during a flush is written after it, and a second flush waits for both", async () => {
    const dir = await tempDir();
    const store = await openStore(dir, { chatShards: 1 });
    const base = store.stats().writesByFile["chats-00.json"] ?? 0;
    await store.updateChat(1, { lang: "en" });
    const first = store.flush(); // serialises the shard now, with chat 1 only
    await store.updateChat(2, { lang: "id" }); // lands while that write is in flight
    const second = store.flush();
    await first;
    await second;
    expect(store.stats().dirty).toBe(0);
    expect(store.stats().writesByFile["chats-00.json"]).toBe(base + 2);
    const onDisk = (await readJson(join(dir, "store", "chats-00.json"))) as { chats: { chatId: number }[] };
    expect(onDisk.chats.map((c) => c.chatId).sort()).toEqual([1, 2]);
  });

  it("flush with nothing pending resolves at once; while a write is in flight it waits for it", async () => {
    const dir = await tempDir();
    const store = await openStore(dir, { txShards: 1 });
    await store.flush();
    await store.createTx({ refId: "R1", chatId: 1, kind: "deposit", status: "pending", amount: 5 });
    void store.flush();
    await store.flush(); // nothing new, but the write of R1 is not done yet
    const onDisk = (await readJson(join(dir, "store", "tx-00.json"))) as { txs: { refId: string }[] };
    expect(onDisk.txs.map((t) => t.refId)).toEqual(["R1"]);
  });

  it("real timers: the default delay writes without an explicit flush", async () => {
    const dir = await tempDir();
    const store = await FileStore.open({ dir, secret: SECRET, flushDelayMs: 5, chatShards: 1 });
    await store.updateChat(3, { lang: "en" });
    await waitFor(() => store.stats().writesByFile["chats-00.json"] !== undefined);
    expect(store.stats().writesByFile["chats-00.json"]).toBe(1);
    await store.close();
  });

  it("a failed write keeps the data dirty: flush rejects, onError hears background failures, a retry succeeds", async () => {
    const dir = await tempDir();
    const clock = new ManualClock();
    const errors: unknown[] = [];
    const store = await openStore(dir, { clock, chatShards: 1, onError: (e) => errors.push(e) });
    const blocker = join(dir, "store", ".chats-00.json.tmp");
    await mkdir(blocker); // steno's temp file cannot be created
    await store.updateChat(1, { lang: "en" });
    await expect(store.flush()).rejects.toThrow();
    expect(store.stats().dirty).toBe(1);
    expect(store.stats().lastError).toBeDefined();

    await clock.advance(1000); // background retry, still failing
    await waitFor(() => errors.length > 0);
    expect(errors.length).toBeGreaterThan(0);

    await rm(blocker, { recursive: true });
    await store.flush();
    expect(store.stats().dirty).toBe(0);
    const onDisk = (await readJson(join(dir, "store", "chats-00.json"))) as { chats: { chatId: number }[] };
    expect(onDisk.chats.map((c) => c.chatId)).toEqual([1]);
  });

  it("close writes what is pending", async () => {
    const dir = await tempDir();
    const a = await openStore(dir);
    await a.updateChat(11, { lang: "en" });
    await a.close();
    const b = await openStore(dir);
    expect((await b.getChat(11))?.lang).toBe("en");
  });

  it("pinned shard counts are reused on reopen", async () => {
    const dir = await tempDir();
    const a = await openStore(dir, { chatShards: 3 });
    for (let i = 0; i < 30; i++) await a.updateChat(i, {});
    await a.close();
    const b = await openStore(dir, { chatShards: 64 });
    expect(await b.chatCount()).toBe(30);
    expect((await readJson(join(dir, "store", "meta.json"))) as object).toMatchObject({ chatShards: 3, schema: 1 });
  });
});

describe("refusing unusable files", () => {
  async function populated(): Promise<string> {
    const dir = await tempDir();
    const store = await openStore(dir, { chatShards: 1, txShards: 1 });
    await store.updateChat(1, { lang: "en" });
    await store.createTx({ refId: "R1", chatId: 1, kind: "prepaid", status: "draft", amount: 1 });
    await store.close();
    return dir;
  }

  async function expectRefused(dir: string, file: string, message: RegExp): Promise<void> {
    const path = join(dir, "store", file);
    const bytes = await readFile(path);
    const err: unknown = await FileStore.open({ dir, secret: SECRET, clock: new ManualClock() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect((err as StoreCorruptError).file).toBe(path);
    expect((err as Error).message).toContain(path);
    expect((err as Error).message).toMatch(message);
    expect((await readFile(path)).equals(bytes)).toBe(true);
  }

  it("invalid JSON in a shard", async () => {
    const dir = await populated();
    await writeFile(join(dir, "store", "chats-00.json"), '{"chats": [ {"chatId": 1,');
    await expectRefused(dir, "chats-00.json", /invalid JSON/);
  });

  it("a shard of the wrong shape", async () => {
    const dir = await populated();
    await writeFile(join(dir, "store", "tx-00.json"), JSON.stringify({ txs: [{ refId: "R1", chatId: 1, kind: "prepaid", status: "weird" }] }));
    await expectRefused(dir, "tx-00.json", /txs\[0\].*status/);
    await writeFile(join(dir, "store", "tx-00.json"), "[]");
    await expectRefused(dir, "tx-00.json", /expected/);
  });

  it("a folder where a shard should be", async () => {
    const dir = await populated();
    await rm(join(dir, "store", "chats-00.json"));
    await mkdir(join(dir, "store", "chats-00.json"));
    const err: unknown = await FileStore.open({ dir, secret: SECRET, clock: new ManualClock() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect((err as Error).message).toMatch(/chats-00\.json.*unreadable/);
  });

  it("an empty file", async () => {
    const dir = await populated();
    await writeFile(join(dir, "store", "chats-00.json"), "");
    await expectRefused(dir, "chats-00.json", /invalid JSON/);
  });

  it("a newer schema version", async () => {
    const dir = await populated();
    const metaPath = join(dir, "store", "meta.json");
    const meta = (await readJson(metaPath)) as Record<string, unknown>;
    await writeFile(metaPath, JSON.stringify({ ...meta, schema: 99 }));
    await expectRefused(dir, "meta.json", /schema version 99.*newer/);
  });

  it("corrupt meta.json", async () => {
    const dir = await populated();
    await writeFile(join(dir, "store", "meta.json"), "not json");
    await expectRefused(dir, "meta.json", /invalid JSON/);
  });

  it("data files without meta.json", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "store"));
    await writeFile(join(dir, "store", "chats-00.json"), '{"chats":[]}');
    const err: unknown = await FileStore.open({ dir, secret: SECRET }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect((err as Error).message).toMatch(/meta\.json.*missing/);
  });

  it("a record in the wrong shard", async () => {
    const dir = await tempDir();
    const a = await openStore(dir, { chatShards: 2 });
    await a.updateChat(1, {});
    await a.updateChat(2, {});
    await a.updateChat(3, {});
    await a.close();
    const f0 = join(dir, "store", "chats-00.json");
    const f1 = join(dir, "store", "chats-01.json");
    const s0 = (await readJson(f0)) as { chats: unknown[] };
    const s1 = (await readJson(f1)) as { chats: unknown[] };
    await writeFile(f0, JSON.stringify({ chats: [...s0.chats, ...s1.chats] }));
    await expectRefused(dir, "chats-00.json", /wrong shard/);
  });
});
