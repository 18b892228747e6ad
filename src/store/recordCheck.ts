/**
 * A quick check of stored records (shards at open, rows read from PostgreSQL), made from the record
 * schemas themselves (records.ts): it says yes to a record that zod would give back exactly as stored,
 * about ten times faster than zod's parse; a "no" only means "ask zod".
 */
import * as z from "../tools/zod.js";
import { ChatRecordSchema, TxRecordSchema } from "./records.js";

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** True only when `v` passes the schema and zod would give it back as it is. */
export type AsIs = (v: unknown) => boolean;

/** Whether a walk of a schema met a part it leaves to zod. */
interface Walk {
  askedZod: boolean;
}

/**
 * The quick check of a shard at start-up, made from the record schemas themselves: zod's first
 * parse of 1,000 chats is ~15 ms of cold code; this says yes to records that fit exactly as stored
 * (no key to strip, nothing to convert) in ~1 ms. A "no" only means "ask zod": that shard goes
 * through zod, which converts what it may and names the problem. Kinds of schema or checks not
 * listed here are asked of zod itself (and its answer compared), so a new field cannot slip past.
 */
function asIs(schema: z.core.$ZodType, walk: Walk = { askedZod: false }): AsIs {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const zodAsIs: AsIs = (v) => {
    const r = z.safeParse(schema, v);
    return r.success && JSON.stringify(r.data) === JSON.stringify(v);
  };
  const byZod = (): AsIs => {
    walk.askedZod = true;
    return zodAsIs;
  };
  const checks = ((def.checks ?? []) as z.core.$ZodCheck[]).map((c) => c._zod.def as z.core.$ZodCheckDef & Record<string, unknown>);
  const tests: AsIs[] = [];
  for (const c of checks) {
    if (c.check === "min_length") tests.push((v) => (v as string).length >= (c.minimum as number));
    else if (c.check === "max_length") tests.push((v) => (v as string).length <= (c.maximum as number));
    else if (c.check === "greater_than") tests.push((v) => (c.inclusive ? (v as number) >= (c.value as number) : (v as number) > (c.value as number)));
    else return byZod();
  }
  const passes = (v: unknown) => tests.every((t) => t(v));
  switch (def.type) {
    case "string":
      if (def.coerce) return byZod();
      return tests.length === 0 ? (v) => typeof v === "string" : (v) => typeof v === "string" && passes(v);
    case "number":
      if (def.coerce || (def.format !== undefined && def.format !== "safeint")) return byZod();
      if (def.format === "safeint") return (v) => Number.isSafeInteger(v) && passes(v);
      return tests.length === 0 ? (v) => typeof v === "number" && Number.isFinite(v) : (v) => typeof v === "number" && Number.isFinite(v) && passes(v);
    case "boolean":
      return def.coerce ? byZod() : (v) => typeof v === "boolean";
    case "enum": {
      const values = new Set(Object.values(def.entries as Record<string, unknown>));
      return (v) => values.has(v);
    }
    case "literal": {
      const values = new Set(def.values as unknown[]);
      return (v) => values.has(v);
    }
    case "optional": {
      const inner = asIs(def.innerType as z.core.$ZodType, walk);
      return (v) => v === undefined || inner(v);
    }
    case "nullable": {
      const inner = asIs(def.innerType as z.core.$ZodType, walk);
      return (v) => v === null || inner(v);
    }
    case "array": {
      if (tests.length > 0) return byZod();
      const item = asIs(def.element as z.core.$ZodType, walk);
      return (v) => Array.isArray(v) && v.every(item);
    }
    case "object": {
      if (def.catchall !== undefined) return byZod();
      const shape = Object.entries(def.shape as Record<string, z.core.$ZodType>);
      const fields = new Map(shape.map(([k, s]) => [k, asIs(s, walk)]));
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
    case "record": {
      // Keys of any string (the key schema a plain string): zod checks each value and keeps every key but __proto__.
      const key = def.keyType as z.core.$ZodType;
      const keyDef = key._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
      if (keyDef.type !== "string" || keyDef.coerce || (keyDef.checks?.length ?? 0) > 0 || def.mode === "loose") return byZod();
      const value = asIs(def.valueType as z.core.$ZodType, walk);
      return (v) => {
        if (!isObject(v)) return false;
        for (const k in v) if (k === "__proto__" || !value(v[k])) return false;
        return true;
      };
    }
    case "union": {
      // A discriminated union: the option its key names decides, as in zod.
      const key = def.discriminator as string | undefined;
      if (key === undefined) return byZod();
      const options = new Map<unknown, AsIs>();
      for (const o of def.options as z.core.$ZodType[]) {
        const d = o._zod.def as z.core.$ZodTypeDef & { shape?: Record<string, z.core.$ZodType> };
        const tag = d.shape?.[key]?._zod.def as { type?: string; values?: unknown[] } | undefined;
        if (tag?.type !== "literal" || tag.values?.length !== 1) return byZod();
        options.set(tag.values[0], asIs(o, walk));
      }
      return (v) => isObject(v) && (options.get(v[key])?.(v) ?? false);
    }
    default:
      return byZod();
  }
}

let quick: { chat: AsIs; tx: AsIs } | undefined;
/** Made on the first use: the schemas are walked once per process. */
export const quickChecks = (): { chat: AsIs; tx: AsIs } => (quick ??= { chat: asIs(ChatRecordSchema), tx: asIs(TxRecordSchema) });

const exact = new WeakMap<z.core.$ZodType, AsIs | null>();
/**
 * The quick check of a schema whose every part it knows (none left to zod), made once per schema; else
 * undefined. A write checks its value with it first (a yes is zod's own answer, ~10 times sooner) and
 * asks zod only on a no, so a schema with parts the walk leaves to zod is not parsed twice.
 */
export function exactCheck(schema: z.core.$ZodType): AsIs | undefined {
  let check = exact.get(schema);
  if (check === undefined) {
    const walk: Walk = { askedZod: false };
    const made = asIs(schema, walk);
    check = walk.askedZod ? null : made;
    exact.set(schema, check);
  }
  return check ?? undefined;
}
