/**
 * /mutasi on PgStore (bench/mutasi.ts runs it): a year of wallet entries for each downline generated
 * inside PostgreSQL by one INSERT … SELECT generate_series per block of wallets, row for row as
 * PgStore.postEntries writes them (`data` is the exact JSON text it stores, the schema's key order),
 * and each wallet's row as the posts leave it. A sample is read back through PgStore.walletEntries and
 * PgStore.wallet and compared with mutasiData.ts's generator (and the raw row's text) before anything
 * is measured. As bench/historyPg.ts: the table's constraints are dropped for the load and made again
 * from their own definitions (compared after), then VACUUM ANALYZE.
 *
 * Measured: pages of 10 (what /mutasi shows) through PgStore.walletEntries, the call the bot makes, for
 * random wallets: the first page, and a page at a random depth (beforeSeq); the query's plan is kept.
 */
import { deepStrictEqual } from "node:assert/strict";
import postgres from "postgres";
import { PgStore } from "../src/store/pg/pgStore.js";
import { ms, summarize, type BenchRow } from "./lib.js";
import type { BenchPg } from "./pg.js";
import { DAY, DAYS, entryOf, EXTRA, OWNER, PRICE, seeded, WALLET0, walletEnd, type Size } from "./mutasiData.js";

const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GB`;
/** Pages of /mutasi: 10 entries (bot/features/downline.ts). */
export const PAGE = 10;

/** The SQL twin of mutasiData.ts entryOf(); the JSON text in the schema's key order. */
function insertSql(sql: postgres.Sql, start: number, perDay: number, days36: string[], w0: number, w1: number) {
  const credit = (perDay - 1) * PRICE + EXTRA;
  return sql`
    INSERT INTO wallet_entries (ref, wallet, seq, at, data)
    SELECT ref, wallet, seq, at,
      ('{"ref":"' || ref || '","wallet":' || wallet || ',"owner":' || ${OWNER}::bigint || ',"amount":' || amount ||
        ',"kind":"' || kind || '"' ||
        CASE WHEN i = 0 THEN ',"reason":"tunai","by":' || ${OWNER}::bigint ELSE ',"txRef":"' || tx || '"' END ||
        ',"seq":' || seq || ',"balance":' || balance || ',"at":' || at || '}')::json
    FROM (
      SELECT ${WALLET0}::bigint + w AS wallet, i,
        CASE WHEN i = 0 THEN 'A' || w || 'D' || d ELSE 'TW' || d36 || 'W' || w || 'I' || i || ':d' END AS ref,
        'TW' || d36 || 'W' || w || 'I' || i AS tx,
        CASE WHEN i = 0 THEN 'adjust' ELSE 'purchase' END AS kind,
        CASE WHEN i = 0 THEN ${credit}::bigint ELSE -${PRICE}::bigint END AS amount,
        d::bigint * ${perDay} + i + 1 AS seq,
        ${start}::bigint + d::bigint * ${DAY}::bigint + (i::bigint * ${DAY}) / ${perDay} + w AS at,
        d::bigint * ${EXTRA} + ${credit}::bigint - i::bigint * ${PRICE} AS balance
      FROM generate_series(${w0}::int, ${w1}::int) w,
        unnest(${days36}::text[]) WITH ORDINALITY AS days(d36, n),
        LATERAL (SELECT (n - 1)::int AS d) dd,
        generate_series(0, ${perDay - 1}::int) i
    ) x`;
}

export interface PgMutasi {
  rows: BenchRow[];
  notes: string[];
  n: number;
  /** The database, loaded: the bot's handler is measured on it (mutasi.ts). */
  url: string;
  start: number;
}

export async function measurePg(pg: BenchPg, size: Size, secret: string): Promise<PgMutasi> {
  const { downlines, perDay } = size;
  const url = await pg.database();
  const start = Date.now() - DAYS * DAY;
  const store = await PgStore.open({ url, secret });
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    // ---- load
    const load0 = performance.now();
    const indexDefs = async () =>
      (await sql<{ name: string; def: string }[]>`SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE tablename = 'wallet_entries' ORDER BY indexname`).map((x) => ({ ...x }));
    const constraints = (await sql<{ name: string; def: string }[]>`
      SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'wallet_entries'::regclass ORDER BY conname`).map((x) => ({ ...x }));
    const before = await indexDefs();
    for (const { name } of constraints) await sql.unsafe(`ALTER TABLE wallet_entries DROP CONSTRAINT ${name}`);
    const loose = await indexDefs();
    for (const { name } of loose) await sql.unsafe(`DROP INDEX ${name}`);
    const days36 = Array.from({ length: DAYS }, (_, d) => d.toString(36));
    const block = Math.max(1, Math.floor(400_000 / (perDay * DAYS)));
    let n = 0;
    for (let w0 = 0; w0 < downlines; w0 += block) {
      const w1 = Math.min(downlines, w0 + block) - 1;
      n += (await insertSql(sql, start, perDay, days36, w0, w1)).count;
      if (w0 % (block * 10) === 0) process.stderr.write(`mutasi pg: ${n.toLocaleString("en")} rows, ${((performance.now() - load0) / 1000).toFixed(0)} s\n`);
    }
    const end = walletEnd(perDay);
    await sql`
      INSERT INTO wallets (chat, owner, balance, held, last_seq)
      SELECT ${WALLET0}::bigint + w, ${OWNER}, ${end.balance}, 0, ${end.lastSeq} FROM generate_series(0, ${downlines - 1}::int) w`;
    const insertMs = performance.now() - load0;
    const idx0 = performance.now();
    await sql`SET maintenance_work_mem = '512MB'`;
    for (const { name, def } of constraints) await sql.unsafe(`ALTER TABLE wallet_entries ADD CONSTRAINT ${name} ${def}`);
    for (const { def } of loose) await sql.unsafe(def);
    deepStrictEqual(await indexDefs(), before, "the rebuilt wallet_entries indexes differ from the migrations'");
    const indexMs = performance.now() - idx0;
    const vac0 = performance.now();
    await sql`VACUUM (ANALYZE) wallet_entries`;
    await sql`VACUUM (ANALYZE) wallets`;
    const vacuumMs = performance.now() - vac0;
    const loadMs = performance.now() - load0;
    const [sizes] = await sql<{ db: string; tbl: string; idx: string }[]>`
      SELECT pg_database_size(current_database())::text AS db, pg_table_size('wallet_entries')::text AS tbl, pg_indexes_size('wallet_entries')::text AS idx`;

    // ---- check: generated rows are what PgStore writes and reads back
    const samples: [number, number, number][] = [[0, 0, 0], [0, 0, 1], [downlines - 1, DAYS - 1, perDay - 1], [Math.floor(downlines / 2), Math.floor(DAYS / 3), 1], [downlines - 1, 11, 0]];
    for (const [w, d, i] of samples) {
      const expected = entryOf(w, d, i, start, perDay);
      const [got] = await store.walletEntries(expected.wallet, { beforeSeq: expected.seq + 1, limit: 1 });
      deepStrictEqual(got, expected, `generated entry ${expected.ref} does not read back as written`);
      const [raw] = await sql<{ text: string; wallet: string; seq: string; at: string }[]>`
        SELECT data::text AS text, wallet::text, seq::text, at::text FROM wallet_entries WHERE ref = ${expected.ref}`;
      deepStrictEqual({ ...raw }, { text: JSON.stringify(expected), wallet: String(expected.wallet), seq: String(expected.seq), at: String(expected.at) }, `generated row ${expected.ref} differs from what PgStore writes`);
    }
    deepStrictEqual(await store.wallet(WALLET0 + downlines - 1), { chat: WALLET0 + downlines - 1, owner: OWNER, balance: end.balance, held: 0 }, "a generated wallet row reads back wrong");
    const [sums] = await sql<{ bad: string }[]>`
      SELECT count(*)::text AS bad FROM wallets w WHERE w.balance <> (SELECT coalesce(sum((e.data->>'amount')::bigint), 0) FROM wallet_entries e WHERE e.wallet = w.chat)
        AND w.chat IN (${WALLET0}, ${WALLET0 + downlines - 1})`;
    if (sums!.bad !== "0") throw new Error("a generated wallet's balance is not the sum of its entries");

    // ---- measure: pages as /mutasi asks them (first page, then pages back by beforeSeq)
    const rand = seeded();
    const first: number[] = [];
    const deep: number[] = [];
    for (let k = 0; k < 2_000; k++) {
      const wallet = WALLET0 + Math.floor(rand() * downlines);
      const beforeSeq = k % 4 === 0 ? undefined : 2 + Math.floor(rand() * end.lastSeq);
      const t = performance.now();
      const page = await store.walletEntries(wallet, { limit: PAGE, ...(beforeSeq !== undefined ? { beforeSeq } : {}) });
      (beforeSeq === undefined ? first : deep).push(performance.now() - t);
      const want = Math.min(PAGE, (beforeSeq ?? end.lastSeq + 1) - 1);
      if (page.length !== want || page[0]!.seq !== (beforeSeq ?? end.lastSeq + 1) - 1) throw new Error(`wrong page for ${wallet} before ${beforeSeq}`);
    }
    const deepWallet = WALLET0 + Math.floor(downlines / 2);
    const plan = (await sql.unsafe(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT data FROM wallet_entries WHERE wallet = $1 AND seq < $2 ORDER BY seq DESC LIMIT ${PAGE}`,
      [deepWallet, Math.floor(end.lastSeq / 2)],
    )) as unknown as Record<string, string>[];
    const planText = plan.map((r) => Object.values(r)[0]).join(" / ").replace(/\s+/g, " ");
    // The server's own time for the same query (EXPLAIN ANALYZE): what of a page is the database's work.
    const server: number[] = [];
    for (let k = 0; k < 200; k++) {
      const wallet = WALLET0 + Math.floor(rand() * downlines);
      const beforeSeq = 2 + Math.floor(rand() * end.lastSeq);
      const rows = (await sql.unsafe(
        `EXPLAIN (ANALYZE, FORMAT JSON) SELECT data FROM wallet_entries WHERE wallet = $1 AND seq < $2 ORDER BY seq DESC LIMIT ${PAGE}`,
        [wallet, beforeSeq],
      )) as unknown as { "QUERY PLAN": { "Execution Time": number; "Planning Time": number }[] }[];
      const p = rows[0]!["QUERY PLAN"][0]!;
      server.push(p["Execution Time"] + p["Planning Time"]);
    }
    const srv = summarize(server);
    const f = summarize(first);
    const d = summarize(deep);
    const all = summarize([...first, ...deep]);
    const label = "PostgreSQL (PgStore)";
    return {
      n,
      url,
      start,
      rows: [
        {
          metric: `${label}: load (INSERT … SELECT generate_series; constraints rebuilt; VACUUM ANALYZE)`,
          value: `${(loadMs / 1000).toFixed(0)} s (insert ${(insertMs / 1000).toFixed(0)} s, ${Math.round(n / (insertMs / 1000)).toLocaleString("en")} rows/s; indexes ${(indexMs / 1000).toFixed(0)} s; vacuum ${(vacuumMs / 1000).toFixed(0)} s)`,
        },
        { metric: `${label}: database size (wallet_entries table / its indexes)`, value: `${gb(Number(sizes!.db))} (${gb(Number(sizes!.tbl))} / ${gb(Number(sizes!.idx))})` },
        { metric: `${label}: /mutasi first page (walletEntries, ${PAGE}), p50 / p99`, value: `${ms(f.p50)} / ${ms(f.p99)} (${first.length} pages)` },
        { metric: `${label}: /mutasi page at a random depth (beforeSeq), p50 / p99`, value: `${ms(d.p50)} / ${ms(d.p99)} (${deep.length} pages)` },
        { metric: `${label}: /mutasi page, any, p50 / p99`, value: `${ms(all.p50)} / ${ms(all.p99)}`, target: "p99 ≤ 10 ms", ok: all.p99 <= 10 },
        { metric: `${label}: the page's query inside the server (EXPLAIN ANALYZE planning + execution), p50 / p99`, value: `${ms(srv.p50)} / ${ms(srv.p99)} (${server.length} pages)` },
      ],
      notes: [
        `PostgreSQL load: the entries are generated inside the database (one INSERT … SELECT over generate_series per ${block} wallets) with the columns and JSON text PgStore.postEntries writes, and each wallet's row as the posts leave it (balance, last seq); ${samples.length} entries are read back through PgStore.walletEntries (and their raw rows' text) and compared with the generator before measuring, and two wallets' balances with the sum of their entries. The table's constraints (ref primary key, unique (wallet, seq)) are dropped for the load and made again from their own definitions, then VACUUM (ANALYZE).`,
        `A page is walletEntries(wallet, {beforeSeq, limit: ${PAGE}}): one query on the unique (wallet, seq) index, read backwards from beforeSeq, so a deep page costs what the first does. Its plan, for a page in the middle of a wallet's year: ${planText}.`,
      ],
    };
  } finally {
    await sql.end();
    await store.close();
  }
}
