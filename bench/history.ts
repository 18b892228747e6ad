/**
 * History: a year of resellers' transactions -> resident memory after open, open time, and the
 * latency of a /riwayat page (10 items) for random chats at random depths. The data is written
 * straight to the store's files, streaming (never 18M objects in memory): 7 days hot in the
 * shards, the rest in monthly archives. The baseline (`--variant=hot`, run in its own process for
 * a clean memory figure) keeps the same data all hot, as before the archive. Then the same
 * records on PgStore when PostgreSQL is there (historyPg.ts): load time, size, pages, month report.
 */
import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ARCHIVE_AFTER_MS, MARK_EVERY, wibMonth } from "../src/store/file/archive.js";
import { shardFileName, shardIndex } from "../src/store/file/shards.js";
import { FileStore } from "../src/store/file/fileStore.js";
import { monthReport, measurePg } from "./historyPg.js";
import { FULL, mb, ms, report, summarize, type BenchRow } from "./lib.js";
import { NO_PG_NOTE, openBenchPg } from "./pg.js";

const SIZE = FULL ? { resellers: 1_000, perDay: 50 } : { resellers: 100, perDay: 5 };
/** PostgreSQL: the issue's 18,250,000 in full mode; ~1.1 million (a year of 100 resellers) in quick mode. */
const PG_SIZE = FULL ? SIZE : { resellers: 100, perDay: 30 };
const DAYS = 365;
const DAY = 86_400_000;
const SHARDS = 64;
const SECRET = "bench-secret-0123456789";
const variant = process.argv.find((a) => a.startsWith("--variant="))?.slice(10) ?? "archive";
const sizeArg = process.argv.find((a) => a.startsWith("--size="))?.slice(7);
const size = sizeArg ? (JSON.parse(sizeArg) as typeof SIZE) : SIZE;
const UNMARKED = process.argv.includes("--unmarked");

/** Buffered synchronous appends to one file: generation stays streaming and cheap. */
class Out {
  private fd: number;
  private parts: string[] = [];
  private pending = 0;
  bytes = 0;
  constructor(path: string, mode = 0o644) {
    this.fd = openSync(path, "w", mode);
  }
  write(s: string): void {
    this.parts.push(s);
    this.pending += s.length;
    this.bytes += Buffer.byteLength(s);
    if (this.pending > 1 << 20) this.drain();
  }
  private drain(): void {
    writeSync(this.fd, this.parts.join(""));
    this.parts = [];
    this.pending = 0;
  }
  close(): void {
    this.drain();
    closeSync(this.fd);
  }
}

function record(r: number, day: number, i: number, start: number, perDay = size.perDay) {
  const chatId = 1_000_000 + r;
  const createdAt = start + day * DAY + Math.floor((i * DAY) / perDay) + r;
  return {
    refId: `TP${day.toString(36)}R${r}I${i}`,
    chatId,
    kind: "prepaid",
    status: i % 20 === 0 ? "failed" : "success",
    upstreamId: `UP${r}-${day}-${i}`,
    code: "S10",
    title: "Telkomsel 10.000",
    target: "081234567890",
    amount: 10_500,
    sn: `SN${day}${i}`,
    createdAt,
    updatedAt: createdAt + 60_000,
  };
}

async function generate(dir: string, now: number, allHot: boolean): Promise<number> {
  const store = await FileStore.open({ dir, secret: SECRET, txShards: SHARDS, chatShards: SHARDS });
  for (let r = 0; r < size.resellers; r++) await store.setApiKey(1_000_000 + r, `BENCH-KEY-${r}-abcdefghijklmnop`);
  await store.close();
  const start = now - DAYS * DAY;
  const cutoff = allHot ? -Infinity : now - ARCHIVE_AFTER_MS;
  const shards = Array.from({ length: SHARDS }, (_, i) => new Out(join(dir, "store", shardFileName("tx", i, SHARDS))));
  const first = new Array<boolean>(SHARDS).fill(true);
  for (const s of shards) s.write('{"txs":[');
  mkdirSync(join(dir, "archive"), { recursive: true, mode: 0o700 });
  const index: Record<string, { bytes: number; chats: Record<string, ([number, number, number] | [number, number, number, number, number, number[]])[]> }> = {};
  let files = new Map<string, Out>();
  let n = 0;
  // Month-major so each chat's month is one contiguous segment, as a sweep of an old store writes it.
  const monthDays = new Map<string, number[]>();
  for (let d = 0; d < DAYS; d++) {
    const m = wibMonth(start + d * DAY + DAY / 2);
    monthDays.set(m, [...(monthDays.get(m) ?? []), d]);
  }
  for (const days of monthDays.values()) {
    for (let r = 0; r < size.resellers; r++) {
      // The open segment: a day at a month edge may fall in the neighbour month's file.
      // Lines are in (createdAt, refId) order within a chat, as a sweep writes them: first and last
      // createdAt, and the offset of every MARK_EVERY-th line, let a page find its lines (archive.ts).
      let seg: { m: string; out: Out; start: number; count: number; first: number; last: number; marks: number[] } | undefined;
      const closeSeg = () => {
        // --unmarked: segments as indexed before pages read by position (the whole chat-month per page).
        if (seg) (index[seg.m]!.chats[1_000_000 + r] ??= []).push(UNMARKED ? [seg.start, seg.out.bytes - seg.start, seg.count] : [seg.start, seg.out.bytes - seg.start, seg.count, seg.first, seg.last, seg.marks]);
        seg = undefined;
      };
      for (const d of days) {
        for (let i = 0; i < size.perDay; i++) {
          const tx = record(r, d, i, start);
          const line = JSON.stringify(tx);
          n++;
          if (tx.updatedAt >= cutoff) {
            const s = shardIndex(tx.refId, SHARDS);
            shards[s]!.write(first[s] ? line : `,${line}`);
            first[s] = false;
            continue;
          }
          const m = wibMonth(tx.createdAt);
          let out = files.get(m);
          if (!out) {
            files.set(m, (out = new Out(join(dir, "archive", `tx-${m}.jsonl`), 0o600)));
            index[m] = { bytes: 0, chats: {} };
          }
          if (seg?.m !== m) {
            closeSeg();
            seg = { m, out, start: out.bytes, count: 0, first: tx.createdAt, last: tx.createdAt, marks: [] };
          }
          if (seg!.count > 0 && seg!.count % MARK_EVERY === 0) seg!.marks.push(out.bytes - seg!.start);
          out.write(`${line}\n`);
          seg!.count++;
          seg!.last = tx.createdAt;
        }
      }
      closeSeg();
    }
  }
  for (const s of shards) {
    s.write("]}");
    s.close();
  }
  for (const [m, out] of files) {
    out.close();
    index[m]!.bytes = out.bytes;
  }
  files = new Map();
  writeFileSync(join(dir, "archive", "index.json"), JSON.stringify({ months: index }), { mode: 0o600 });
  return n;
}

async function measure(allHot: boolean): Promise<{ rows: BenchRow[]; n: number }> {
  const dir = await mkdtemp(join(tmpdir(), "ppob-bench-history-"));
  try {
    const now = Date.now();
    const n = await generate(dir, now, allHot);
    const label = allHot ? "all hot (before)" : UNMARKED ? "7 days hot + archive, segments without position marks (before)" : "7 days hot + archive (now)";
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    const store = await FileStore.open({ dir, secret: SECRET, ...(allHot ? { archiveAfterMs: Number.MAX_SAFE_INTEGER } : {}) });
    const openMs = performance.now() - t0;
    const rss = process.memoryUsage().rss;
    const hot = store.stats().txs;
    const lat: number[] = [];
    const deep: number[] = [];
    // CPU time of each page (this process's own): on a shared machine wall times also count waiting for a core.
    const cpu: number[] = [];
    let seed = 42;
    const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32);
    for (let k = 0; k < 1_000; k++) {
      const chatId = 1_000_000 + Math.floor(rand() * size.resellers);
      const total = (await store.listTxByChat(chatId, { limit: 0 })).total;
      const offset = k % 2 === 0 ? Math.floor(rand() * total) : Math.floor(rand() * 5) * 10;
      const t = performance.now();
      const c0 = process.cpuUsage();
      await store.listTxByChat(chatId, { offset, limit: 10 });
      const c = process.cpuUsage(c0);
      (k % 2 === 0 ? deep : lat).push(performance.now() - t);
      cpu.push((c.user + c.system) / 1000);
    }
    const month = await monthReport(store, size.resellers, rand);
    await store.close();
    const p = summarize(lat);
    const d = summarize(deep);
    const c = summarize(cpu);
    return {
      n,
      rows: [
        { metric: `${label}: open (Store.open)`, value: ms(openMs) },
        { metric: `${label}: resident memory after open (growth during open)`, value: `${mb(rss)} (${mb(rss - rss0)})` },
        { metric: `${label}: records in memory`, value: hot.toLocaleString("en") },
        { metric: `${label}: history page, first 5 pages, p50 / p99`, value: `${ms(p.p50)} / ${ms(p.p99)}` },
        {
          metric: `${label}: history page at a random depth, p50 / p99`,
          value: `${ms(d.p50)} / ${ms(d.p99)}`,
          ...(allHot ? {} : { target: "p99 ≤ 10 ms", ok: Math.max(p.p99, d.p99) <= 10 }),
        },
        { metric: `${label}: history page, any, CPU time of the process p50 / p99 / max`, value: `${ms(c.p50)} / ${ms(c.p99)} / ${ms(c.max)}` },
        { metric: `${label}: month report (txsOfMonth, ~${month.rows.toLocaleString("en")} records each), p50 / p99`, value: `${ms(month.p50)} / ${ms(month.p99)}` },
      ],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (variant === "hot") {
  process.stdout.write(`ROWS ${JSON.stringify((await measure(true)).rows)}\n`);
} else {
  const { rows, n } = await measure(false);
  // The baseline at the quick size only: all hot at the full size is the memory problem itself.
  const quick = { resellers: 100, perDay: 5 };
  const out = execFileSync(
    process.execPath,
    ["--import", "tsx", import.meta.filename, "--variant=hot", `--size=${JSON.stringify(quick)}`],
    { encoding: "utf8", maxBuffer: 1 << 20 },
  );
  const base = JSON.parse(out.split("\n").find((l) => l.startsWith("ROWS "))!.slice(5)) as BenchRow[];
  const quickLabel = `${quick.resellers} resellers x ${quick.perDay}/day`;
  // --files-only: the file store and its baseline (PostgreSQL's load of a year takes minutes).
  const pg = process.argv.includes("--files-only") ? undefined : await openBenchPg();
  let onPg: Awaited<ReturnType<typeof measurePg>> | undefined;
  try {
    if (pg) onPg = await measurePg({ pg, ...PG_SIZE, days: DAYS, secret: SECRET, record: (r, d, i, s) => record(r, d, i, s, PG_SIZE.perDay) });
  } finally {
    await pg?.stop();
  }
  const samePg = PG_SIZE.resellers === size.resellers && PG_SIZE.perDay === size.perDay;
  report({
    name: "History",
    setup:
      `${size.resellers.toLocaleString("en")} resellers x ${size.perDay} transactions a day x ${DAYS} days = ${n.toLocaleString("en")} records, ${SHARDS} tx shards` +
      (pg && onPg
        ? `; PostgreSQL: ${samePg ? "the same records" : `${PG_SIZE.resellers.toLocaleString("en")} resellers x ${PG_SIZE.perDay} a day x ${DAYS} days = ${onPg.n.toLocaleString("en")} records`}, ${pg.label}`
        : ""),
    rows: [...rows, ...base.map((r) => ({ ...r, metric: `baseline at ${quickLabel}, ${r.metric}` })), ...(onPg?.rows ?? [])],
    notes: [
      "A page is listTxByChat(chat, {offset, limit: 10}); deep pages are at a random offset of the chat's whole year. A month report is txsOfMonth(chat, month) for a random chat and whole month (what /laporan and /ekspor read).",
      "The baseline keeps the same kind of data all in the hot shards (no archive), in its own process, at the quick size.",
      ...(onPg?.notes ?? [process.argv.includes("--files-only") ? "PostgreSQL rows skipped (--files-only)." : NO_PG_NOTE]),
    ],
  });
}
