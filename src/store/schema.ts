/** On-disk shapes and their checks. A file that fails a check is refused, never "repaired" in place. */
import type { ChatRecord, TxRecord, TxStatus } from "./types.js";
import { StoreCorruptError } from "./errors.js";

/** Bump on any incompatible change of the layout below, and add a migration in store.ts. */
export const SCHEMA_VERSION = 1;
export const DEFAULT_CHAT_SHARDS = 64;
export const DEFAULT_TX_SHARDS = 64;
const MAX_SHARDS = 4096;

export interface MetaFile {
  schema: number;
  /** Shard counts are pinned at creation: a record's file depends on them. */
  chatShards: number;
  txShards: number;
  /** Fingerprint of the encryption key (see crypto.ts keyCheck). */
  keyCheck: string;
  kv: Record<string, unknown>;
}

export interface ChatShardFile {
  chats: ChatRecord[];
}

export interface TxShardFile {
  txs: TxRecord[];
}

const STATUSES: ReadonlySet<string> = new Set<TxStatus>([
  "draft",
  "sending",
  "unknown",
  "pending",
  "processing",
  "success",
  "failed",
  "expired",
  "cancel",
]);
const KINDS: ReadonlySet<string> = new Set(["prepaid", "postpaid", "transfer", "deposit"]);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const isTime = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v);
const isShardCount = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_SHARDS;

export function checkMeta(file: string, data: unknown): MetaFile {
  if (!isObject(data)) throw new StoreCorruptError(file, "expected a JSON object");
  const { schema } = data;
  if (!Number.isInteger(schema) || (schema as number) < 1) {
    throw new StoreCorruptError(file, `missing or invalid schema version ${JSON.stringify(schema)}`);
  }
  if ((schema as number) > SCHEMA_VERSION) {
    throw new StoreCorruptError(
      file,
      `schema version ${String(schema)} was written by a newer version of the bot (this one understands up to ${SCHEMA_VERSION})`,
    );
  }
  if (!isShardCount(data.chatShards) || !isShardCount(data.txShards)) {
    throw new StoreCorruptError(file, "invalid chatShards/txShards");
  }
  if (typeof data.keyCheck !== "string" || !isObject(data.kv)) {
    throw new StoreCorruptError(file, "missing keyCheck or kv");
  }
  return data as unknown as MetaFile;
}

/** Returns the records of a chat shard; a missing file (never written) is an empty shard. */
export function checkChatShard(file: string, data: unknown): ChatRecord[] {
  if (data === null) return [];
  if (!isObject(data) || !Array.isArray(data.chats)) throw new StoreCorruptError(file, 'expected {"chats": [...]}');
  data.chats.forEach((c: unknown, i) => {
    const bad = chatProblem(c);
    if (bad) throw new StoreCorruptError(file, `chats[${i}]: ${bad}`);
  });
  return data.chats as ChatRecord[];
}

export function checkTxShard(file: string, data: unknown): TxRecord[] {
  if (data === null) return [];
  if (!isObject(data) || !Array.isArray(data.txs)) throw new StoreCorruptError(file, 'expected {"txs": [...]}');
  data.txs.forEach((t: unknown, i) => {
    const bad = txProblem(t);
    if (bad) throw new StoreCorruptError(file, `txs[${i}]: ${bad}`);
  });
  return data.txs as TxRecord[];
}

export function chatProblem(c: unknown): string | undefined {
  if (!isObject(c)) return "not an object";
  if (!Number.isSafeInteger(c.chatId)) return "chatId is not an integer";
  if (!isTime(c.createdAt) || !isTime(c.updatedAt)) return "createdAt/updatedAt missing";
  if (c.apiKeyEnc !== undefined && typeof c.apiKeyEnc !== "string") return "apiKeyEnc is not a string";
  if (c.lang !== undefined && c.lang !== "id" && c.lang !== "en") return "unknown lang";
  return undefined;
}

export function txProblem(t: unknown): string | undefined {
  if (!isObject(t)) return "not an object";
  if (typeof t.refId !== "string" || t.refId === "") return "refId missing";
  if (!Number.isSafeInteger(t.chatId)) return "chatId is not an integer";
  if (typeof t.status !== "string" || !STATUSES.has(t.status)) return `unknown status ${JSON.stringify(t.status)}`;
  if (typeof t.kind !== "string" || !KINDS.has(t.kind)) return `unknown kind ${JSON.stringify(t.kind)}`;
  if (typeof t.amount !== "number" || !Number.isFinite(t.amount)) return "amount is not a number";
  if (!isTime(t.createdAt) || !isTime(t.updatedAt)) return "createdAt/updatedAt missing";
  if (t.upstreamId !== undefined && typeof t.upstreamId !== "string") return "upstreamId is not a string";
  return undefined;
}
