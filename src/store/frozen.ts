/**
 * Records handed out by the store are deeply frozen, never copied: reads are free (the watcher can
 * ask for 10k open transactions every tick) and an accidental `tx.status = ...` throws instead of
 * silently changing the store. Changes go through the store's update methods, which build new records.
 */

/** A value that is not JSON, with the path to it (built only when one is found: a write copies every field). */
class NotJson extends TypeError {
  readonly at: string[] = [];
  constructor(readonly what: string) {
    super(what);
  }
}

/**
 * Copies a JSON value into fresh frozen objects so the caller keeps no handle on store data.
 * `undefined` object properties are dropped (as JSON does), so memory matches what a reload gives.
 * Anything JSON cannot round-trip (Date, Map, functions, NaN...) is refused instead of silently changed.
 */
export function frozenCopy<T>(value: T, path = "value"): T {
  try {
    return copy(value) as T;
  } catch (err) {
    throw named(err, path);
  }
}

/**
 * A schema's output for a frozenCopy (store.ts validates a copy, then keeps the output): checked as
 * frozenCopy checks, its new objects frozen in place instead of copied once more (the output is the
 * parse's own; what it kept of the input is frozen already and was checked by the copy).
 */
export function frozenOutput<T>(value: T, path = "value"): T {
  try {
    return settle(value) as T;
  } catch (err) {
    throw named(err, path);
  }
}

function named(err: unknown, path: string): unknown {
  return err instanceof NotJson ? new TypeError(`${path}${err.at.reverse().join("")} ${err.what}`) : err;
}

function scalar(value: unknown): unknown {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new NotJson("is not a finite number");
    return value;
  }
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  throw new NotJson(`is not JSON (${typeof value})`);
}

function plain(value: object): void {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new NotJson("is not a plain JSON object");
}

function copy(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return scalar(value);
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      try {
        out[i] = copy(value[i]);
      } catch (err) {
        throw within(err, `[${i}]`);
      }
    }
    return Object.freeze(out);
  }
  plain(value);
  const out: Record<string, unknown> = {};
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    const v = (value as Record<string, unknown>)[k];
    if (v === undefined) continue;
    let c: unknown;
    try {
      c = copy(v);
    } catch (err) {
      throw within(err, `.${k}`);
    }
    // A key named __proto__ would set the prototype if assigned.
    if (k === "__proto__") Object.defineProperty(out, k, { value: c, enumerable: true, writable: true, configurable: true });
    else out[k] = c;
  }
  return Object.freeze(out);
}

/** frozenOutput's walk: frozen parts are the copy's (kept), others the parse's (checked, frozen in place). */
function settle(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return scalar(value);
  if (Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      try {
        const s = settle(value[i]);
        if (s !== value[i]) value[i] = s;
      } catch (err) {
        throw within(err, `[${i}]`);
      }
    }
    return Object.freeze(value);
  }
  plain(value);
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    const v = (value as Record<string, unknown>)[k];
    // Dropped as JSON drops it: rare in a parse's output, so a copy rather than a delete in place.
    if (v === undefined) return copy(value);
    let s: unknown;
    try {
      s = settle(v);
    } catch (err) {
      throw within(err, `.${k}`);
    }
    if (s !== v) Object.defineProperty(value, k, { value: s, enumerable: true, writable: true, configurable: true });
  }
  return Object.freeze(value);
}

function within(err: unknown, step: string): unknown {
  if (err instanceof NotJson) err.at.push(step);
  return err;
}

/** Freezes freshly parsed JSON in place (no copy needed: nothing else holds it). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
