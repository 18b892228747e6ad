/**
 * Monthly append-only archives of old final transactions, so memory stays bounded as history grows.
 *
 * Layout (under `<DATA_DIR>/archive/`, folder 0700, files 0600):
 *   tx-YYYY-MM.jsonl   one TxRecord per line; month = the record's createdAt in WIB
 *   index.json         per month: bytes covered, and per chat the segments [offset, length, count,
 *                      first createdAt, last createdAt, byte offset of every MARK_EVERY-th line]
 *
 * A sweep appends each chat's records as one contiguous segment, sorted by (createdAt, refId), so a
 * history page reads only the lines it shows (from the nearest mark) when the month's segments and hot
 * records do not overlap in time (`page`); otherwise, and for segments indexed before the sort (three
 * numbers), the chat's whole month (`read`).
 *
 * Crash safety (see FileStore.sweep): lines are appended and fsynced first, the hot shards are written
 * second, index.json last. On open, bytes past what index.json covers are the last sweep's: a torn
 * final line is cut off, the complete lines are indexed again, and their refIds are reported so the
 * store drops any copy still in the hot shards. Nothing is lost and nothing is archived twice;
 * readers still de-duplicate by refId.
 *
 * Reads are synchronous (a few small preads per page) so listTxByChat/findTx keep their signatures.
 *
 * One file although long: the line layout, the index that points into it, and the reads that rely on
 * both (sorted segments, marks, recovery of an unindexed tail) change together.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { mkdir, open, readdir, readFile, rename, stat, truncate } from "node:fs/promises";
import { join } from "node:path";
import { HOT_FOR_MS } from "../rules.js";
import { StoreCorruptError } from "../errors.js";
import { deepFreeze } from "../frozen.js";
import { wibMonth } from "../months.js";
import { describeIssues, TxRecordSchema, type TxRecord } from "../records.js";

export { nextMonth, wibMonth, wibMonthStart } from "../months.js";

/** Final records whose last change is older than this leave memory for the archive: what findHotTx no longer finds. */
export const ARCHIVE_AFTER_MS = HOT_FOR_MS;

const INDEX = "index.json";
const FILE_RE = /^tx-(\d{4}-\d{2})\.jsonl$/;

/**
 * [byte offset, byte length, records] of one chat's run of lines; a segment an append wrote also has
 * its first and last createdAt and the offsets (from the segment's start) of lines MARK_EVERY,
 * 2·MARK_EVERY, ...: its lines are then sorted by (createdAt, refId), one per record, no refId twice.
 */
type Segment = [number, number, number] | [number, number, number, number, number, number[]];
type SortedSegment = [number, number, number, number, number, number[]];

/** Every so many lines of a sorted segment its byte offset is indexed: a page reads at most this many lines more. */
export const MARK_EVERY = 32;

/** A record of the hot set in a month's page: its position, and how to get it. */
export interface HotPos {
  at: number;
  refId: string;
}

interface MonthIndex {
  /** Bytes of the file the segments cover. */
  bytes: number;
  chats: Map<number, Segment[]>;
}

interface IndexFile {
  months: Record<string, { bytes: number; chats: Record<string, Segment[]> }>;
}

export class Archive {
  private readonly months = new Map<string, MonthIndex>();
  /** Parsed month lists of recent reads: paging through one month reads its segments once. */
  private readonly cache = new Map<string, readonly TxRecord[]>();

  private constructor(readonly dir: string) {}

  /**
   * Opens (creating) the folder. `recovered`: refIds of lines a crash left un-indexed; the caller drops
   * their hot copies, writes the shards, then `saveIndex` (the same order as a sweep).
   */
  static async open(dir: string): Promise<{ archive: Archive; recovered: Set<string> }> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const a = new Archive(dir);
    const recovered = new Set<string>();
    let raw: IndexFile | undefined;
    try {
      raw = JSON.parse(await readFile(join(dir, INDEX), "utf8")) as IndexFile;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw new StoreCorruptError(join(dir, INDEX), `unreadable (${String(err)})`);
    }
    for (const [month, m] of Object.entries(raw?.months ?? {})) {
      a.months.set(month, { bytes: m.bytes, chats: new Map(Object.entries(m.chats).map(([c, s]) => [Number(c), s])) });
    }
    for (const name of await readdir(dir)) {
      const month = FILE_RE.exec(name)?.[1];
      if (!month) continue;
      const size = (await stat(join(dir, name))).size;
      const idx = a.month(month);
      if (size > idx.bytes) await a.indexTail(month, idx, size, recovered);
    }
    return { archive: a, recovered };
  }

  /** Records of `chatId` in the archive. */
  count(chatId: number): number {
    let n = 0;
    for (const m of this.months.values()) for (const s of m.chats.get(chatId) ?? []) n += s[2];
    return n;
  }

  /** Archived record count of `chatId` per month, newest month first. */
  monthCounts(chatId: number): [string, number][] {
    const out: [string, number][] = [];
    for (const [month, m] of this.months) {
      const segs = m.chats.get(chatId);
      if (segs) out.push([month, segs.reduce((n, s) => n + s[2], 0)]);
    }
    return out.sort((a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0));
  }

  /** The chat's archived records of `month`, de-duplicated by refId, in file order. */
  read(chatId: number, month: string): readonly TxRecord[] {
    const key = `${chatId}/${month}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key); // re-insert: most recent last
      this.cache.set(key, hit);
      return hit;
    }
    const segs = this.months.get(month)?.chats.get(chatId) ?? [];
    const file = this.file(month);
    const seen = new Set<string>();
    const out: TxRecord[] = [];
    if (segs.length > 0) {
      const fd = openSync(file, "r");
      try {
        for (const [offset, length] of segs) {
          const buf = Buffer.alloc(length);
          readSync(fd, buf, 0, length, offset);
          for (const line of buf.toString("utf8").split("\n")) {
            if (line === "") continue;
            const tx = parseLine(file, offset, line);
            if (tx.chatId === chatId && !seen.has(tx.refId)) {
              seen.add(tx.refId);
              out.push(tx);
            }
          }
        }
      } finally {
        closeSync(fd);
      }
    }
    this.cache.set(key, out);
    if (this.cache.size > 16) this.cache.delete(this.cache.keys().next().value!);
    return out;
  }

  /**
   * `limit` records of the chat's `month` (its archived records and `hot`, sorted by (at, refId),
   * oldest first), newest first after skipping the `skip` newest. Reads and parses only the lines
   * shown (from the nearest mark before them). Undefined when that cannot be done: a segment indexed
   * before segments were sorted, or segments and hot records overlapping in time (a record both hot
   * and archived, a sale that stayed open for days); the caller then reads the whole month.
   */
  page(chatId: number, month: string, hot: readonly HotPos[], skip: number, limit: number): (Readonly<TxRecord> | HotPos)[] | undefined {
    const segs = this.months.get(month)?.chats.get(chatId) ?? [];
    const sorted: SortedSegment[] = [];
    for (const s of segs) {
      if (s.length !== 6) return undefined;
      sorted.push(s);
    }
    sorted.sort((a, b) => a[3] - b[3]);
    for (let i = 1; i < sorted.length; i++) if (sorted[i - 1]![4] >= sorted[i]![3]) return undefined;
    // The month as runs, oldest first: segments whole, hot records between them.
    type Run = { seg: SortedSegment } | { hot: HotPos };
    const runs: Run[] = [];
    let h = 0;
    for (const seg of sorted) {
      while (h < hot.length && hot[h]!.at < seg[3]) runs.push({ hot: hot[h++]! });
      if (h < hot.length && hot[h]!.at <= seg[4]) return undefined;
      runs.push({ seg });
    }
    while (h < hot.length) runs.push({ hot: hot[h++]! });
    const out: (Readonly<TxRecord> | HotPos)[] = [];
    let toSkip = skip;
    for (let r = runs.length - 1; r >= 0 && out.length < limit; r--) {
      const run = runs[r]!;
      const n = "seg" in run ? run.seg[2] : 1;
      if (toSkip >= n) {
        toSkip -= n;
        continue;
      }
      if ("hot" in run) out.push(run.hot);
      else {
        // Lines [from, to) of the segment, oldest first; shown newest first.
        const to = n - toSkip;
        const from = Math.max(0, to - (limit - out.length));
        const lines = this.readLines(chatId, month, run.seg, from, to);
        for (let i = lines.length - 1; i >= 0; i--) out.push(lines[i]!);
      }
      toSkip = 0;
    }
    return out;
  }

  /** Lines [from, to) of a sorted segment, parsed; the bytes read start at the mark before `from`. */
  private readLines(chatId: number, month: string, seg: SortedSegment, from: number, to: number): TxRecord[] {
    const [offset, length, , , , marks] = seg;
    const mark = Math.floor(from / MARK_EVERY);
    const start = mark === 0 ? 0 : marks[mark - 1]!;
    const endMark = Math.ceil(to / MARK_EVERY);
    const end = endMark === 0 || endMark > marks.length ? length : marks[endMark - 1]!;
    const file = this.file(month);
    const buf = Buffer.alloc(end - start);
    const fd = openSync(file, "r");
    try {
      readSync(fd, buf, 0, buf.length, offset + start);
    } finally {
      closeSync(fd);
    }
    const out: TxRecord[] = [];
    let pos = 0;
    for (let i = mark * MARK_EVERY; i < to; i++) {
      const nl = buf.indexOf(0x0a, pos);
      if (nl < 0) throw new StoreCorruptError(file, `segment at byte ${offset} ends before its line ${i + 1}`);
      if (i >= from) {
        const tx = parseLine(file, offset + start + pos, buf.toString("utf8", pos, nl));
        if (tx.chatId !== chatId) throw new StoreCorruptError(file, `segment at byte ${offset} holds another chat's record`);
        out.push(tx);
      }
      pos = nl + 1;
    }
    return out;
  }

  /**
   * Appends `txs` (one segment per chat per month) and fsyncs each file. The in-memory index covers
   * them once every file is written, in one turn with `indexed`; index.json only after `saveIndex`,
   * which the caller runs once the shards are written.
   */
  async append(txs: readonly TxRecord[], indexed?: () => void): Promise<void> {
    const byMonth = new Map<string, Map<number, TxRecord[]>>();
    for (const tx of txs) {
      const month = wibMonth(tx.createdAt);
      let chats = byMonth.get(month);
      if (!chats) byMonth.set(month, (chats = new Map()));
      let list = chats.get(tx.chatId);
      if (!list) chats.set(tx.chatId, (list = []));
      list.push(tx);
    }
    let created = false;
    const written: { month: string; segs: [number, Segment][] }[] = [];
    for (const [month, chats] of byMonth) {
      const idx = this.month(month);
      created ||= idx.bytes === 0;
      const parts: Buffer[] = [];
      const segs: [number, Segment][] = [];
      let offset = idx.bytes;
      for (const [chatId, list] of chats) {
        // Sorted as history pages list them, one line per refId: a page can then find its lines by position.
        const byRef = new Map(list.map((tx) => [tx.refId, tx]));
        const sorted = [...byRef.values()].sort(byPosition);
        const marks: number[] = [];
        const lines: Buffer[] = [];
        let at = 0;
        sorted.forEach((tx, i) => {
          if (i > 0 && i % MARK_EVERY === 0) marks.push(at);
          const line = Buffer.from(`${JSON.stringify(tx)}\n`, "utf8");
          lines.push(line);
          at += line.length;
        });
        parts.push(...lines);
        segs.push([chatId, [offset, at, sorted.length, sorted[0]!.createdAt, sorted[sorted.length - 1]!.createdAt, marks]]);
        offset += at;
      }
      const fh = await open(this.file(month), "a", 0o600);
      try {
        await fh.write(Buffer.concat(parts));
        await fh.sync();
      } finally {
        await fh.close();
      }
      idx.bytes = offset; // the file's end, whatever comes next
      written.push({ month, segs });
    }
    if (created) await syncDir(this.dir);
    // Every month's lines become readable in one turn, with the caller's `indexed` (the sweep drops the
    // hot copies there): indexed month by month, a history read between two months' writes counted
    // the first months' records twice, hot and archived.
    for (const { month, segs } of written) {
      const idx = this.month(month);
      for (const [chatId, seg] of segs) {
        let list = idx.chats.get(chatId);
        if (!list) idx.chats.set(chatId, (list = []));
        list.push(seg);
        this.cache.delete(`${chatId}/${month}`);
      }
    }
    indexed?.();
  }

  /** Writes index.json atomically (temp + fsync + rename). */
  async saveIndex(): Promise<void> {
    const data: IndexFile = { months: {} };
    for (const [month, m] of this.months) data.months[month] = { bytes: m.bytes, chats: Object.fromEntries(m.chats) };
    const path = join(this.dir, INDEX);
    const tmp = `${path}.tmp`;
    const fh = await open(tmp, "w", 0o600);
    try {
      await fh.writeFile(JSON.stringify(data));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
    await syncDir(this.dir);
  }

  file(month: string): string {
    return join(this.dir, `tx-${month}.jsonl`);
  }

  private month(month: string): MonthIndex {
    let m = this.months.get(month);
    if (!m) this.months.set(month, (m = { bytes: 0, chats: new Map() }));
    return m;
  }

  /** Indexes the lines past `idx.bytes` (the last sweep's, if it crashed); cuts a torn last line. */
  private async indexTail(month: string, idx: MonthIndex, size: number, recovered: Set<string>): Promise<void> {
    const file = this.file(month);
    const fh = await open(file, "r");
    const buf = Buffer.alloc(size - idx.bytes);
    try {
      await fh.read(buf, 0, buf.length, idx.bytes);
    } finally {
      await fh.close();
    }
    const end = buf.lastIndexOf(0x0a) + 1; // bytes up to the last complete line
    if (end < buf.length) await truncate(file, idx.bytes + end);
    let pos = 0;
    let run: { chatId: number; offset: number; count: number } | undefined;
    const close = (upTo: number) => {
      if (!run) return;
      let list = idx.chats.get(run.chatId);
      if (!list) idx.chats.set(run.chatId, (list = []));
      list.push([run.offset, upTo - run.offset, run.count]);
      run = undefined;
    };
    while (pos < end) {
      const nl = buf.indexOf(0x0a, pos);
      const tx = parseLine(file, idx.bytes + pos, buf.toString("utf8", pos, nl));
      const at = idx.bytes + pos;
      if (run && run.chatId !== tx.chatId) close(at);
      run ??= { chatId: tx.chatId, offset: at, count: 0 };
      if (!recovered.has(tx.refId)) run.count++;
      recovered.add(tx.refId);
      pos = nl + 1;
    }
    close(idx.bytes + end);
    idx.bytes += end;
  }
}

/** History order: by createdAt, then refId. */
function byPosition(a: TxRecord, b: TxRecord): number {
  return a.createdAt - b.createdAt || (a.refId < b.refId ? -1 : a.refId > b.refId ? 1 : 0);
}

function parseLine(file: string, offset: number, line: string): TxRecord {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new StoreCorruptError(file, `invalid JSON in the segment at byte ${offset}`);
  }
  const r = TxRecordSchema.safeParse(json);
  if (!r.success) throw new StoreCorruptError(file, `segment at byte ${offset}: ${describeIssues(r.error)}`);
  return deepFreeze(r.data);
}

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, "r");
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
