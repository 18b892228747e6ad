/** On-disk shapes and their checks. A file that fails a check is refused, never "repaired" in place. */
import * as z from "../../tools/zod.js";
import { StoreCorruptError } from "../errors.js";
import { quickChecks } from "../recordCheck.js";
import { ChatRecordSchema, describeIssues, TxRecordSchema, type ChatRecord, type TxRecord } from "../records.js";

/** Bump on any incompatible change of the layout below, and add a migration in layout.ts (openMeta). */
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

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

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

// Whole files are parsed at once: one zod call per shard, the failing index named by the issue path.
const ChatShardSchema = z.object({ chats: z.array(ChatRecordSchema) });
const TxShardSchema = z.object({ txs: z.array(TxRecordSchema) });

/** Returns the records of a chat shard; a missing file (never written) is an empty shard. */
export function checkChatShard(file: string, data: unknown): ChatRecord[] {
  if (data === null) return [];
  if (!isObject(data) || !Array.isArray(data.chats)) throw new StoreCorruptError(file, 'expected {"chats": [...]}');
  if (data.chats.every(quickChecks().chat)) return data.chats as ChatRecord[];
  const r = ChatShardSchema.safeParse(data);
  if (!r.success) throw new StoreCorruptError(file, describeIssues(r.error));
  return r.data.chats;
}

export function checkTxShard(file: string, data: unknown): TxRecord[] {
  if (data === null) return [];
  if (!isObject(data) || !Array.isArray(data.txs)) throw new StoreCorruptError(file, 'expected {"txs": [...]}');
  if (data.txs.every(quickChecks().tx)) return data.txs as TxRecord[];
  const r = TxShardSchema.safeParse(data);
  if (!r.success) throw new StoreCorruptError(file, describeIssues(r.error));
  return r.data.txs;
}

/** Why `c` is not a valid chat record, or undefined. */
export function chatProblem(c: unknown): string | undefined {
  const r = ChatRecordSchema.safeParse(c);
  return r.success ? undefined : describeIssues(r.error);
}

/** Why `t` is not a valid transaction record, or undefined. */
export function txProblem(t: unknown): string | undefined {
  const r = TxRecordSchema.safeParse(t);
  return r.success ? undefined : describeIssues(r.error);
}

/** One chat's flow state as a flow shard keeps it; `state` absent once the flow ended (the version stays). */
export interface FlowEntry {
  chatId: number;
  version: number;
  state?: Record<string, unknown>;
}

export interface FlowShardFile {
  flows: FlowEntry[];
}

const FlowShardSchema = z.object({
  flows: z.array(z.object({ chatId: z.int(), version: z.int().check(z.positive()), state: z.optional(z.record(z.string(), z.unknown())) })),
});

/** Returns the entries of a flow shard; a missing file (never written) is an empty shard. */
export function checkFlowShard(file: string, data: unknown): FlowEntry[] {
  if (data === null) return [];
  const r = FlowShardSchema.safeParse(data);
  if (!r.success) throw new StoreCorruptError(file, describeIssues(r.error));
  return r.data.flows as FlowEntry[];
}
