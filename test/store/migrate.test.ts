/** npm run migrate-store: a file store (hot and archived transactions, keys, meta) copied into PostgreSQL. */
import { execFile } from "node:child_process";
import { appendFile, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { copyFileStore } from "../../src/store/pg/fromFiles.js";
import { PgStore } from "../../src/store/pg/pgStore.js";
import { FileStore } from "../../src/store/file/fileStore.js";
import type { ChatRecord, TxRecord, WalletEntry } from "../../src/store/index.js";
import type { Doc, DocKind, LogEntry, SavedFlow, WalletBalance } from "../../src/store/api.js";
import * as z from "../../src/tools/zod.js";
import { freshDatabase, hasPg } from "../support/pg.js";
import { SECRET, tempDir } from "./helpers.js";

const RAW_KEY = "RAWKEY-a1b2c3d4e5f6g7h8i9j0-SECRETPART";
const DAY = 24 * 60 * 60 * 1000;
const run = promisify(execFile);

const closing: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((s) => s.close().catch(() => undefined)));
});

interface Expected {
  chats: ChatRecord[];
  txs: TxRecord[];
  meta: Record<string, unknown>;
  flow: SavedFlow;
  docs: Doc<Order>[];
  log: LogEntry<{ action: string }>[];
  wallet: WalletBalance;
  entries: WalletEntry[];
}

const OrderSchema = z.object({ amount: z.int(), note: z.optional(z.string()) });
type Order = z.infer<typeof OrderSchema>;
const OrderKind: DocKind<Order> = { name: "test_order", schema: OrderSchema };
const AuditKind: DocKind<{ action: string }> = { name: "test_audit", schema: z.object({ action: z.string() }) };

/** A file store with two chats (one linked), archived and hot transactions, and meta; returns what it holds. */
async function fileStore(dir: string): Promise<Expected> {
  const clock = new ManualClock(Date.UTC(2025, 9, 1));
  const a = await FileStore.open({ dir, secret: SECRET, clock });
  await a.setApiKey(1, RAW_KEY);
  await a.updateChat(1, { lang: "en", callbackToken: "tok-1", customers: [{ id: "c1", name: "Ibu", kind: "phone", target: "0812", createdAt: 5 }] });
  await a.updateChat(-100123, { lang: "id", inactive: true });
  for (let i = 0; i < 30; i++) {
    await a.createTx({ refId: `OLD${i}`, chatId: i % 2 ? 1 : -100123, kind: "prepaid", status: "success", amount: 1000 + i, upstreamId: `U${i}` });
    await clock.advance(DAY);
  }
  await a.setMeta("broadcast", { id: "b1", sent: 3, text: "Promo\u0000" });
  await a.setMeta("conv:1", { step: "amount", at: [1, 2] });
  await a.close();
  // Weeks later: opening sweeps the October records into the archive; new ones stay hot.
  await clock.advance(40 * DAY);
  const b = await FileStore.open({ dir, secret: SECRET, clock });
  await b.createTx({ refId: "NEW1", chatId: 1, kind: "postpaid", status: "pending", amount: 52_500, detail: { customerName: "BUDI" } });
  await b.createTx({ refId: "NEW2", chatId: 1, kind: "deposit", status: "draft", amount: 50_000, message: "Gagal\u0000 🙂" });
  await b.createDoc(OrderKind, { id: "O1", owner: 1, state: "draft", value: { amount: 5, note: "z\u0000é" } });
  await b.createDoc(OrderKind, { id: "O2", owner: -100123, state: "draft", value: { amount: 6 } });
  await b.updateDoc(OrderKind, "O2", { version: 1 }, { state: "paid" });
  for (const action of ["a", "b", "c"]) await b.appendLog(AuditKind, 1, { action });
  await b.appendLog(AuditKind, -100123, { action: "d" });
  // A downline's wallet (docs/wallets.md): two entries, and a purchase holding part of it.
  await b.postEntries([{ ref: "W1", wallet: 501, owner: 1, amount: 20_000, kind: "adjust", reason: "tunai", by: 1 }]);
  await b.postEntries([{ ref: "W2", wallet: 501, owner: 1, amount: -1_000, kind: "adjust", reason: "koreksi", by: 1 }]);
  await b.createTx({ refId: "NEW3", chatId: 1, by: 501, kind: "prepaid", status: "sending", amount: 2_500, wallet: { chat: 501, price: 3_000, state: "held" } });
  await b.flush();
  const expected: Expected = {
    chats: [...(await b.allChats())],
    txs: (await Promise.all([1, -100123].map(async (c) => (await b.listTxByChat(c, { limit: 100 })).items))).flat(),
    meta: { broadcast: await b.getMeta("broadcast") },
    flow: await b.getFlow(1),
    docs: await b.listDocs(OrderKind, {}),
    log: await b.listLog(AuditKind, 1),
    wallet: await b.wallet(501),
    entries: await b.walletEntries(501),
  };
  await b.close();
  expect(await readdir(join(dir, "archive"))).toContain("tx-2025-10.jsonl");
  expect(expected.txs).toHaveLength(33);
  return expected;
}

describe.skipIf(!hasPg)("migrate-store", () => {
  it("copies chats, keys (still encrypted), archived and hot transactions and meta; twice gives the same", async () => {
    const dir = await tempDir();
    const expected = await fileStore(dir);
    // A sweep torn by a crash leaves half a line at the end of a month: it is not a record.
    await appendFile(join(dir, "archive", "tx-2025-10.jsonl"), '{"refId":"TORN","chatId":1,"kin');
    const url = await freshDatabase();

    const first = await copyFileStore({ from: dir, to: url, secret: SECRET, batch: 7 });
    const counts = { chats: 2, txs: 33, meta: 1, flows: 1, docs: 2, logs: 4, walletEntries: 2 };
    expect(first).toEqual({ files: counts, database: counts, ok: true });
    const second = await copyFileStore({ from: dir, to: url, secret: SECRET, batch: 7 });
    expect(second).toEqual(first);
    const sql = postgres(url, { max: 1 });
    closing.push({ close: () => sql.end() });
    const [v] = await sql<{ n: number }[]>`SELECT (SELECT coalesce(max(version), 0) FROM txs) + (SELECT coalesce(max(version), 0) FROM chats) AS n`;
    expect(Number(v!.n)).toBe(0); // the second run changed nothing
    const raw = await sql<{ t: string }[]>`SELECT data::text AS t FROM chats`;
    expect(raw.map((r) => r.t).join()).not.toContain(RAW_KEY);

    const pg = await PgStore.open({ url, secret: SECRET, clock: new ManualClock() });
    closing.push(pg);
    expect(pg.secretMatches()).toBe(true);
    expect(await pg.getApiKey(1)).toBe(RAW_KEY);
    expect(await pg.allChats()).toEqual([...expected.chats].sort((x, y) => x.chatId - y.chatId));
    const txs = [...(await pg.listTxByChat(1, { limit: 100 })).items, ...(await pg.listTxByChat(-100123, { limit: 100 })).items];
    expect(txs).toEqual(expected.txs);
    expect(JSON.stringify(txs)).toBe(JSON.stringify(expected.txs)); // as written, key order included
    expect(await pg.getTx("TORN")).toBeUndefined();
    expect(await pg.getMeta("broadcast")).toEqual(expected.meta.broadcast);
    // The flow an older version kept in meta moved to the flow storage when the file store opened.
    expect(expected.flow).toEqual({ state: { step: "amount", at: [1, 2] }, version: 1 });
    expect(await pg.getFlow(1)).toEqual(expected.flow);
    expect((await pg.openTxs()).map((t) => t.refId).sort()).toEqual(["NEW1", "NEW3"]);
    expect((await pg.linkedChats()).map((c) => c.chatId)).toEqual([1]);
    expect((await pg.chatByCallbackToken("tok-1"))?.chatId).toBe(1);
    expect((await pg.findTx(1, "U1"))?.refId).toBe("OLD1");
    // Documents and logs as the files held them, versions and seqs included: the bot goes on from there.
    expect(await pg.listDocs(OrderKind, {})).toEqual(expected.docs);
    expect(JSON.stringify(await pg.getDoc(OrderKind, "O1"))).toBe(JSON.stringify(expected.docs[0]));
    expect(await pg.listLog(AuditKind, 1)).toEqual(expected.log);
    expect(await pg.appendLog(AuditKind, 1, { action: "next" })).toMatchObject({ seq: 4 });
    expect(await pg.updateDoc(OrderKind, "O2", { version: 2, states: ["paid"] }, { state: "done" })).toMatchObject({ version: 3 });
    // The wallet as the files held it: balance, what is held, entries with their seqs; the next entry goes on.
    expect(expected.wallet).toEqual({ chat: 501, owner: 1, balance: 19_000, held: 3_000 });
    expect(await pg.wallet(501)).toEqual(expected.wallet);
    expect(await pg.walletEntries(501)).toEqual(expected.entries);
    expect((await pg.postEntries([{ ref: "W3", wallet: 501, owner: 1, amount: 500, kind: "adjust" }])).posted[0]).toMatchObject({ seq: 3, balance: 19_500 });
    expect((await pg.unsettledTxs()).map((t) => t.refId)).toEqual(["NEW3"]);
  });

  it("a document kind's journal left by a crash is replayed over its file: the newer version of each document is copied, a torn last line is not", async () => {
    const dir = await tempDir();
    await fileStore(dir);
    const file = join(dir, "store", "docs", "test_order.json");
    const held = (JSON.parse(await readFile(file, "utf8")) as { docs: { id: string; version: number; state: string; updatedAt: number }[] }).docs;
    const o1 = held.find((d) => d.id === "O1")!;
    const o2 = held.find((d) => d.id === "O2")!;
    // What the bot appended after its last fold, then a crash: O1 moved twice, an older O2 line, a torn line.
    const lines = [
      { ...o1, version: o1.version + 1, state: "paid", updatedAt: o1.updatedAt + 1 },
      { ...o1, version: o1.version + 2, state: "done", updatedAt: o1.updatedAt + 2 },
      { ...o2, version: o2.version - 1, state: "draft" },
    ];
    await writeFile(join(dir, "store", "docs", "test_order.jsonl"), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n{"id":"O3","ow`);
    const url = await freshDatabase();
    const copied = await copyFileStore({ from: dir, to: url, secret: SECRET });
    expect(copied).toMatchObject({ ok: true, files: { docs: 2 } });
    const pg = await PgStore.open({ url, secret: SECRET, clock: new ManualClock() });
    closing.push(pg);
    expect(await pg.getDoc(OrderKind, "O1")).toMatchObject({ state: "done", version: o1.version + 2 });
    expect(await pg.getDoc(OrderKind, "O2")).toMatchObject({ state: o2.state, version: o2.version });
    expect(await pg.getDoc(OrderKind, "O3")).toBeUndefined();
  });

  it("the transactions' journal left by a crash is replayed over the shards: lines newer than their shard are copied, older ones and a torn line are not", async () => {
    const dir = await tempDir();
    const store = await FileStore.open({ dir, secret: SECRET, clock: new ManualClock(), txShards: 1 });
    await store.createTx({ refId: "J1", chatId: 1, kind: "prepaid", status: "pending", amount: 1 });
    await store.createTx({ refId: "J2", chatId: 1, kind: "prepaid", status: "pending", amount: 1 });
    await store.updateTx("J2", { status: "processing" });
    await store.flushTx("J2"); // a line older than the shard written next
    await store.updateTx("J2", { status: "success" });
    await store.flush();
    while (store.stats().flushing) await new Promise((resolve) => setImmediate(resolve)); // that pass is over
    await store.updateTx("J1", { status: "failed" });
    await store.flushTx("J1"); // newer than the shard: only the journal has it
    await appendFile(join(dir, "store", "tx.jsonl"), '{"seq":99,"tx":{"refId":"J3"');
    // The process dies here (no close): the folder is copied as it is.
    const url = await freshDatabase();
    const copied = await copyFileStore({ from: dir, to: url, secret: SECRET });
    expect(copied).toMatchObject({ ok: true, files: { txs: 2 } });
    const pg = await PgStore.open({ url, secret: SECRET, clock: new ManualClock() });
    closing.push(pg, store);
    expect((await pg.getTx("J1"))!.status).toBe("failed");
    expect((await pg.getTx("J2"))!.status).toBe("success");
  });

  it("refuses a secret that is not the file store's", async () => {
    const dir = await tempDir();
    await fileStore(dir);
    await expect(copyFileStore({ from: dir, to: await freshDatabase(), secret: "another-secret-0123456789" })).rejects.toThrow(
      /not the one the file store/,
    );
  });

  it("npm run migrate-store prints both counts and exits non-zero when they differ", { timeout: 60_000 }, async () => {
    const dir = await tempDir();
    await fileStore(dir);
    const url = await freshDatabase();
    const cli = (env: Record<string, string> = {}) =>
      run(join("node_modules", ".bin", "tsx"), ["scripts/migrate-store.ts", "--from", dir, "--to", url], {
        env: { ...process.env, STORE_SECRET: SECRET, ...env },
      }).then(
        (r) => ({ code: 0, out: r.stdout }),
        (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
      );
    const ok = await cli();
    expect(ok.out).toMatch(/txs\s+33\s+33/);
    expect(ok.out).toContain("Counts match.");
    expect(ok.code).toBe(0);
    // A record only the database has: the counts differ, and the run says so.
    const pg = await PgStore.open({ url, secret: SECRET, clock: new ManualClock() });
    await pg.createTx({ refId: "ONLYDB", chatId: 1, kind: "prepaid", status: "draft", amount: 1 });
    await pg.close();
    const differ = await cli();
    expect(differ.out).toContain("Counts DIFFER");
    expect(differ.code).toBe(1);
  });
});

describe.skipIf(!hasPg)("migrate-store run again after the bot ran on PostgreSQL", () => {
  it("keeps the database's state: a broadcast the bot finished there is not rolled back to running", async () => {
    const dir = await tempDir();
    const f = await FileStore.open({ dir, secret: SECRET });
    // The operator stopped the file-store bot mid-broadcast to migrate.
    await f.setMeta("broadcast", { id: "b1", status: "running", doneThrough: 10, sent: 3 });
    await f.close();
    const url = await freshDatabase();
    await copyFileStore({ from: dir, to: url, secret: SECRET });
    // The bot on PostgreSQL resumed and finished it.
    const pg = await PgStore.open({ url, secret: SECRET });
    await pg.setMeta("broadcast", { id: "b1", status: "done", doneThrough: 999, sent: 500 });
    const again = await copyFileStore({ from: dir, to: url, secret: SECRET });
    expect(again.ok).toBe(true);
    expect((await pg.getMeta<{ status: string }>("broadcast"))!.status).toBe("done");
    await pg.close();
  });
});
