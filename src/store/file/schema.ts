/** On-disk shapes and their checks. A file that fails a check is refused, never "repaired" in place. */
import * as z from "../../tools/zod.js";
import { StoreCorruptError } from "../errors.js";
import { ChatRecordSchema, describeIssues, TxRecordSchema, type ChatRecord, type TxRecord } from "../records.js";

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

/** True only when `v` passes the schema and zod would give it back as it is. */
type AsIs = (v: unknown) => boolean;

/**
 * The quick check of a shard at start-up, made from the record schemas themselves: zod's first
 * parse of 1,000 chats is ~15 ms of cold code; this says yes to records that fit exactly as stored
 * (no key to strip, nothing to convert) in ~1 ms. A "no" only means "ask zod": that shard goes
 * through zod, which converts what it may and names the problem. Kinds of schema or checks not
 * listed here are asked of zod itself (and its answer compared), so a new field cannot slip past.
 */
function asIs(schema: z.core.$ZodType): AsIs {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const byZod: AsIs = (v) => {
    const r = z.safeParse(schema, v);
    return r.success && JSON.stringify(r.data) === JSON.stringify(v);
  };
  const checks = ((def.checks ?? []) as z.core.$ZodCheck[]).map((c) => c._zod.def as z.core.$ZodCheckDef & Record<string, unknown>);
  const tests: AsIs[] = [];
  for (const c of checks) {
    if (c.check === "min_length") tests.push((v) => (v as string).length >= (c.minimum as number));
    else if (c.check === "greater_than") tests.push((v) => (c.inclusive ? (v as number) >= (c.value as number) : (v as number) > (c.value as number)));
    else return byZod;
  }
  const passes = (v: unknown) => tests.every((t) => t(v));
  switch (def.type) {
    case "string":
      if (def.coerce) return byZod;
      return tests.length === 0 ? (v) => typeof v === "string" : (v) => typeof v === "string" && passes(v);
    case "number":
      if (def.coerce || (def.format !== undefined && def.format !== "safeint")) return byZod;
      if (def.format === "safeint") return (v) => Number.isSafeInteger(v) && passes(v);
      return tests.length === 0 ? (v) => typeof v === "number" && Number.isFinite(v) : (v) => typeof v === "number" && Number.isFinite(v) && passes(v);
    case "boolean":
      return def.coerce ? byZod : (v) => typeof v === "boolean";
    case "enum": {
      const values = new Set(Object.values(def.entries as Record<string, unknown>));
      return (v) => values.has(v);
    }
    case "literal": {
      const values = new Set(def.values as unknown[]);
      return (v) => values.has(v);
    }
    case "optional": {
      const inner = asIs(def.innerType as z.core.$ZodType);
      return (v) => v === undefined || inner(v);
    }
    case "nullable": {
      const inner = asIs(def.innerType as z.core.$ZodType);
      return (v) => v === null || inner(v);
    }
    case "array": {
      if (tests.length > 0) return byZod;
      const item = asIs(def.element as z.core.$ZodType);
      return (v) => Array.isArray(v) && v.every(item);
    }
    case "object": {
      if (def.catchall !== undefined) return byZod;
      const shape = Object.entries(def.shape as Record<string, z.core.$ZodType>);
      const fields = new Map(shape.map(([k, s]) => [k, asIs(s)]));
      // Only the keys a record has are checked (most fields are optional and absent).
      const required = shape.filter(([, s]) => s._zod.optin !== "optional").map(([k]) => k);
      return (v) => {
        if (!isObject(v)) return false;
        for (const k in v) {
          const ok = fields.get(k);
          if (ok === undefined || !ok(v[k])) return false; // unknown: zod would drop it
        }
        for (const k of required) if (!Object.hasOwn(v, k)) return false;
        return true;
      };
    }
    case "union": {
      // A discriminated union: the option its key names decides, as in zod.
      const key = def.discriminator as string | undefined;
      if (key === undefined) return byZod;
      const options = new Map<unknown, AsIs>();
      for (const o of def.options as z.core.$ZodType[]) {
        const d = o._zod.def as z.core.$ZodTypeDef & { shape?: Record<string, z.core.$ZodType> };
        const tag = d.shape?.[key]?._zod.def as { type?: string; values?: unknown[] } | undefined;
        if (tag?.type !== "literal" || tag.values?.length !== 1) return byZod;
        options.set(tag.values[0], asIs(o));
      }
      return (v) => isObject(v) && (options.get(v[key])?.(v) ?? false);
    }
    default:
      return byZod;
  }
}

let quick: { chat: AsIs; tx: AsIs } | undefined;
/** Made on the first shard read: the schemas are walked once per process. */
const quickChecks = () => (quick ??= { chat: asIs(ChatRecordSchema), tx: asIs(TxRecordSchema) });

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
