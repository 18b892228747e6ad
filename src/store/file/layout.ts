/**
 * The file store's files under `<dir>/store/` (where `dir` is DATA_DIR): their names, the folder's
 * permissions, meta.json at open, and the writer of each file.
 *   meta.json          {schema, chatShards, txShards, keyCheck, kv}  pretty-printed, small
 *   chats-00.json ..   {"chats": ChatRecord[]}  shard = fnv1a(String(chatId)) % chatShards
 *   tx-00.json ..      {"txs": TxRecord[], "seq": n}  shard = fnv1a(refId) % txShards; seq: txJournal.ts
 *   tx.jsonl           {"seq": n, "tx": TxRecord} a line: flushTx's records, fsync-ed (txJournal.ts)
 *   tx.old.jsonl       the same before its last rotation, until the shards caught up with it
 *   flows-00.json ..   {"flows": FlowEntry[]}   running flows; shard as the chat's (chatShards)
 *   docs/<kind>.json   {"docs": Doc[]}          documents of a kind (docFiles.ts)
 *   docs/<kind>.jsonl  one document a line      changed since docs/<kind>.json, fsync-ed (docFiles.ts)
 *   logs/<kind>.jsonl  one log entry a line      append-only, fsync-ed (docFiles.ts)
 *   .<name>.tmp        the temp file of an atomic write (temp + rename, shards.ts)
 *
 * Why shards: a change rewrites only its shard. With 64 chat shards, 100k linked chats are ~1.6k per
 * shard (~0.4 MB, ~1 ms to serialise), keeping event-loop stalls short under write bursts; a burst
 * that touches every shard still rewrites all ~30 MB, in ~0.2 s spread over many turns.
 * Shard counts are pinned in meta.json when the store is created, since a record's file depends on them.
 */
import { chmod, mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { StoreCorruptError } from "../errors.js";
import type { RecordIndexes } from "./indexes.js";
import { checkMeta, DEFAULT_CHAT_SHARDS, DEFAULT_TX_SHARDS, SCHEMA_VERSION, type ChatShardFile, type FlowShardFile, type MetaFile } from "./schema.js";
import { recordsText, shardFileName, StoreFile } from "./shards.js";
import type { TxJournal } from "./txJournal.js";

export const META = "meta.json";

/** The shard files' names, by shard index. */
export interface ShardNames {
  chats: string[];
  txs: string[];
  flows: string[];
}

export function shardNames(meta: MetaFile): ShardNames {
  const names = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => shardFileName(prefix, i, count));
  return { chats: names("chats", meta.chatShards), txs: names("tx", meta.txShards), flows: names("flows", meta.chatShards) };
}

/**
 * Api keys (encrypted) and money records: the folder and its files are for the owner only (0700 / 0600).
 * Returns the names in the folder (of any type: a directory named like a shard is still refused when read).
 */
export async function ownerOnly(root: string): Promise<Set<string>> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  await chmod(root, 0o700);
  const entries = await readdir(root, { withFileTypes: true });
  // At once, not one thread-pool round trip after another: a store with data has ~130 files.
  await Promise.all(entries.filter((e) => e.isFile()).map((e) => chmod(join(root, e.name), 0o600)));
  return new Set(entries.map((e) => e.name));
}

/**
 * meta.json read and checked; or, when there is none, a new store's (`fresh`: its keyCheck is set once
 * the key is derived). `present`: the folder's entries.
 */
export async function openMeta(
  root: string,
  present: ReadonlySet<string>,
  counts: { chatShards?: number | undefined; txShards?: number | undefined },
): Promise<{ meta: MetaFile; fresh: boolean }> {
  const metaFile = new StoreFile<MetaFile>(root, META, true);
  const raw = await metaFile.read();
  if (raw !== null) {
    // Migrations from older schema versions go here once there is more than one.
    return { meta: checkMeta(metaFile.path, raw), fresh: false };
  }
  // Data files without meta.json: something deleted it. Starting empty would shadow that data.
  const orphans = [...present].filter((n) => /^(chats|tx|flows)-\d+\.json$|^tx(\.old)?\.jsonl$/.test(n));
  if (orphans.length > 0) {
    throw new StoreCorruptError(metaFile.path, `missing, but ${orphans.length} data files exist (${orphans[0]}...)`);
  }
  const meta: MetaFile = {
    schema: SCHEMA_VERSION,
    chatShards: counts.chatShards ?? DEFAULT_CHAT_SHARDS,
    txShards: counts.txShards ?? DEFAULT_TX_SHARDS,
    keyCheck: "", // set by the caller, once the key is derived
    kv: {},
  };
  return { meta, fresh: true };
}

/** The writer of meta.json and of every shard file, by file name; `meta` gives the current meta with its kv. */
export function layoutWriters(
  root: string,
  names: ShardNames,
  hot: RecordIndexes,
  journal: TxJournal,
  meta: () => MetaFile,
): Map<string, () => Promise<void>> {
  const writers = new Map<string, () => Promise<void>>();
  const metaFile = new StoreFile<MetaFile>(root, META, true);
  writers.set(META, () => metaFile.write(meta()));
  names.chats.forEach((name, i) => {
    const file = new StoreFile<ChatShardFile>(root, name);
    writers.set(name, () => file.write({ chats: Array.from(hot.chatsOfShard(i)) }));
  });
  names.txs.forEach((name, i) => {
    // Written on every change of one of its ~150 records: each record's text is made once (shards.ts).
    const file = StoreFile.ofText(root, name);
    writers.set(name, () => {
      // The journal's number reached now: its lines up to here are in this text or older than it (txJournal.ts).
      const seq = journal.lastSeq();
      return file.write(recordsText("txs", hot.txsOfShard(i), seq)).then(() => journal.shardWritten(i, seq));
    });
  });
  names.flows.forEach((name, i) => {
    const file = new StoreFile<FlowShardFile>(root, name);
    writers.set(name, () => file.write({ flows: Array.from(hot.flowsOfShard(i)) }));
  });
  return writers;
}

/** Times one file write (serialising included) for `onWrite`. */
export function observeWrite(name: string, write: () => Promise<void>, onWrite: ((file: string, ok: boolean, seconds: number) => void) | undefined): Promise<void> {
  if (!onWrite) return write();
  const t0 = performance.now();
  let written: Promise<void>;
  try {
    written = write();
  } catch (err) {
    written = Promise.reject(err);
  }
  return written.then(
    () => onWrite(name, true, (performance.now() - t0) / 1000),
    (err: unknown) => {
      onWrite(name, false, (performance.now() - t0) / 1000);
      throw err;
    },
  );
}
