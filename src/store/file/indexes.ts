/**
 * The file store's records in memory, by shard (a record's shard names its file), and the five indexes
 * kept in step with them so no read needs a full scan: linked chats, open transactions, each chat's
 * history in order, provider ids and callback tokens. Records and indexes change only here, together;
 * which file then needs writing is the caller's to mark.
 */
import { shardIndex } from "./shards.js";
import type { FlowEntry } from "./schema.js";
import { OPEN_STATUSES, type ChatRecord, type TxRecord } from "../records.js";

/** Position of a transaction in its chat's history: sorted by (createdAt, refId). */
export interface TxPos {
  at: number;
  refId: string;
}

export class RecordIndexes {
  private readonly chatShards: Map<number, ChatRecord>[];
  private readonly txShards: Map<string, TxRecord>[];
  private readonly flowShards: Map<number, FlowEntry>[];
  private readonly linked = new Map<number, ChatRecord>();
  private readonly open = new Map<string, TxRecord>();
  private readonly byChat = new Map<number, TxPos[]>();
  private readonly byUpstream = new Map<string, string>();
  private readonly byCallbackToken = new Map<string, number>();

  /** Flows are sharded as their chat (chatShards). */
  constructor(chatShards: number, txShards: number) {
    this.chatShards = Array.from({ length: chatShards }, () => new Map());
    this.txShards = Array.from({ length: txShards }, () => new Map());
    this.flowShards = Array.from({ length: chatShards }, () => new Map());
  }

  chatShardOf(chatId: number): number {
    return shardIndex(chatId, this.chatShards.length);
  }

  txShardOf(refId: string): number {
    return shardIndex(refId, this.txShards.length);
  }

  flowShardOf(chatId: number): number {
    return shardIndex(chatId, this.flowShards.length);
  }

  chat(chatId: number): Readonly<ChatRecord> | undefined {
    return this.chatShards[this.chatShardOf(chatId)]!.get(chatId);
  }

  tx(refId: string): Readonly<TxRecord> | undefined {
    return this.txShards[this.txShardOf(refId)]!.get(refId);
  }

  flow(chatId: number): FlowEntry | undefined {
    return this.flowShards[this.flowShardOf(chatId)]!.get(chatId);
  }

  chatsOfShard(i: number): IterableIterator<ChatRecord> {
    return this.chatShards[i]!.values();
  }

  txsOfShard(i: number): IterableIterator<TxRecord> {
    return this.txShards[i]!.values();
  }

  flowsOfShard(i: number): IterableIterator<FlowEntry> {
    return this.flowShards[i]!.values();
  }

  *eachChat(): IterableIterator<Readonly<ChatRecord>> {
    for (const shard of this.chatShards) yield* shard.values();
  }

  *eachTx(): IterableIterator<TxRecord> {
    for (const shard of this.txShards) yield* shard.values();
  }

  chatCount(): number {
    return this.chatShards.reduce((n, s) => n + s.size, 0);
  }

  txCount(): number {
    return this.txShards.reduce((n, s) => n + s.size, 0);
  }

  openCount(): number {
    return this.open.size;
  }

  /** Chats with an api key that have not blocked the bot. */
  linkedChats(): Readonly<ChatRecord>[] {
    return Array.from(this.linked.values());
  }

  /** Transactions whose status is in OPEN_STATUSES. */
  openTxs(): Readonly<TxRecord>[] {
    return Array.from(this.open.values());
  }

  chatIdByCallbackToken(token: string): number | undefined {
    return this.byCallbackToken.get(token);
  }

  refIdByUpstream(chatId: number, upstreamId: string): string | undefined {
    return this.byUpstream.get(upstreamKey(chatId, upstreamId));
  }

  /** The chat's hot transactions in history order (live: read it, do not keep it). */
  history(chatId: number): readonly TxPos[] {
    return this.byChat.get(chatId) ?? [];
  }

  putChat(rec: ChatRecord): void {
    const shard = this.chatShards[this.chatShardOf(rec.chatId)]!;
    const old = shard.get(rec.chatId)?.callbackToken;
    if (old !== undefined && old !== rec.callbackToken) this.byCallbackToken.delete(old);
    if (rec.callbackToken !== undefined) this.byCallbackToken.set(rec.callbackToken, rec.chatId);
    shard.set(rec.chatId, rec);
    if (rec.apiKeyEnc !== undefined && !rec.inactive) this.linked.set(rec.chatId, rec);
    else this.linked.delete(rec.chatId);
  }

  /** `old`: the version `rec` replaces, undefined for a new transaction. */
  putTx(rec: TxRecord, old: TxRecord | undefined): void {
    this.txShards[this.txShardOf(rec.refId)]!.set(rec.refId, rec);
    if (OPEN_STATUSES.has(rec.status)) this.open.set(rec.refId, rec);
    else this.open.delete(rec.refId);
    if (old?.upstreamId !== undefined && old.upstreamId !== rec.upstreamId) {
      this.byUpstream.delete(upstreamKey(old.chatId, old.upstreamId));
    }
    if (rec.upstreamId !== undefined) this.byUpstream.set(upstreamKey(rec.chatId, rec.upstreamId), rec.refId);
    if (!old) {
      // createdAt and chatId never change, so only a new transaction moves the history index.
      let list = this.byChat.get(rec.chatId);
      if (!list) this.byChat.set(rec.chatId, (list = []));
      insertSorted(list, { at: rec.createdAt, refId: rec.refId });
    }
  }

  /** Forgets a transaction (it lives on in the archive). */
  dropTx(rec: TxRecord): void {
    this.txShards[this.txShardOf(rec.refId)]!.delete(rec.refId);
    this.open.delete(rec.refId);
    if (rec.upstreamId !== undefined) this.byUpstream.delete(upstreamKey(rec.chatId, rec.upstreamId));
    const list = this.byChat.get(rec.chatId);
    if (list) {
      const i = lowerBound(list, { at: rec.createdAt, refId: rec.refId });
      if (list[i]?.refId === rec.refId) list.splice(i, 1);
      if (list.length === 0) this.byChat.delete(rec.chatId);
    }
  }

  putFlow(entry: FlowEntry): void {
    this.flowShards[this.flowShardOf(entry.chatId)]!.set(entry.chatId, entry);
  }

  /** Loading appends histories in file order: each is sorted once after. */
  sortHistories(): void {
    for (const list of this.byChat.values()) list.sort(comparePos);
  }
}

function upstreamKey(chatId: number, upstreamId: string): string {
  return `${chatId}\u0000${upstreamId}`;
}

export function comparePos(a: TxPos, b: TxPos): number {
  return a.at - b.at || (a.refId < b.refId ? -1 : a.refId > b.refId ? 1 : 0);
}

/** First index whose position is not below `pos`. */
export function lowerBound(list: readonly TxPos[], pos: TxPos): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePos(list[mid]!, pos) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** New transactions almost always go last; otherwise binary search. */
function insertSorted(list: TxPos[], pos: TxPos): void {
  const last = list[list.length - 1];
  if (!last || comparePos(last, pos) <= 0) {
    list.push(pos);
    return;
  }
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePos(list[mid]!, pos) <= 0) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, pos);
}
