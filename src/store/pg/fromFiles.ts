/**
 * migrate-store: copies a file store (DATA_DIR: store/ shards and the transactions' journal, documents
 * and logs, and archive/ months)
 * into PostgreSQL.
 * The files are only read. Api keys are copied as they are (encrypted, same associated data), so the
 * same secret reads them; the secret is needed only to check it is the store's. Idempotent: a record
 * already there and identical is skipped, a different one replaced unless the database's copy is
 * newer (the bot may already run on the database); running flows and meta keys already in the
 * database are the database's. Ends with counts on both sides.
 */
import { createReadStream } from "node:fs";
import { open, readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import postgres from "postgres";
import { deriveKey, keyCheckMatches } from "../crypto.js";
import { StoreCorruptError } from "../errors.js";
import type * as z from "../../tools/zod.js";
import { KIND_NAME, StoredDocFrame, StoredLogFrame } from "../rules.js";
import { describeIssues, TxRecordSchema, type ChatRecord, type TxRecord } from "../records.js";
import { checkChatShard, checkFlowShard, checkMeta, checkTxShard, type FlowEntry } from "../file/schema.js";
import { shardFileName, shardIndex } from "../file/shards.js";
import { JOURNAL, journalLine, OLD_JOURNAL, shardSeq } from "../file/txJournal.js";
import { PgStore } from "./pgStore.js";
import { chatRow, txRow } from "./rows.js";
import { WALLETS_FILE } from "../file/wallets.js";
import { storedEntry } from "../walletRules.js";

export interface Counts {
  chats: number;
  txs: number;
  meta: number;
  /** Chats with a running flow. */
  flows: number;
  /** Documents of every kind (shop orders, staff...). */
  docs: number;
  /** Log entries of every kind (audit, price changes). */
  logs: number;
  /** Downlines' wallet entries (docs/wallets.md). */
  walletEntries: number;
}

export interface CopyResult {
  files: Counts;
  database: Counts;
  /** The counts agree. */
  ok: boolean;
}

export interface CopyOptions {
  /** DATA_DIR of the file store. */
  from: string;
  /** postgres:// URL. */
  to: string;
  secret: string;
  /** Rows per INSERT (default 1000). */
  batch?: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, "utf8"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new StoreCorruptError(file, `unreadable (${String(err)})`);
  }
}

/** Streams every record of the archive's months to `each`, month by month. */
async function readArchive(dir: string, each: (tx: TxRecord) => Promise<void>): Promise<void> {
  for (const name of (await names(dir)).filter((n) => /^tx-\d{4}-\d{2}\.jsonl$/.test(n)).sort()) {
    const file = join(dir, name);
    await readJsonLines(file, async (json, n) => {
      const r = TxRecordSchema.safeParse(json);
      if (!r.success) throw new StoreCorruptError(file, `line ${n}: ${describeIssues(r.error)}`);
      await each(r.data);
    });
  }
}

/** The names in `dir`; none when it does not exist. */
async function names(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

/**
 * Streams the lines of a JSON-lines file (archive months, logs) to `each`, parsed (a file can be larger
 * than memory allows as one string). A torn last line (a crash mid-append) is left out, as the file store does.
 */
async function readJsonLines(file: string, each: (json: unknown, line: number) => Promise<void>): Promise<void> {
  const size = (await stat(file)).size;
  if (size === 0) return;
  const fh = await open(file, "r");
  const last = Buffer.alloc(1);
  try {
    await fh.read(last, 0, 1, size - 1);
  } finally {
    await fh.close();
  }
  const parse = async (line: string, n: number) => {
    if (line === "") return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new StoreCorruptError(file, `invalid JSON on line ${n}`);
    }
    await each(json, n);
  };
  // Each line is handled once the next one is seen: the last is torn unless the file ends with a newline.
  let held: string | undefined;
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (held !== undefined) await parse(held, n);
    held = line;
    n++;
  }
  if (held !== undefined && last[0] === 0x0a) await parse(held, n);
}

export async function copyFileStore(opts: CopyOptions): Promise<CopyResult> {
  const log = opts.log ?? (() => undefined);
  const batch = opts.batch ?? 1000;
  const root = join(opts.from, "store");
  const metaPath = join(root, "meta.json");
  const rawMeta = await readJson(metaPath);
  if (rawMeta === null) throw new Error(`No file store in ${opts.from} (${metaPath} is missing).`);
  const meta = checkMeta(metaPath, rawMeta);
  if (!keyCheckMatches(await deriveKey(opts.secret), meta.keyCheck)) {
    throw new Error(`The secret is not the one the file store in ${opts.from} was created with: its api keys would not decrypt. Use its STORE_SECRET (or its store-secret file).`);
  }

  const chats = new Map<number, ChatRecord>();
  for (let i = 0; i < meta.chatShards; i++) {
    const file = join(root, shardFileName("chats", i, meta.chatShards));
    for (const c of checkChatShard(file, await readJson(file))) chats.set(c.chatId, c);
  }
  const kv = Object.entries(meta.kv);
  const flows: FlowEntry[] = [];
  for (let i = 0; i < meta.chatShards; i++) {
    const file = join(root, shardFileName("flows", i, meta.chatShards));
    for (const f of checkFlowShard(file, await readJson(file))) if (f.state !== undefined) flows.push(f);
  }

  // Opening PgStore migrates the schema and records the secret's key check in a new database.
  const pg = await PgStore.open({ url: opts.to, secret: opts.secret, max: 1 });
  const matches = pg.secretMatches();
  await pg.close();
  if (!matches) throw new Error("The database already holds api keys under another secret: refusing to mix them.");

  const sql = postgres(opts.to, { max: 1, onnotice: () => undefined, fetch_types: false });
  try {
    // Records travel as JSON text inside the batch: json_to_recordset refuses a \u0000 in a json field.
    const chatRows = [...chats.values()].map((c) => asText(chatRow(c)));
    for (let i = 0; i < chatRows.length; i += batch) {
      const rows = JSON.stringify(chatRows.slice(i, i + batch));
      await sql`
        INSERT INTO chats (chat_id, callback_token, linked, has_key, updated_at, data)
        SELECT chat_id, callback_token, linked, has_key, updated_at, data::json
        FROM json_to_recordset(${rows}::text::json)
          AS x(chat_id bigint, callback_token text, linked boolean, has_key boolean, updated_at bigint, data text)
        ON CONFLICT (chat_id) DO UPDATE SET callback_token = EXCLUDED.callback_token, linked = EXCLUDED.linked,
          has_key = EXCLUDED.has_key, updated_at = EXCLUDED.updated_at, data = EXCLUDED.data, version = chats.version + 1
        WHERE chats.data::text IS DISTINCT FROM EXCLUDED.data::text AND chats.updated_at <= EXCLUDED.updated_at`;
    }
    log(`copied ${chatRows.length} chats`);

    // Only the refIds stay in memory (for the count), not the records: archives can be large.
    const refIds = new Set<string>();
    let pending: TxRecord[] = [];
    const flushTxs = async () => {
      // One refId twice in a batch (archived and hot) would make ON CONFLICT touch a row twice: keep the later.
      const rows = JSON.stringify([...new Map(pending.map((t) => [t.refId, t])).values()].map((t) => asText(txRow(t))));
      pending = [];
      await sql`
        INSERT INTO txs (ref_id, chat_id, status, upstream_id, created_at, updated_at, month, wallet_unsettled, data)
        SELECT ref_id, chat_id, status, upstream_id, created_at, updated_at, month, wallet_unsettled, data::json
        FROM json_to_recordset(${rows}::text::json)
          AS x(ref_id text, chat_id bigint, status text, upstream_id text, created_at bigint, updated_at bigint, month text, wallet_unsettled boolean, data text)
        ON CONFLICT (ref_id) DO UPDATE SET chat_id = EXCLUDED.chat_id, status = EXCLUDED.status, upstream_id = EXCLUDED.upstream_id,
          created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, month = EXCLUDED.month, wallet_unsettled = EXCLUDED.wallet_unsettled, data = EXCLUDED.data,
          version = txs.version + 1
        WHERE txs.data::text IS DISTINCT FROM EXCLUDED.data::text AND txs.updated_at <= EXCLUDED.updated_at`;
    };
    // What each wallet holds: from the records as they end up (a later version of a record replaces an earlier one).
    const holds = new Map<string, { chat: number; price: number }>();
    const add = async (tx: TxRecord) => {
      refIds.add(tx.refId);
      if (tx.wallet?.state === "held") holds.set(tx.refId, { chat: tx.wallet.chat, price: tx.wallet.price });
      else holds.delete(tx.refId);
      pending.push(tx);
      if (pending.length >= batch) await flushTxs();
      if (refIds.size % 100_000 === 0) log(`copied ${refIds.size} transactions`);
    };
    // Archived first, then the hot shards: a record in both is the hot one in the end (it is the newer).
    await readArchive(join(opts.from, "archive"), add);
    const seqs: number[] = [];
    for (let i = 0; i < meta.txShards; i++) {
      const file = join(root, shardFileName("tx", i, meta.txShards));
      const data = await readJson(file);
      const seq = shardSeq(data);
      if (seq === undefined) throw new StoreCorruptError(file, "invalid seq");
      seqs.push(seq);
      for (const t of checkTxShard(file, data)) await add(t);
    }
    // The journal a crash left (txJournal.ts): its lines newer than their shard, in file order, after the shards.
    const present = await names(root);
    for (const name of [OLD_JOURNAL, JOURNAL].filter((n) => present.includes(n))) {
      const file = join(root, name);
      await readJsonLines(file, async (raw, n) => {
        const line = journalLine(raw);
        if (!line) throw new StoreCorruptError(file, `line ${n}: expected {"seq": n, "tx": {...}}`);
        const [tx] = checkTxShard(file, { txs: [line.tx] });
        if (line.seq > seqs[shardIndex(tx!.refId, meta.txShards)]!) await add(tx!);
      });
    }
    if (pending.length > 0) await flushTxs();
    log(`copied ${refIds.size} transactions`);

    // Meta has no time to compare: a key already in the database is the database's (a bot running on
    // PostgreSQL may have moved a broadcast or a flow on since the first copy).
    for (let i = 0; i < kv.length; i += batch) {
      const rows = JSON.stringify(kv.slice(i, i + batch).map(([key, value]) => ({ key, value: JSON.stringify(value) })));
      await sql`
        INSERT INTO meta (key, value) SELECT key, value::json FROM json_to_recordset(${rows}::text::json) AS x(key text, value text)
        ON CONFLICT (key) DO NOTHING`;
    }
    log(`copied ${kv.length} meta keys`);
    for (let i = 0; i < flows.length; i += batch) {
      const rows = JSON.stringify(flows.slice(i, i + batch).map((f) => ({ chat_id: f.chatId, state: JSON.stringify(f.state) })));
      await sql`
        INSERT INTO flows (chat_id, version, state)
        SELECT chat_id, 1, state::json FROM json_to_recordset(${rows}::text::json) AS x(chat_id bigint, state text)
        ON CONFLICT (chat_id) DO NOTHING`;
    }
    log(`copied ${flows.length} running flows`);
    const docs = await copyDocs(sql, root, batch);
    log(`copied ${docs} documents`);
    const logs = await copyLogs(sql, root, batch);
    log(`copied ${logs} log entries`);
    const walletEntries = await copyWallets(sql, root, [...holds.values()]);
    log(`copied ${walletEntries} wallet entries`);
    const [db] = await sql<Counts[]>`
      SELECT (SELECT count(*)::int FROM chats) AS chats, (SELECT count(*)::int FROM txs) AS txs, (SELECT count(*)::int FROM meta) AS meta,
        (SELECT count(*)::int FROM flows WHERE state IS NOT NULL) AS flows, (SELECT count(*)::int FROM docs) AS docs,
        (SELECT count(*)::int FROM logs) AS logs, (SELECT count(*)::int FROM wallet_entries) AS "walletEntries"`;
    const files: Counts = { chats: chats.size, txs: refIds.size, meta: kv.length, flows: flows.length, docs, logs, walletEntries };
    const database: Counts = { chats: db!.chats, txs: db!.txs, meta: db!.meta, flows: db!.flows, docs: db!.docs, logs: db!.logs, walletEntries: db!.walletEntries };
    return { files, database, ok: (Object.keys(files) as (keyof Counts)[]).every((k) => files[k] === database[k]) };
  } finally {
    await sql.end();
  }
}

/** A row with its record as JSON text (see the chats' batch). */
function asText<R extends { data: unknown }>(row: R): Omit<R, "data"> & { data: string } {
  return { ...row, data: JSON.stringify(row.data) };
}

/** The kinds that have a file in `dir` named `<kind><ext>`, in name order. */
async function kindFiles(dir: string, ext: string): Promise<[kind: string, file: string][]> {
  return (await names(dir))
    .filter((n) => n.endsWith(ext) && KIND_NAME.test(n.slice(0, -ext.length)))
    .sort()
    .map((n) => [n.slice(0, -ext.length), join(dir, n)]);
}

/**
 * Copies docs/<kind>.json with its journal docs/<kind>.jsonl replayed over it (a line counts when newer
 * than the version held; a torn last line, a crash mid-append, is left out, as the file store does);
 * returns how many documents. Only each document's frame is checked here: the kinds' schemas live with
 * the bot, which checks every value it reads. Values travel as JSON text, as chats do. A document the
 * database has at a higher version (the bot already ran there) is the database's.
 */
async function copyDocs(sql: postgres.Sql, root: string, batch: number): Promise<number> {
  let count = 0;
  const dir = join(root, "docs");
  const files = new Map(await kindFiles(dir, ".json"));
  const journals = new Map(await kindFiles(dir, ".jsonl"));
  for (const kind of [...new Set([...files.keys(), ...journals.keys()])].sort()) {
    const docs = new Map<string, z.infer<typeof StoredDocFrame>>();
    const file = files.get(kind);
    if (file !== undefined) {
      const list = ((await readJson(file)) as { docs?: unknown } | null)?.docs;
      if (!Array.isArray(list)) throw new StoreCorruptError(file, 'expected {"docs": [...]}');
      list.forEach((raw, i) => {
        const r = StoredDocFrame.safeParse(raw);
        if (!r.success) throw new StoreCorruptError(file, describeIssues(r.error, `docs[${i}].`));
        docs.set(r.data.id, r.data);
      });
    }
    const journal = journals.get(kind);
    if (journal !== undefined) {
      await readJsonLines(journal, async (raw, n) => {
        const r = StoredDocFrame.safeParse(raw);
        if (!r.success) throw new StoreCorruptError(journal, describeIssues(r.error, `line ${n}: `));
        const held = docs.get(r.data.id);
        if (held === undefined || held.version < r.data.version) docs.set(r.data.id, r.data);
      });
    }
    const rows = [...docs.values()].map((d) => ({
      kind,
      id: d.id,
      owner: d.owner,
      state: d.state,
      version: d.version,
      created_at: d.createdAt,
      updated_at: d.updatedAt,
      data: JSON.stringify(d.value),
    }));
    for (let i = 0; i < rows.length; i += batch) {
      await sql`
        INSERT INTO docs (kind, id, owner, state, version, created_at, updated_at, data)
        SELECT kind, id, owner, state, version, created_at, updated_at, data::json
        FROM json_to_recordset(${JSON.stringify(rows.slice(i, i + batch))}::text::json)
          AS x(kind text, id text, owner bigint, state text, version bigint, created_at bigint, updated_at bigint, data text)
        ON CONFLICT (kind, id) DO UPDATE SET owner = EXCLUDED.owner, state = EXCLUDED.state, version = EXCLUDED.version,
          created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, data = EXCLUDED.data
        WHERE docs.version < EXCLUDED.version`;
    }
    count += rows.length;
  }
  return count;
}

/**
 * Copies logs/<kind>.jsonl, streamed; returns how many entries. Entries are never changed, so one the
 * database has already (same kind, owner and seq) stays as it is.
 */
async function copyLogs(sql: postgres.Sql, root: string, batch: number): Promise<number> {
  let count = 0;
  for (const [kind, file] of await kindFiles(join(root, "logs"), ".jsonl")) {
    let pending: { kind: string; owner: number; seq: number; at: number; data: string }[] = [];
    const insert = async () => {
      const rows = JSON.stringify(pending);
      pending = [];
      await sql`
        INSERT INTO logs (kind, owner, seq, at, data)
        SELECT kind, owner, seq, at, data::json FROM json_to_recordset(${rows}::text::json)
          AS x(kind text, owner bigint, seq bigint, at bigint, data text)
        ON CONFLICT (kind, owner, seq) DO NOTHING`;
    };
    await readJsonLines(file, async (json, n) => {
      const r = StoredLogFrame.safeParse(json);
      if (!r.success) throw new StoreCorruptError(file, `line ${n}: ${describeIssues(r.error)}`);
      pending.push({ kind, owner: r.data.owner, seq: r.data.seq, at: r.data.at, data: JSON.stringify(r.data.entry) });
      count++;
      if (pending.length >= batch) await insert();
    });
    if (pending.length > 0) await insert();
  }
  return count;
}

/**
 * The wallets (file/wallets.ts `wallets.jsonl`): every entry as written (a ref already in the database is
 * left as it is), then each wallet's row from its entries and the records holding money.
 */
async function copyWallets(sql: postgres.Sql, root: string, holds: readonly { chat: number; price: number }[]): Promise<number> {
  const file = join(root, WALLETS_FILE);
  const wallets = new Map<number, { owner: number; balance: number; held: number; lastSeq: number }>();
  const walletOf = (chat: number) => wallets.get(chat) ?? wallets.set(chat, { owner: 0, balance: 0, held: 0, lastSeq: 0 }).get(chat)!;
  let n = 0;
  if ((await names(root)).includes(WALLETS_FILE)) {
    await readJsonLines(file, async (raw, line) => {
      const e = storedEntry(`${file} line ${line}`, raw);
      await sql`INSERT INTO wallet_entries (ref, wallet, seq, at, data) VALUES (${e.ref}, ${e.wallet}, ${e.seq}, ${e.at}, ${JSON.stringify(e)}::text::json) ON CONFLICT (ref) DO NOTHING`;
      const w = walletOf(e.wallet);
      w.owner = e.owner;
      w.balance += e.amount;
      w.lastSeq = Math.max(w.lastSeq, e.seq);
      n++;
    });
  }
  for (const h of holds) walletOf(h.chat).held += h.price;
  for (const [chat, w] of wallets) {
    await sql`
      INSERT INTO wallets (chat, owner, balance, held, last_seq) VALUES (${chat}, ${w.owner}, ${w.balance}, ${w.held}, ${w.lastSeq})
      ON CONFLICT (chat) DO UPDATE SET owner = EXCLUDED.owner, balance = EXCLUDED.balance, held = EXCLUDED.held, last_seq = EXCLUDED.last_seq`;
  }
  return n;
}
