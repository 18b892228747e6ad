/**
 * Store: N linked chats and M pending ids -> time to persist one change (p50/p99), the longest
 * event-loop stall during a burst of 1,000 changes, data size and memory. Run once with the real
 * sharded layout and once with everything in one file per kind (the "before" of the split), then
 * the same scenario on PgStore (bench/pg.ts: default durability) when PostgreSQL is there.
 */
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import type { Store } from "../src/store/api.js";
import { PgStore } from "../src/store/pg/pgStore.js";
import { FileStore } from "../src/store/file/fileStore.js";
import { FULL, mb, ms, report, summarize, withLoopMonitor, type BenchRow } from "./lib.js";
import { NO_PG_NOTE, openBenchPg } from "./pg.js";

const CHATS = FULL ? 100_000 : 20_000;
const PENDING = FULL ? 10_000 : 2_000;
const BURST = 1_000;
const SINGLE_CHANGES = FULL ? 200 : 100;

async function dirSize(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? await dirSize(p) : (await stat(p)).size;
  }
  return total;
}

const SECRET = "bench-secret-0123456789";
const refOf = (i: number) => `TP2611${i.toString(36).padStart(8, "0").toUpperCase()}`;

/** `each(i)` for i < n, `width` at a time (1: one after another, as the file store's setup always ran). */
async function each(n: number, width: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) await fn(next++);
  }));
}

interface Target {
  label: string;
  /** `first`: the open that creates the store (the reopen measures start-up). */
  open(first: boolean): Promise<Store>;
  size(): Promise<number>;
  /** Setup writes in flight (PostgreSQL: 100k chats one commit at a time would take minutes). */
  setupWidth: number;
  openLabel: string;
  /** A database: its size when empty (catalog, migrations) is shown beside. */
  database: boolean;
}

async function run(t: Target): Promise<BenchRow[]> {
  const { label } = t;
  const store = await t.open(true);
  const emptySize = await t.size();
  await each(CHATS, t.setupWidth, (i) => store.setApiKey(1_000_000 + i, `BENCH-KEY-${i.toString(36).padStart(8, "0")}-abcdefghijklmnop`));
  const now = Date.now();
  await each(PENDING, t.setupWidth, (i) =>
    store.createTx({
      refId: refOf(i),
      chatId: 1_000_000 + (i % CHATS),
      kind: "prepaid",
      status: "pending",
      upstreamId: `UP${i}`,
      code: "S10",
      title: "Telkomsel 10.000",
      target: "081234567890",
      amount: 10_500,
      watch: { nextCheckAt: now + 5000, attempts: 0 },
    }),
  );
  await store.flush();

  // One change at a time, each awaited to disk (what a money action does before calling out).
  const persist: number[] = [];
  for (let i = 0; i < SINGLE_CHANGES; i++) {
    const t0 = performance.now();
    await store.updateTx(refOf((i * 7) % PENDING), { watch: { nextCheckAt: now + i, attempts: i } });
    await store.flush();
    persist.push(performance.now() - t0);
  }

  // A burst of 1,000 changes spread over the data (watcher updates, alerts, links).
  const { maxStallMs } = await withLoopMonitor(async () => {
    for (let i = 0; i < BURST; i++) {
      if (i % 2) await store.updateChat(1_000_000 + ((i * 97) % CHATS), { alertFired: i % 4 === 1 });
      else await store.updateTx(refOf((i * 13) % PENDING), { status: "success", sn: `SN${i}` });
      if (i % 50 === 0) await new Promise((r) => setImmediate(r));
    }
    await store.flush();
  });
  const p = summarize(persist);
  const size = await t.size();
  const rss = process.memoryUsage().rss;
  await store.close();
  // Start-up: the file store reads every shard and checks it against the record schemas; PgStore connects and checks its migrations.
  const t0 = performance.now();
  const reopened = await t.open(false);
  const openMs = performance.now() - t0;
  await reopened.close();
  return [
    { metric: `${label}: open (${t.openLabel})`, value: ms(openMs) },
    { metric: `${label}: persist one change p50 / p99`, value: `${ms(p.p50)} / ${ms(p.p99)}` },
    { metric: `${label}: longest event-loop stall in a 1,000-change burst`, value: ms(maxStallMs), target: "< 50 ms", ok: maxStallMs < 50 },
    { metric: `${label}: data size / resident memory`, value: `${mb(size)} / ${mb(rss)}${t.database ? ` (empty database: ${mb(emptySize)})` : ""}` },
  ];
}

async function files(label: string, shards: number): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), "ppob-bench-store-"));
  try {
    return await run({
      label,
      // The first open sets the layout; the reopen reads it from the files.
      open: (first) => FileStore.open({ dir, secret: SECRET, ...(first ? { chatShards: shards, txShards: shards } : {}) }),
      size: () => dirSize(dir),
      setupWidth: 1,
      openLabel: "read + check all shards",
      database: false,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const oneFile = await files("one file per kind (before)", 1);
const sharded = await files("64 shards (now)", 64);
const pg = await openBenchPg();
let pgRows: BenchRow[] = [];
if (pg) {
  try {
    const url = await pg.database();
    const sizer = postgres(url, { max: 1, onnotice: () => undefined });
    pgRows = await run({
      label: "PostgreSQL (PgStore)",
      open: () => PgStore.open({ url, secret: SECRET }),
      size: async () => Number((await sizer<{ n: string }[]>`SELECT pg_database_size(current_database())::text AS n`)[0]!.n),
      setupWidth: 16,
      openLabel: "connect + check migrations",
      database: true,
    });
    await sizer.end();
  } finally {
    await pg.stop();
  }
}
report({
  name: "Store",
  setup: `${CHATS.toLocaleString("en")} linked chats, ${PENDING.toLocaleString("en")} pending ids; lowdb in a temporary folder` + (pg ? `; ${pg.label}` : ""),
  rows: [...oneFile, ...sharded, ...pgRows],
  notes: [
    "'before' pins the store to one chats file and one tx file; 'now' is the default layout.",
    ...(pg
      ? [
          "PostgreSQL: a change is one compare-and-set UPDATE (read the row and its version, write it back), committed before the call resolves; `flush()` has nothing left to wait for. Each change waits for its commit's WAL fsync, so its time is mostly the disk's flush latency. Data size is pg_database_size (tables, indexes and the catalog an empty database has too); resident memory is the bot process only, not the server's.",
        ]
      : [NO_PG_NOTE]),
  ],
});
