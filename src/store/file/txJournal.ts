/**
 * Group commit for `flushTx`: the transaction's record is appended as one line to a journal beside the
 * shards, and one append + one fsync carries every record whose caller is waiting at that moment
 * (callers arriving while an append is in flight join the next one). The shards are still written by
 * the flusher in the background; the journal only has to hold a record until its shard has caught up.
 *
 *   tx.jsonl       {"seq":n,"tx":TxRecord} a line, appended and fsync-ed (kindFiles.ts LogFile, its handle
 *                  kept open: an append is a write and an fsync on the thread pool, behind the shard writes)
 *   tx.old.jsonl   the journal before its last rotation, deleted once its shards caught up
 *
 * Which copy wins at open: every line takes the next number of a store-wide sequence when it is made,
 * and every tx shard file carries the sequence number reached when it was serialised (`"seq"` beside
 * `"txs"`). A line newer than its shard (line seq > shard seq) was made after the shard's text, so it
 * holds a version at least as new: it is applied, in file order. A line not newer is already in the
 * shard, or older than what the shard holds, and is skipped. So the journal never has to be emptied in
 * step with the shards: it is emptied (or rotated, then deleted) once every shard it names was written
 * past its lines, and at open and close once the shards hold everything.
 */
import { rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { TxRecord } from "../records.js";
import { LogFile } from "./kindFiles.js";

export const JOURNAL = "tx.jsonl";
export const OLD_JOURNAL = "tx.old.jsonl";
/** A journal this long is rotated (so it can be deleted once its shards are written) rather than grown. */
const ROTATE_BYTES = 1024 * 1024;

export interface JournalLine {
  seq: number;
  tx: unknown;
}

interface Waiting {
  line: string;
  shard: number;
  seq: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class TxJournal {
  /** The last sequence number handed out (to a line, or seen on disk at open). */
  private seq = 0;
  private cur: LogFile;
  private old: LogFile | undefined;
  /** Per shard, the newest line each file holds for it: the file is redundant once the shard was written past it. */
  private curNeeds = new Map<number, number>();
  private oldNeeds = new Map<number, number>();
  /** Per shard, the sequence number its last good write carried. */
  private readonly written: number[];
  private waiting: Waiting[] = [];
  private running: Promise<void> | undefined;
  /** Appends (each one fsync) since open. */
  appends = 0;

  constructor(
    private readonly root: string,
    shards: number,
  ) {
    this.cur = new LogFile(join(root, JOURNAL), 0, true);
    this.written = new Array<number>(shards).fill(0);
  }

  /** After the replay at open: numbering goes on above everything on disk. */
  resume(seq: number): void {
    this.seq = Math.max(this.seq, seq);
  }

  /** The number a shard serialised now carries: every line made so far is in its text or older than it. */
  lastSeq(): number {
    return this.seq;
  }

  /** A shard's write carrying `seq` is on disk. */
  shardWritten(shard: number, seq: number): void {
    if (seq > this.written[shard]!) this.written[shard] = seq;
  }

  /** Appends `rec` (its version now) with the next group commit; resolves once it is fsync-ed. */
  add(rec: Readonly<TxRecord>, shard: number): Promise<void> {
    const seq = ++this.seq;
    const line = `{"seq":${seq},"tx":${JSON.stringify(rec)}}\n`;
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ line, shard, seq, resolve, reject }));
    this.running ??= this.drain().finally(() => (this.running = undefined));
    return done;
  }

  /** Resolves once no append is in flight. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Deletes both files: the caller made sure the shards hold everything (open after a replay, close). */
  async clear(): Promise<void> {
    await this.idle();
    await this.cur.close();
    await rm(this.cur.path, { force: true });
    await rm(join(this.root, OLD_JOURNAL), { force: true });
    this.cur = new LogFile(this.cur.path, 0, true);
    this.old = undefined;
    this.curNeeds = new Map();
    this.oldNeeds = new Map();
  }

  /** One append per turn of the loop, with every line waiting when it starts. */
  private async drain(): Promise<void> {
    await null; // callers in this same synchronous run join the first append
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        await this.tidy();
        this.cur.pending = batch.map((w) => w.line);
        await this.cur.write();
        for (const w of batch) this.curNeeds.set(w.shard, Math.max(this.curNeeds.get(w.shard) ?? 0, w.seq));
        this.appends++;
        for (const w of batch) w.resolve();
      } catch (err) {
        // Nobody was told these lines are saved: they are not retried (the callers retry their step).
        this.cur.pending = [];
        for (const w of batch) w.reject(err);
      }
    }
  }

  /** Between appends: drops what the shards have caught up with, rotates a long journal. */
  private async tidy(): Promise<void> {
    if (this.old && this.covered(this.oldNeeds)) {
      await rm(this.old.path, { force: true });
      this.old = undefined;
      this.oldNeeds = new Map();
    }
    if (this.cur.bytes() === 0) return;
    if (this.covered(this.curNeeds)) {
      await this.cur.empty();
      this.curNeeds = new Map();
    } else if (!this.old && this.cur.bytes() > ROTATE_BYTES) {
      const oldPath = join(this.root, OLD_JOURNAL);
      await this.cur.close();
      await rename(this.cur.path, oldPath);
      this.old = new LogFile(oldPath, this.cur.bytes());
      this.oldNeeds = this.curNeeds;
      this.cur = new LogFile(this.cur.path, 0, true);
      this.curNeeds = new Map();
    }
  }

  private covered(needs: ReadonlyMap<number, number>): boolean {
    for (const [shard, seq] of needs) if (this.written[shard]! < seq) return false;
    return true;
  }
}

/** A journal line as read back; anything else is a damaged journal. */
export function journalLine(raw: unknown): JournalLine | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const { seq, tx } = raw as { seq?: unknown; tx?: unknown };
  return Number.isSafeInteger(seq) && (seq as number) > 0 && typeof tx === "object" && tx !== null ? { seq: seq as number, tx } : undefined;
}

/** A shard file's sequence number (0 when written before the journal existed). */
export function shardSeq(data: unknown): number | undefined {
  if (typeof data !== "object" || data === null) return 0;
  const { seq } = data as { seq?: unknown };
  if (seq === undefined) return 0;
  return Number.isSafeInteger(seq) && (seq as number) >= 0 ? (seq as number) : undefined;
}
