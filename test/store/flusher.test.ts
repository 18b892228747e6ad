import { afterEach, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../src/tools/clock.js";
import { Flusher } from "../../src/store/file/flusher.js";
import { ioTurn } from "../support/settle.js";

/** A writer whose writes finish only when the test says so; it records what each write saw. */
function heldWriter(state: Map<string, number>) {
  const pending: { key: string; saw: number; finish: () => void }[] = [];
  const active = new Map<string, number>();
  let maxActive = 0;
  const write = (key: string): Promise<void> => {
    const n = (active.get(key) ?? 0) + 1;
    active.set(key, n);
    maxActive = Math.max(maxActive, n);
    return new Promise<void>((resolve) => {
      pending.push({
        key,
        saw: state.get(key) ?? 0,
        finish: () => {
          active.set(key, (active.get(key) ?? 1) - 1);
          resolve();
        },
      });
    });
  };
  return { write, pending, maxActive: () => maxActive };
}


afterEach(() => {
  vi.useRealTimers();
});

describe("Flusher", () => {
  it("a flush waits only for changes made before it, and a file never has two writes in flight", async () => {
    const state = new Map<string, number>();
    const w = heldWriter(state);
    const f = new Flusher({ clock: new ManualClock(), delayMs: 50, write: w.write });
    const change = (key: string) => {
      state.set(key, (state.get(key) ?? 0) + 1);
      f.markDirty(key);
    };

    change("a");
    let firstDone = false;
    const first = f.flush().then(() => (firstDone = true));
    await ioTurn();
    expect(w.pending.map((p) => [p.key, p.saw])).toEqual([["a", 1]]);

    change("a"); // while a's first write is in flight
    let secondDone = false;
    const second = f.flush().then(() => (secondDone = true));
    await ioTurn();
    expect(w.pending).toHaveLength(1); // no second write of "a" yet

    w.pending.shift()!.finish();
    await first;
    await ioTurn();
    expect(firstDone).toBe(true);
    expect(secondDone).toBe(false);
    expect(w.pending.map((p) => [p.key, p.saw])).toEqual([["a", 2]]);

    w.pending.shift()!.finish();
    await second;
    expect(w.maxActive()).toBe(1);
    expect(f.stats()).toMatchObject({ writes: 2, dirty: 0 });
  });

  it("flushFiles writes its files ahead of a pass over the others and resolves once they are written", async () => {
    const state = new Map<string, number>();
    const w = heldWriter(state);
    const f = new Flusher({ clock: new ManualClock(), delayMs: 50, write: w.write });
    const change = (key: string) => {
      state.set(key, (state.get(key) ?? 0) + 1);
      f.markDirty(key);
    };
    const files = Array.from({ length: 20 }, (_, i) => `tx-${String(i).padStart(2, "0")}`);
    for (const key of files) change(key);
    let allDone = false;
    const all = f.flush().then(() => (allDone = true));
    await ioTurn();
    expect(w.pending.map((p) => p.key)).toEqual(files.slice(0, 8)); // 8 writes at a time

    change("tx-19"); // the record a notice's marker is in: its file is the last of the pass
    change("tx-03"); // and one whose file is being written (the write in flight saw the old change)
    let mineDone = false;
    const mine = f.flushFiles(["tx-19", "tx-03"]).then(() => (mineDone = true));
    w.pending.find((p) => p.key === "tx-00")!.finish();
    await ioTurn();
    expect(w.pending.at(-1)).toMatchObject({ key: "tx-19", saw: 2 }); // next, ahead of tx-08 .. tx-18
    w.pending.find((p) => p.key === "tx-19")!.finish();
    w.pending.find((p) => p.key === "tx-03")!.finish();
    await ioTurn();
    // Two writes free: the pass and the waiting file take turns (tx-08, then tx-03 again).
    expect(w.pending.slice(-2).map((p) => [p.key, p.saw])).toEqual([["tx-08", 1], ["tx-03", 2]]);
    expect(mineDone).toBe(false); // tx-03's change is not on disk yet
    w.pending.find((p) => p.key === "tx-03" && p.saw === 2)!.finish();
    await mine;
    expect(mineDone).toBe(true);
    expect(allDone).toBe(false); // most of the pass is still to be written

    while (w.pending.length > 0) {
      for (const p of w.pending.splice(0)) p.finish();
      await ioTurn();
    }
    await all;
    expect(allDone).toBe(true);
  });

  it("a stream of flushFiles callers does not hold up a flush of the whole store: they take turns", async () => {
    const state = new Map<string, number>();
    const w = heldWriter(state);
    const f = new Flusher({ clock: new ManualClock(), delayMs: 50, write: w.write });
    const change = (key: string) => {
      state.set(key, (state.get(key) ?? 0) + 1);
      f.markDirty(key);
    };
    for (let i = 0; i < 12; i++) change(`other-${i}`);
    let allDone = false;
    const all = f.flush().then(() => (allDone = true));
    await ioTurn();
    // Every time a write ends, a new marker arrives for a file of its own (a notice a second per shard).
    for (let n = 0; !allDone && n < 40; n++) {
      change(`tx-${n}`);
      void f.flushFiles([`tx-${n}`]);
      w.pending.shift()!.finish();
      await ioTurn();
    }
    expect(allDone).toBe(true); // within the 40 writes, not after the markers stopped
    while (w.pending.length > 0) {
      for (const p of w.pending.splice(0)) p.finish();
      await ioTurn();
    }
    await all;
  });

  it("coalesces a burst on the timer into one write per file", async () => {
    const clock = new ManualClock();
    const written: string[] = [];
    const f = new Flusher({ clock, delayMs: 50, write: async (k) => void written.push(k) });
    for (let i = 0; i < 300; i++) f.markDirty(`k${i % 3}`);
    await clock.advance(49);
    expect(written).toEqual([]);
    await clock.advance(1);
    await f.flush();
    expect(written.sort()).toEqual(["k0", "k1", "k2"]);
    expect(clock.pendingTimers()).toBe(0);
  });

  it("a throwing serialiser rejects the flush and keeps the file dirty", async () => {
    let fail = true;
    const f = new Flusher({
      clock: new ManualClock(),
      delayMs: 50,
      write: async () => {
        if (fail) throw new Error("boom");
      },
    });
    f.markDirty("x");
    await expect(f.flush()).rejects.toThrow("boom");
    expect(f.stats().dirty).toBe(1);
    fail = false;
    await f.flush();
    expect(f.stats().dirty).toBe(0);
  });

  it("works while a test fakes timers (no reliance on setImmediate for small flushes)", async () => {
    vi.useFakeTimers();
    const written: string[] = [];
    const f = new Flusher({ clock: new ManualClock(), delayMs: 50, write: async (k) => void written.push(k) });
    f.markDirty("a");
    f.markDirty("b");
    await f.flush();
    expect(written).toEqual(["a", "b"]);
  });
});

describe("Flusher: a file with a delay of its own (the tx shards)", () => {
  /** A flusher where "tx" waits 1,000 ms and every other file 50 ms; writes finish at once and are counted. */
  function withTxDelay() {
    const clock = new ManualClock();
    const start = clock.now();
    /** Each write and when it began, in ms from the start. */
    const writes: { key: string; at: number }[] = [];
    const f = new Flusher({
      clock,
      delayMs: 50,
      delayOf: (key) => (key === "tx" ? 1000 : 50),
      write: async (key) => void writes.push({ key, at: clock.now() - start }),
    });
    return { clock, start, f, writes, count: (key: string) => writes.filter((w) => w.key === key).length };
  }

  it("under a stream of changes the timer rewrites it once per its delay, the other files at theirs", async () => {
    const { clock, f, count } = withTxDelay();
    for (let t = 0; t < 3000; t += 10) {
      f.markDirty("tx");
      f.markDirty("chats");
      await clock.advance(10);
    }
    await clock.advance(1000);
    // Every change reached the disk, "tx" in 3 or 4 writes where it took one per 50 ms pass before.
    expect(f.stats().dirty).toBe(0);
    expect(count("tx")).toBeGreaterThanOrEqual(3);
    expect(count("tx")).toBeLessThanOrEqual(4);
    expect(count("chats")).toBeGreaterThanOrEqual(50);
  });

  it("another file's change is still written after the short delay while the long timer is set", async () => {
    const { clock, f, writes } = withTxDelay();
    f.markDirty("tx");
    await clock.advance(500);
    f.markDirty("chats");
    await clock.advance(50);
    expect(writes).toEqual([{ key: "chats", at: 550 }]);
    await clock.advance(450);
    expect(writes.at(-1)).toEqual({ key: "tx", at: 1000 });
  });

  it("flush() and flushFiles() write it at once, not after its delay", async () => {
    const { clock, start, f, writes } = withTxDelay();
    f.markDirty("tx");
    await clock.advance(10);
    await f.flushFiles(["tx"]);
    expect(writes).toEqual([{ key: "tx", at: 10 }]);
    f.markDirty("tx");
    f.markDirty("chats");
    await f.flush();
    expect(writes.map((w) => w.key).sort()).toEqual(["chats", "tx", "tx"]);
    expect(clock.now() - start).toBe(10);
  });
});
