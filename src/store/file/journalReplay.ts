/**
 * The transactions' journal (txJournal.ts) replayed over the shards at open: a line newer than its
 * shard (line seq > shard seq) holds a version at least as new and is applied, in file order (the
 * older file first); a line not newer is already in the shard, or older than it, and is skipped.
 */
import { join } from "node:path";
import { StoreCorruptError } from "../errors.js";
import { deepFreeze } from "../frozen.js";
import type { RecordIndexes } from "./indexes.js";
import { readLines } from "./kindFiles.js";
import { checkTxShard } from "./schema.js";
import { JOURNAL, journalLine, OLD_JOURNAL, type TxJournal } from "./txJournal.js";

export interface ReplayDeps {
  root: string;
  /** The folder's entries. */
  present: ReadonlySet<string>;
  /** Each tx shard's sequence number (shardLoad.ts). */
  txSeqs: readonly number[];
  hot: RecordIndexes;
  journal: TxJournal;
  /** Marks tx shard `i` for writing. */
  markTxShard: (i: number) => void;
  warn: (message: string) => void;
}

/** Applies the lines and sets the journal's numbering above all seen; returns whether it had lines. */
export async function replayJournal({ root, present, txSeqs, hot, journal, markTxShard, warn }: ReplayDeps): Promise<boolean> {
  let lines = 0;
  let seen = Math.max(0, ...txSeqs);
  for (const name of [OLD_JOURNAL, JOURNAL]) {
    if (!present.has(name)) continue;
    const path = join(root, name);
    await readLines(path, warn, (text, n) => {
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        throw new StoreCorruptError(path, `line ${n}: invalid JSON`);
      }
      const line = journalLine(raw);
      if (!line) throw new StoreCorruptError(path, `line ${n}: expected {"seq": n, "tx": {...}}`);
      const [tx] = checkTxShard(path, { txs: [line.tx] });
      lines++;
      seen = Math.max(seen, line.seq);
      const i = hot.txShardOf(tx!.refId);
      if (line.seq <= txSeqs[i]!) return; // the shard was written after this line: it holds as new or newer
      hot.putTx(deepFreeze(tx!), hot.tx(tx!.refId));
      markTxShard(i);
    });
  }
  journal.resume(seen);
  return lines > 0;
}
