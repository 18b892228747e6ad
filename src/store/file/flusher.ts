/**
 * Coalesced writes. A change marks its file dirty; a flush after `delayMs` writes each dirty file
 * once, however many changes hit it in between.
 *
 * The flush is a single pump that drains the dirty set: a change made while it runs is picked up in
 * the same pass (or, if its file was already serialised, once that write finished), so time to persist
 * is about one pass, not two. A file never has two writes in flight.
 *
 * Serialising a file blocks the event loop, so the pump yields (setImmediate) once it has serialised
 * for a few ms, and keeps a few writes in flight: the longest stall is about one shard, not all of them.
 * Small flushes never touch setImmediate, so tests with faked timers still see their writes land.
 *
 * `flush()` resolves once every change made before the call is on disk. Each file has a change
 * counter; a caller waits for the counters it saw, so it is not held up by later changes.
 * `flushFiles(keys)` waits for those files only, and they are written before any other: a caller
 * that needs one record on disk (a notice's marker) waits for about one write, not a pass.
 *
 * A file may have a longer delay of its own (`delayOf`): the timer's passes leave it until that long
 * after its first unsaved change, so under a stream of changes it is rewritten at most once per its
 * delay. The tx shards have one: what must be saved at once goes to the journal (flushTx), and a
 * pass that rewrote every busy shard as soon as its last write ended was ~10% of a busy shop's CPU.
 * A flush() or flushFiles() caller never waits for a file's delay.
 */
import type { Clock, TimerHandle } from "../../tools/clock.js";

const MAX_IN_FLIGHT = 8;
/** After a failed write (disk full, permissions), background retries come no faster than this. */
const RETRY_MS = 1000;
/** Serialise files back to back for at most this long before letting other work run. */
const TURN_BUDGET_MS = 4;

export interface FlusherOptions {
  clock: Clock;
  delayMs: number;
  /** A file's own delay, when longer than `delayMs` (default: `delayMs` for every file). */
  delayOf?: (key: string) => number;
  /** Serialises the file named `key` synchronously and resolves once it is on disk. */
  write: (key: string) => Promise<void>;
  /** Failures of background (timer) writes; `flush()` callers get a rejection instead. */
  onError?: (err: unknown) => void;
}

export interface FlushStats {
  /** File writes completed since open. */
  writes: number;
  writesByFile: Record<string, number>;
  /** Pump runs (flush passes) that wrote at least one file. */
  flushes: number;
  /** Files with changes not yet on disk (dirty or being written). */
  dirty: number;
  flushing: boolean;
  lastError?: unknown;
}

/** One `flush()` call: resolved when `remaining` files reached the versions it waits for. */
interface Waiter {
  remaining: number;
  done: boolean;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class Flusher {
  /** Files changed since their last serialisation. Insertion order = write order. */
  private readonly dirty = new Set<string>();
  /** When each dirty file's first change since its last write was made (clock ms): its delay counts from there. */
  private readonly dirtySince = new Map<string, number>();
  /** Files with changes not yet on disk: dirty, or in a write that has not finished. */
  private readonly unsaved = new Set<string>();
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Change counter per file; a write carries the value it saw when it serialised. */
  private readonly changed = new Map<string, number>();
  /** Per file, flush() callers waiting for a version; appended in increasing version order. */
  private readonly waiting = new Map<string, { version: number; waiter: Waiter }[]>();
  /** Files a `flushFiles` caller waits for: written before the other dirty files (taking turns with them). */
  private readonly first = new Set<string>();
  private firstsTurn = true;
  /** Files that failed in the current pump: not retried until the next one (avoids a hot loop). */
  private readonly failed = new Set<string>();
  /** Files whose latest write failed; cleared by their next good write. */
  private readonly failing = new Set<string>();
  private timer: TimerHandle | undefined;
  /** When the timer fires (clock ms). */
  private timerAt = Infinity;
  private pumping = false;
  private stopped = false;
  private writes = 0;
  private flushes = 0;
  private readonly writesByFile = new Map<string, number>();
  private lastError: unknown;

  constructor(private readonly opts: FlusherOptions) {}

  markDirty(key: string): void {
    this.changed.set(key, (this.changed.get(key) ?? 0) + 1);
    if (!this.dirtySince.has(key)) this.dirtySince.set(key, this.opts.clock.now());
    this.dirty.add(key);
    this.unsaved.add(key);
    if (!this.pumping) this.schedule(this.opts.delayOf?.(key) ?? this.opts.delayMs);
  }

  /** Writes everything changed so far; resolves when all of it is on disk. */
  flush(): Promise<void> {
    if (this.unsaved.size === 0) return Promise.resolve();
    const done = this.wait([...this.unsaved]);
    this.failed.clear(); // an explicit flush retries failed files at once
    void this.pump();
    return done;
  }

  /** Writes the changes made so far to these files, ahead of other files; resolves when they are on disk. */
  flushFiles(keys: readonly string[]): Promise<void> {
    const mine = keys.filter((key) => this.unsaved.has(key));
    if (mine.length === 0) return Promise.resolve();
    const done = this.wait(mine);
    for (const key of mine) {
      this.first.add(key);
      this.failed.delete(key); // retried at once, as by flush()
    }
    void this.pump();
    return done;
  }

  /** A waiter for the current versions of `keys` (all unsaved); the timer gives way to the pump. */
  private wait(keys: string[]): Promise<void> {
    const done = new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { remaining: keys.length, done: false, resolve, reject };
      for (const key of keys) {
        let list = this.waiting.get(key);
        if (!list) this.waiting.set(key, (list = []));
        list.push({ version: this.changed.get(key) ?? 0, waiter });
      }
    });
    this.timer?.cancel();
    this.timer = undefined;
    return done;
  }

  /** Whether the file has changes not yet on disk (dirty, or in a write that has not finished). */
  isUnsaved(key: string): boolean {
    return this.unsaved.has(key);
  }

  /** No more timers; pending changes are written only by an explicit flush(). */
  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** False while a file's latest write failed: changes made now might not reach the disk. */
  canPersist(): boolean {
    return this.failing.size === 0;
  }

  stats(): FlushStats {
    return {
      writes: this.writes,
      writesByFile: Object.fromEntries(this.writesByFile),
      flushes: this.flushes,
      dirty: this.unsaved.size,
      flushing: this.pumping,
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
    };
  }

  /** Sets the timer `ms` from now, unless it fires sooner already. */
  private schedule(ms: number): void {
    if (this.stopped) return;
    const at = this.opts.clock.now() + ms;
    if (this.timer && this.timerAt <= at) return;
    this.timer?.cancel();
    this.timerAt = at;
    this.timer = this.opts.clock.setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      void this.pump();
    }, ms);
  }

  /**
   * The next file to write: `first` files and the rest take turns, so a stream of `flushFiles`
   * callers (a notice a second per shard) never holds up a flush() of the whole store for long.
   */
  private nextKey(now: number): string | undefined {
    let first: string | undefined;
    for (const key of this.first) {
      if (!this.dirty.has(key)) this.first.delete(key); // written meanwhile (its waiters are answered by that write)
      else if (!this.inFlight.has(key) && !this.failed.has(key)) {
        first = key;
        break;
      }
    }
    if (first !== undefined && this.firstsTurn) return first;
    for (const key of this.dirty) {
      if (!this.first.has(key) && !this.inFlight.has(key) && !this.failed.has(key) && this.due(key, now)) return key;
    }
    return first;
  }

  /** Whether a dirty file is written in this pass: someone waits for it, or its own delay is over. */
  private due(key: string, now: number): boolean {
    if (!this.opts.delayOf || this.waiting.has(key)) return true;
    return now >= (this.dirtySince.get(key) ?? now) + this.opts.delayOf(key);
  }

  /** Until the first dirty file is due (at least `delayMs`: files without a delay of their own). */
  private nextDue(): number {
    if (!this.opts.delayOf) return this.opts.delayMs;
    const now = this.opts.clock.now();
    let soonest = Infinity;
    for (const key of this.dirty) soonest = Math.min(soonest, (this.dirtySince.get(key) ?? now) + this.opts.delayOf(key) - now);
    return Math.max(this.opts.delayMs, soonest);
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    let wrote = false;
    let turnStart = performance.now();
    try {
      for (;;) {
        const key = this.nextKey(this.opts.clock.now());
        if (key === undefined) {
          if (this.inFlight.size === 0) break;
          await Promise.race(this.inFlight.values());
          continue;
        }
        if (!wrote) this.flushes++;
        wrote = true;
        this.dirty.delete(key);
        this.dirtySince.delete(key);
        this.firstsTurn = !this.first.delete(key);
        this.start(key);
        if (this.inFlight.size >= MAX_IN_FLIGHT) {
          await Promise.race(this.inFlight.values());
          turnStart = performance.now();
        } else if (performance.now() - turnStart > TURN_BUDGET_MS && this.nextKey(this.opts.clock.now()) !== undefined) {
          await nextTurn();
          turnStart = performance.now();
        }
      }
    } finally {
      this.pumping = false;
    }
    if (this.failed.size > 0) {
      this.schedule(Math.max(RETRY_MS, this.opts.delayMs));
      this.failed.clear();
    } else if (this.dirty.size > 0) {
      this.schedule(this.nextDue());
    }
    // Safety net: nothing more will be written in this pass, so a waiter still here would hang.
    if (this.dirty.size === 0) {
      for (const key of [...this.waiting.keys()]) this.rejectWaiting(key, new Error(`Store file ${key} was not written.`));
    }
  }

  private start(key: string): void {
    const version = this.changed.get(key) ?? 0;
    let write: Promise<void>;
    try {
      write = this.opts.write(key); // serialises now, synchronously
    } catch (err) {
      write = Promise.reject(err);
    }
    const tracked = write.then(
      () => {
        this.inFlight.delete(key);
        this.failing.delete(key);
        if (version === this.changed.get(key)) this.unsaved.delete(key);
        this.writes++;
        this.writesByFile.set(key, (this.writesByFile.get(key) ?? 0) + 1);
        this.resolveWaiting(key, version);
      },
      (err: unknown) => {
        this.inFlight.delete(key);
        this.dirty.add(key); // keep the data: the file stays dirty
        this.dirtySince.set(key, -Infinity); // due at the retry
        this.failed.add(key);
        this.failing.add(key);
        this.lastError = err;
        if (this.rejectWaiting(key, err) === 0) this.opts.onError?.(err);
      },
    );
    this.inFlight.set(key, tracked);
  }

  private resolveWaiting(key: string, version: number): void {
    const list = this.waiting.get(key);
    if (!list) return;
    let n = 0;
    while (n < list.length && list[n]!.version <= version) {
      const { waiter } = list[n++]!;
      if (!waiter.done && --waiter.remaining === 0) {
        waiter.done = true;
        waiter.resolve();
      }
    }
    if (n === list.length) this.waiting.delete(key);
    else list.splice(0, n);
  }

  /** Rejects every caller waiting for `key`; returns how many there were. */
  private rejectWaiting(key: string, err: unknown): number {
    const list = this.waiting.get(key) ?? [];
    this.waiting.delete(key);
    let rejected = 0;
    for (const { waiter } of list) {
      if (waiter.done) continue;
      waiter.done = true;
      waiter.reject(err);
      rejected++;
    }
    return rejected;
  }
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
