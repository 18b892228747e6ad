/**
 * frozen.ts: a write's copy and its schema output's freeze keep what a reload gives (undefined fields
 * dropped, everything frozen) and refuse what JSON cannot hold, naming the path to it.
 */
import { describe, expect, it } from "vitest";
import { frozenCopy, frozenOutput } from "../../src/store/frozen.js";

describe("frozenCopy", () => {
  it("copies deeply, frozen, without undefined fields, keeping a __proto__ key as data", () => {
    const src = JSON.parse('{"a":{"b":[1,{"c":"x"}]},"__proto__":{"p":1}}') as Record<string, unknown>;
    (src as { u?: unknown }).u = undefined;
    const out = frozenCopy(src);
    expect(out).not.toBe(src);
    expect(JSON.stringify(out)).toBe('{"a":{"b":[1,{"c":"x"}]},"__proto__":{"p":1}}');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.isFrozen(out) && Object.isFrozen((out as { a: { b: unknown[] } }).a.b[1])).toBe(true);
    expect("u" in out).toBe(false);
  });

  it("names the path to what is not JSON", () => {
    expect(() => frozenCopy({ a: [1, { b: Number.NaN }] }, "tx")).toThrow("tx.a[1].b is not a finite number");
    expect(() => frozenCopy({ a: { d: new Date(0) } })).toThrow("value.a.d is not a plain JSON object");
    expect(() => frozenCopy([() => 1], "doc")).toThrow("doc[0] is not JSON (function)");
    expect(() => frozenCopy(undefined)).toThrow("value is not JSON (undefined)");
  });
});

describe("frozenOutput", () => {
  it("freezes a parse's new objects in place and keeps the frozen parts as they are", () => {
    const kept = frozenCopy({ k: [1] });
    const output = { kept, fresh: { list: [{ n: 1 }] } };
    const out = frozenOutput(output);
    expect(out).toBe(output);
    expect(out.kept).toBe(kept);
    expect(Object.isFrozen(out) && Object.isFrozen(out.fresh.list[0])).toBe(true);
  });

  it("drops undefined fields as a reload would, and refuses what is not JSON", () => {
    const out = frozenOutput({ a: { b: 1, c: undefined } });
    expect(JSON.stringify(out)).toBe('{"a":{"b":1}}');
    expect("c" in out.a).toBe(false);
    expect(Object.isFrozen(out.a)).toBe(true);
    expect(() => frozenOutput({ a: { when: new Date(0) } }, "order SO1")).toThrow("order SO1.a.when is not a plain JSON object");
    expect(() => frozenOutput({ a: [Number.POSITIVE_INFINITY] })).toThrow("value.a[0] is not a finite number");
  });
});
