/**
 * Records handed out by the store are deeply frozen, never copied: reads are free (the watcher can
 * ask for 10k open transactions every tick) and an accidental `tx.status = ...` throws instead of
 * silently changing the store. Changes go through the store's update methods, which build new records.
 */

/**
 * Copies a JSON value into fresh frozen objects so the caller keeps no handle on store data.
 * `undefined` object properties are dropped (as JSON does), so memory matches what a reload gives.
 * Anything JSON cannot round-trip (Date, Map, functions, NaN...) is refused instead of silently changed.
 */
export function frozenCopy<T>(value: T, path = "value"): T {
  return copy(value, path) as T;
}

function copy(value: unknown, path: string): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`${path} is not a finite number`);
    return value;
  }
  if (Array.isArray(value)) return Object.freeze(value.map((v, i) => copy(v, `${path}[${i}]`)));
  if (typeof value === "object") {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw new TypeError(`${path} is not a plain JSON object`);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined) Object.defineProperty(out, k, { value: copy(v, `${path}.${k}`), enumerable: true });
    }
    return Object.freeze(out);
  }
  throw new TypeError(`${path} is not JSON (${typeof value})`);
}

/** Freezes freshly parsed JSON in place (no copy needed: nothing else holds it). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
