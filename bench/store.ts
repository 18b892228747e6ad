/**
 * Store: N linked chats and M pending ids -> time to persist one change (p50/p99), the longest
 * event-loop stall during a burst of 1,000 changes, data size and memory. Run once with the real
 * sharded layout and once with everything in one file per kind (the "before" of the split).
 */
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileStore } from "../src/store/store.js";
import { FULL, mb, ms, report, summarize, withLoopMonitor, type BenchRow } from "./lib.js";

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

async function run(label: string, shards: number): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), "ppob-bench-store-"));
  try {
    const store = await FileStore.open({ dir, secret: "bench-secret-0123456789", chatShards: shards, txShards: shards });
    for (let i = 0; i < CHATS; i++) {
      await store.setApiKey(1_000_000 + i, `BENCH-KEY-${i.toString(36).padStart(8, "0")}-abcdefghijklmnop`);
    }
    const now = Date.now();
    for (let i = 0; i < PENDING; i++) {
      await store.createTx({
        refId: `TP2611${i.toString(36).padStart(8, "0").toUpperCase()}`,
        chatId: 1_000_000 + (i % CHATS),
        kind: "prepaid",
        status: "pending",
        upstreamId: `UP${i}`,
        code: "S10",
        title: "Telkomsel 10.000",
        target: "081234567890",
        amount: 10_500,
        watch: { nextCheckAt: now + 5000, attempts: 0 },
      });
    }
    await store.flush();

    // One change at a time, each awaited to disk (what a money action does before calling out).
    const persist: number[] = [];
    for (let i = 0; i < SINGLE_CHANGES; i++) {
      const t0 = performance.now();
      await store.updateTx(`TP2611${(i * 7 % PENDING).toString(36).padStart(8, "0").toUpperCase()}`, { watch: { nextCheckAt: now + i, attempts: i } });
      await store.flush();
      persist.push(performance.now() - t0);
    }

    // A burst of 1,000 changes spread over the data (watcher updates, alerts, links).
    const { maxStallMs } = await withLoopMonitor(async () => {
      for (let i = 0; i < BURST; i++) {
        if (i % 2) await store.updateChat(1_000_000 + ((i * 97) % CHATS), { alertFired: i % 4 === 1 });
        else await store.updateTx(`TP2611${((i * 13) % PENDING).toString(36).padStart(8, "0").toUpperCase()}`, { status: "success", sn: `SN${i}` });
        if (i % 50 === 0) await new Promise((r) => setImmediate(r));
      }
      await store.flush();
    });
    const p = summarize(persist);
    const size = await dirSize(dir);
    const rss = process.memoryUsage().rss;
    await store.close();
    // Start-up: every shard read and checked against the record schemas.
    const t0 = performance.now();
    const reopened = await FileStore.open({ dir, secret: "bench-secret-0123456789" });
    const openMs = performance.now() - t0;
    await reopened.close();
    return [
      { metric: `${label}: open (read + check all shards)`, value: ms(openMs) },
      { metric: `${label}: persist one change p50 / p99`, value: `${ms(p.p50)} / ${ms(p.p99)}` },
      { metric: `${label}: longest event-loop stall in a 1,000-change burst`, value: ms(maxStallMs), target: "< 50 ms", ok: maxStallMs < 50 },
      { metric: `${label}: data size / resident memory`, value: `${mb(size)} / ${mb(rss)}` },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const oneFile = await run("one file per kind (before)", 1);
const sharded = await run("64 shards (now)", 64);
report({
  name: "Store",
  setup: `${CHATS.toLocaleString("en")} linked chats, ${PENDING.toLocaleString("en")} pending ids, lowdb`,
  rows: [...oneFile, ...sharded],
  notes: ["'before' pins the store to one chats file and one tx file; 'now' is the default layout."],
});
