/**
 * migrate-store: copies a file store (DATA_DIR: store/ shards and archive/ months) into PostgreSQL.
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
import { describeIssues, TxRecordSchema, type ChatRecord, type TxRecord } from "../records.js";
import { checkChatShard, checkFlowShard, checkMeta, checkTxShard, type FlowEntry } from "../file/schema.js";
import { shardFileName } from "../file/shards.js";
import { PgStore } from "./pgStore.js";
import { chatRow, txRow } from "./rows.js";

export interface Counts {
  chats: number;
  txs: number;
  meta: number;
  /** Chats with a running flow. */
  flows: number;
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

/**
 * Streams every record of the archive's months to `each`, month by month (a month can be larger than
 * memory allows as one string). A torn last line (a crash mid-sweep) is left out, as the file store does.
 */
async function readArchive(dir: string, each: (tx: TxRecord) => Promise<void>): Promise<void> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => /^tx-\d{4}-\d{2}\.jsonl$/.test(n)).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  for (const name of names) {
    const file = join(dir, name);
    const size = (await stat(file)).size;
    if (size === 0) continue;
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
      const r = TxRecordSchema.safeParse(json);
      if (!r.success) throw new StoreCorruptError(file, `line ${n}: ${describeIssues(r.error)}`);
      await each(r.data);
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
    const chatRows = [...chats.values()].map(chatRow);
    for (let i = 0; i < chatRows.length; i += batch) {
      const rows = JSON.stringify(chatRows.slice(i, i + batch));
      await sql`
        INSERT INTO chats (chat_id, callback_token, linked, has_key, updated_at, data)
        SELECT chat_id, callback_token, linked, has_key, updated_at, data
        FROM json_to_recordset(${rows}::text::json)
          AS x(chat_id bigint, callback_token text, linked boolean, has_key boolean, updated_at bigint, data json)
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
      const rows = JSON.stringify([...new Map(pending.map((t) => [t.refId, t])).values()].map(txRow));
      pending = [];
      await sql`
        INSERT INTO txs (ref_id, chat_id, status, upstream_id, created_at, updated_at, month, data)
        SELECT ref_id, chat_id, status, upstream_id, created_at, updated_at, month, data
        FROM json_to_recordset(${rows}::text::json)
          AS x(ref_id text, chat_id bigint, status text, upstream_id text, created_at bigint, updated_at bigint, month text, data json)
        ON CONFLICT (ref_id) DO UPDATE SET chat_id = EXCLUDED.chat_id, status = EXCLUDED.status, upstream_id = EXCLUDED.upstream_id,
          created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, month = EXCLUDED.month, data = EXCLUDED.data,
          version = txs.version + 1
        WHERE txs.data::text IS DISTINCT FROM EXCLUDED.data::text AND txs.updated_at <= EXCLUDED.updated_at`;
    };
    const add = async (tx: TxRecord) => {
      refIds.add(tx.refId);
      pending.push(tx);
      if (pending.length >= batch) await flushTxs();
      if (refIds.size % 100_000 === 0) log(`copied ${refIds.size} transactions`);
    };
    // Archived first, then the hot shards: a record in both is the hot one in the end (it is the newer).
    await readArchive(join(opts.from, "archive"), add);
    for (let i = 0; i < meta.txShards; i++) {
      const file = join(root, shardFileName("tx", i, meta.txShards));
      for (const t of checkTxShard(file, await readJson(file))) await add(t);
    }
    if (pending.length > 0) await flushTxs();
    log(`copied ${refIds.size} transactions`);

    // Meta has no time to compare: a key already in the database is the database's (a bot running on
    // PostgreSQL may have moved a broadcast or a flow on since the first copy).
    for (let i = 0; i < kv.length; i += batch) {
      const rows = JSON.stringify(kv.slice(i, i + batch).map(([key, value]) => ({ key, value })));
      await sql`
        INSERT INTO meta (key, value) SELECT key, value FROM json_to_recordset(${rows}::text::json) AS x(key text, value json)
        ON CONFLICT (key) DO NOTHING`;
    }
    log(`copied ${kv.length} meta keys`);
    for (let i = 0; i < flows.length; i += batch) {
      const rows = JSON.stringify(flows.slice(i, i + batch).map((f) => ({ chat_id: f.chatId, state: f.state })));
      await sql`
        INSERT INTO flows (chat_id, version, state) SELECT chat_id, 1, state FROM json_to_recordset(${rows}::text::json) AS x(chat_id bigint, state json)
        ON CONFLICT (chat_id) DO NOTHING`;
    }
    log(`copied ${flows.length} running flows`);
    const [db] = await sql<Counts[]>`
      SELECT (SELECT count(*)::int FROM chats) AS chats, (SELECT count(*)::int FROM txs) AS txs, (SELECT count(*)::int FROM meta) AS meta,
        (SELECT count(*)::int FROM flows WHERE state IS NOT NULL) AS flows`;
    const files: Counts = { chats: chats.size, txs: refIds.size, meta: kv.length, flows: flows.length };
    const database: Counts = { chats: db!.chats, txs: db!.txs, meta: db!.meta, flows: db!.flows };
    return {
      files,
      database,
      ok: files.chats === database.chats && files.txs === database.txs && files.meta === database.meta && files.flows === database.flows,
    };
  } finally {
    await sql.end();
  }
}
