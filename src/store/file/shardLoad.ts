/**
 * Reading the shard files at open into the records in memory. A record in the wrong shard, or twice,
 * makes the file refused (StoreCorruptError), like a wrong shape (schema.ts).
 */
import { StoreCorruptError } from "../errors.js";
import { deepFreeze } from "../frozen.js";
import type { RecordIndexes } from "./indexes.js";
import type { ShardNames } from "./layout.js";
import { checkChatShard, checkFlowShard, checkTxShard } from "./schema.js";
import { StoreFile } from "./shards.js";
import { shardSeq } from "./txJournal.js";

/**
 * Reads the shards named in `present` (the folder's entries): a fresh store has none to read.
 * Returns each tx shard's journal sequence number (0 for one not written yet).
 */
export async function loadShards(root: string, names: ShardNames, hot: RecordIndexes, present: ReadonlySet<string>): Promise<number[]> {
  const txSeqs = new Array<number>(names.txs.length).fill(0);
  await Promise.all([
    ...names.chats.map(async (name, i) => {
      if (!present.has(name)) return;
      const file = new StoreFile(root, name);
      for (const chat of checkChatShard(file.path, await file.read())) {
        if (hot.chatShardOf(chat.chatId) !== i || hot.chat(chat.chatId)) {
          throw new StoreCorruptError(file.path, `chat ${chat.chatId} is duplicated or in the wrong shard`);
        }
        hot.putChat(deepFreeze(chat));
      }
    }),
    ...names.txs.map(async (name, i) => {
      if (!present.has(name)) return;
      const file = new StoreFile(root, name);
      const data = await file.read();
      const seq = shardSeq(data);
      if (seq === undefined) throw new StoreCorruptError(file.path, "invalid seq");
      txSeqs[i] = seq;
      for (const tx of checkTxShard(file.path, data)) {
        if (hot.txShardOf(tx.refId) !== i || hot.tx(tx.refId)) {
          throw new StoreCorruptError(file.path, `transaction ${tx.refId} is duplicated or in the wrong shard`);
        }
        hot.putTx(deepFreeze(tx), undefined);
      }
    }),
    ...names.flows.map(async (name, i) => {
      if (!present.has(name)) return;
      const file = new StoreFile(root, name);
      for (const entry of checkFlowShard(file.path, await file.read())) {
        if (hot.flowShardOf(entry.chatId) !== i || hot.flow(entry.chatId)) {
          throw new StoreCorruptError(file.path, `flow of chat ${entry.chatId} is duplicated or in the wrong shard`);
        }
        hot.putFlow(deepFreeze(entry));
      }
    }),
  ]);
  hot.sortHistories();
  return txSeqs;
}
