/**
 * History on PgStore (bench/history.ts runs it beside the file store): the same records as
 * history.ts's `record()`, generated inside PostgreSQL by one INSERT … SELECT generate_series per
 * block of resellers, row for row as PgStore writes them (rows.ts columns; `data` is the exact JSON
 * text PgStore stores: the schema's key order). A sample is checked against `record()` through
 * PgStore.getTx, the record schema and the raw row before anything is measured.
 *
 * Loading: the txs indexes are dropped first and rebuilt after (the same definitions, read back from
 * pg_indexes and compared), then VACUUM ANALYZE, as a bulk import would; the session raises
 * maintenance_work_mem for the index builds. Durability settings stay the server's (bench/pg.ts).
 */
import { deepStrictEqual } from "node:assert/strict";
import postgres from "postgres";
import { PgStore } from "../src/store/pg/pgStore.js";
import { txRow } from "../src/store/pg/rows.js";
import { TxRecordSchema } from "../src/store/records.js";
import { ms, summarize, type BenchRow } from "./lib.js";
import type { BenchPg } from "./pg.js";

const DAY = 86_400_000;
const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GB`;

export interface PgHistoryInput {
  pg: BenchPg;
  resellers: number;
  perDay: number;
  days: number;
  secret: string;
  /** history.ts's generator: the record (r, day, i) as the file store gets it. */
  record: (r: number, day: number, i: number, start: number) => Record<string, unknown>;
}

/** The SQL twin of history.ts `record()`; the JSON text in PgStore's key order (records.ts schema order). */
function insertSql(sql: postgres.Sql, start: number, perDay: number, days36: string[], r0: number, r1: number) {
  return sql`
    INSERT INTO txs (ref_id, chat_id, status, upstream_id, created_at, updated_at, month, data)
    SELECT ref, chat, st, up, ca, ca + 60000,
      to_char(to_timestamp((ca + 25200000) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM'),
      ('{"refId":"' || ref || '","chatId":' || chat || ',"status":"' || st || '","upstreamId":"' || up ||
        '","code":"S10","title":"Telkomsel 10.000","target":"081234567890","amount":10500,"sn":"SN' || d || i ||
        '","createdAt":' || ca || ',"updatedAt":' || (ca + 60000) || ',"kind":"prepaid"}')::json
    FROM (
      SELECT 'TP' || d36 || 'R' || r || 'I' || i AS ref, 1000000 + r AS chat,
        CASE WHEN i % 20 = 0 THEN 'failed' ELSE 'success' END AS st,
        'UP' || r || '-' || (n - 1) || '-' || i AS up,
        ${start}::bigint + (n - 1) * ${DAY}::bigint + (i::bigint * ${DAY}) / ${perDay} + r AS ca,
        n - 1 AS d, i
      FROM generate_series(${r0}::int, ${r1}::int) r,
        unnest(${days36}::text[]) WITH ORDINALITY AS days(d36, n),
        generate_series(0, ${perDay - 1}::int) i
    ) x`;
}

export async function measurePg(input: PgHistoryInput): Promise<{ rows: BenchRow[]; notes: string[]; n: number }> {
  const { pg, resellers, perDay, days, secret, record } = input;
  const url = await pg.database();
  const now = Date.now();
  const start = now - days * DAY;
  const store = await PgStore.open({ url, secret });
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < resellers) {
        const r = next++;
        await store.setApiKey(1_000_000 + r, `BENCH-KEY-${r}-abcdefghijklmnop`);
      }
    }));

    // ---- load
    const load0 = performance.now();
    const indexDefs = async () =>
      (await sql<{ name: string; def: string }[]>`SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE tablename = 'txs' ORDER BY indexname`).map((x) => ({ ...x }));
    const before = await indexDefs();
    await sql`ALTER TABLE txs DROP CONSTRAINT txs_pkey`;
    for (const { name } of before) if (name !== "txs_pkey") await sql.unsafe(`DROP INDEX ${name}`);
    const days36 = Array.from({ length: days }, (_, d) => d.toString(36));
    const block = Math.max(1, Math.floor(200_000 / (perDay * days)));
    let n = 0;
    for (let r0 = 0; r0 < resellers; r0 += block) {
      const r1 = Math.min(resellers, r0 + block) - 1;
      n += (await insertSql(sql, start, perDay, days36, r0, r1)).count;
      if (r0 % (block * 10) === 0) process.stderr.write(`history pg: ${n.toLocaleString("en")} rows, ${((performance.now() - load0) / 1000).toFixed(0)} s\n`);
    }
    const insertMs = performance.now() - load0;
    const idx0 = performance.now();
    await sql`SET maintenance_work_mem = '512MB'`;
    await sql`ALTER TABLE txs ADD PRIMARY KEY (ref_id)`;
    for (const { name, def } of before) if (name !== "txs_pkey") await sql.unsafe(def);
    deepStrictEqual(await indexDefs(), before, "the rebuilt txs indexes differ from the migration's");
    const indexMs = performance.now() - idx0;
    const vac0 = performance.now();
    await sql`VACUUM (ANALYZE) txs`;
    const vacuumMs = performance.now() - vac0;
    const loadMs = performance.now() - load0;
    const [sizes] = await sql<{ db: string; tbl: string; idx: string }[]>`
      SELECT pg_database_size(current_database())::text AS db, pg_table_size('txs')::text AS tbl, pg_indexes_size('txs')::text AS idx`;

    // ---- check: generated rows are what PgStore writes and reads back
    for (const [r, d, i] of [[0, 0, 0], [resellers - 1, days - 1, perDay - 1], [Math.floor(resellers / 2), Math.floor(days / 3), 1]] as const) {
      const expected = TxRecordSchema.parse(record(r, d, i, start));
      const got = await store.getTx(expected.refId);
      deepStrictEqual(got && TxRecordSchema.parse(got), expected, `generated row ${expected.refId} does not read back as written`);
      const [raw] = await sql<{ text: string; month: string; status: string; upstream_id: string; created_at: string; updated_at: string; chat_id: string }[]>`
        SELECT data::text AS text, month, status, upstream_id, created_at::text, updated_at::text, chat_id::text FROM txs WHERE ref_id = ${expected.refId}`;
      const row = txRow(expected);
      deepStrictEqual(
        { ...raw },
        { text: JSON.stringify(expected), month: row.month, status: row.status, upstream_id: row.upstream_id, created_at: String(row.created_at), updated_at: String(row.updated_at), chat_id: String(row.chat_id) },
        `generated row ${expected.refId} differs from what PgStore writes`,
      );
    }

    // ---- measure: history pages as history.ts does, then the month report
    const lat: number[] = [];
    const deep: number[] = [];
    let seed = 42;
    const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32);
    for (let k = 0; k < 400; k++) {
      const chatId = 1_000_000 + Math.floor(rand() * resellers);
      const total = (await store.listTxByChat(chatId, { limit: 0 })).total;
      const offset = k % 2 === 0 ? Math.floor(rand() * total) : Math.floor(rand() * 5) * 10;
      const t = performance.now();
      await store.listTxByChat(chatId, { offset, limit: 10 });
      (k % 2 === 0 ? deep : lat).push(performance.now() - t);
    }
    const month = await monthReport(store, resellers, rand);
    const p = summarize(lat);
    const d = summarize(deep);
    const label = "PostgreSQL (PgStore)";
    return {
      n,
      rows: [
        {
          metric: `${label}: load (INSERT … SELECT generate_series; indexes rebuilt; VACUUM ANALYZE)`,
          value: `${(loadMs / 1000).toFixed(0)} s (insert ${(insertMs / 1000).toFixed(0)} s, ${Math.round(n / (insertMs / 1000)).toLocaleString("en")} rows/s; indexes ${(indexMs / 1000).toFixed(0)} s; vacuum ${(vacuumMs / 1000).toFixed(0)} s)`,
        },
        { metric: `${label}: database size (txs table / its indexes)`, value: `${gb(Number(sizes!.db))} (${gb(Number(sizes!.tbl))} / ${gb(Number(sizes!.idx))})` },
        { metric: `${label}: history page, first 5 pages, p50 / p99`, value: `${ms(p.p50)} / ${ms(p.p99)}` },
        { metric: `${label}: history page at a random depth, p50 / p99`, value: `${ms(d.p50)} / ${ms(d.p99)}` },
        { metric: `${label}: month report (txsOfMonth, ~${month.rows.toLocaleString("en")} records each), p50 / p99`, value: `${ms(month.p50)} / ${ms(month.p99)}` },
      ],
      notes: [
        `PostgreSQL load: the rows are generated inside the database (one INSERT … SELECT over generate_series per ${block} resellers), with the same columns and JSON text PgStore writes; three of them are read back through PgStore.getTx and the record schema and compared with history.ts's generator before measuring. The txs indexes are dropped for the load and rebuilt from their own definitions (maintenance_work_mem 512MB for the session), then VACUUM (ANALYZE), as a bulk import would; the durability settings stay the server's.`,
        "A PostgreSQL history page is two queries on the txs_history index (the page, OFFSET … LIMIT 10, and the chat's count): a deep page walks the index up to its offset. The month report reads one (chat, month) range of txs_month and parses every record's JSON.",
      ],
    };
  } finally {
    await sql.end();
    await store.close();
  }
}

/** store.txsOfMonth for random chats and months (what /laporan and /ekspor read): p50 / p99 and records per report. */
export async function monthReport(
  store: { txMonths(chatId: number): Promise<string[]>; txsOfMonth(chatId: number, month: string): Promise<readonly unknown[]> },
  resellers: number,
  rand: () => number,
  samples = 200,
): Promise<{ p50: number; p99: number; rows: number }> {
  const lat: number[] = [];
  let rows = 0;
  for (let k = 0; k < samples; k++) {
    const chatId = 1_000_000 + Math.floor(rand() * resellers);
    const months = await store.txMonths(chatId);
    // Whole months only: the first and the current one are partial.
    const whole = months.length > 2 ? months.slice(1, -1) : months;
    const m = whole[Math.floor(rand() * whole.length)]!;
    const t = performance.now();
    rows += (await store.txsOfMonth(chatId, m)).length;
    lat.push(performance.now() - t);
  }
  const s = summarize(lat);
  return { p50: s.p50, p99: s.p99, rows: Math.round(rows / samples) };
}
