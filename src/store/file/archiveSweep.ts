/**
 * The file store's side of the archive (archive.ts): opening it (dropping the hot copies of lines a
 * crash left un-indexed) and the sweep that moves final transactions unchanged for `afterMs` out of
 * memory, at open and every `everyMs` on the clock.
 */
import type { Clock, TimerHandle } from "../../tools/clock.js";
import { Archive } from "./archive.js";
import type { RecordIndexes } from "./indexes.js";
import { FINAL_STATUSES, type TxRecord } from "../records.js";

export interface ArchiveSweepDeps {
  clock: Clock;
  hot: RecordIndexes;
  afterMs: number;
  everyMs: number;
  /** Removes a transaction from memory and marks its shard for writing. */
  drop: (rec: TxRecord) => void;
  /** Writes every pending change (the shards without the dropped records). */
  flush: () => Promise<void>;
  onError: ((err: unknown) => void) | undefined;
}

export class ArchiveSweep {
  /** Set by open(), before any read. */
  archive!: Archive;
  private sweeping: Promise<number> | undefined;
  private timer: TimerHandle | undefined;
  private stopped = false;

  constructor(private readonly deps: ArchiveSweepDeps) {}

  /** Lines a crash left un-indexed are archived already: drop their hot copies, then index them. */
  async open(dir: string): Promise<void> {
    const { archive, recovered } = await Archive.open(dir);
    this.archive = archive;
    if (recovered.size === 0) return;
    for (const refId of recovered) {
      const rec = this.deps.hot.tx(refId);
      if (rec) this.deps.drop(rec);
    }
    await this.deps.flush();
    await archive.saveIndex();
  }

  /**
   * Moves final transactions unchanged for `afterMs` to the archive. Order for crash safety:
   * append + fsync the archive, write the shards without them, then the archive index (archive.ts).
   * Returns how many moved.
   */
  sweep(): Promise<number> {
    this.sweeping ??= this.run().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async run(): Promise<number> {
    const { hot } = this.deps;
    const cutoff = this.deps.clock.now() - this.deps.afterMs;
    const old: TxRecord[] = [];
    for (const rec of hot.eachTx()) if (rec.updatedAt < cutoff && FINAL_STATUSES.has(rec.status)) old.push(rec);
    if (old.length === 0) return 0;
    // In the turn the archive indexes them: a history read never finds them in both. A record changed
    // during the append keeps its newer hot copy; readers prefer the hot one.
    await this.archive.append(old, () => {
      for (const rec of old) if (hot.tx(rec.refId) === rec) this.deps.drop(rec);
    });
    await this.deps.flush();
    await this.archive.saveIndex();
    return old.length;
  }

  /** The next sweep on the clock, unless stopped. */
  schedule(): void {
    if (this.stopped) return;
    this.timer = this.deps.clock.setTimeout(() => {
      this.sweep()
        .catch((err: unknown) => this.deps.onError?.(err))
        .finally(() => this.schedule());
    }, this.deps.everyMs);
  }

  /** No more sweeps; resolves once a sweep running now has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    await this.sweeping?.catch(() => undefined);
  }
}
