/**
 * The file store's documents and append-only logs (api.ts createDoc... listLog), kept in memory and
 * written per kind under the store's folder:
 *   docs/<kind>.json     {"docs": Doc[]}  rewritten whole through the flusher, like a shard
 *   logs/<kind>.jsonl    one entry a line, appended and fsync-ed through the flusher
 * A kind's files are read at its first use, since only then is its schema known, and checked with it
 * then (what is in memory was checked when read or written): a damaged file fails every call of that
 * kind with StoreCorruptError and is never rewritten. Every entry of a log stays in memory, as every
 * document does: fine for audit and price changes at this bot's size, not for unbounded streams.
 * A log's torn last line (a crash in the middle of an append) is cut off with a warning. The rules
 * are core.ts's, as PgStore's.
 *
 * A kind's file holds every document of it (a shop's thousand orders), and every order move is made
 * durable before the provider call it leads to, so the file is rewritten back to back in a burst.
 * Each document's JSON text is kept beside it (documents are frozen and replaced on change), so a
 * rewrite stringifies only the documents changed since the last one and joins the rest: the event loop
 * pays for what changed, the disk (on the thread pool) for the whole file. The file stays one JSON
 * document replaced by rename, as every store file is, so a crash leaves the old or the new one, and
 * migrate-store reads it as before.
 */
import { mkdir, open, readFile, truncate } from "node:fs/promises";
import { join } from "node:path";
import type { Clock } from "../../tools/clock.js";
import type { Doc, DocChange, DocExpect, DocKind, DocQuery, LogEntry, LogPage, NewDoc } from "../api.js";
import { buildNewDoc, changedDoc, checkExpect, compareDocs, docChange, docInQuery, docLimit, docMatches, kindName, logPage, storedDoc, storedLogEntry, validLogEntry } from "../core.js";
import { DuplicateDocError, StoreCorruptError } from "../errors.js";
import { StoreFile } from "./shards.js";

/** What the documents need of the file store they live in. */
export interface DocFilesHost {
  /** The store's folder (`<DATA_DIR>/store`). */
  root: string;
  clock: Clock;
  /** Makes `write` the flusher's writer of file `key` (a path under root). */
  register(key: string, write: () => Promise<void>): void;
  markDirty(key: string): void;
  /** Throws StoreClosedError once the store is closing. */
  assertOpen(): void;
  warn(message: string): void;
}

type AnyDoc = Doc<unknown>;

interface KindLog {
  /** Each owner's entries, oldest first (seq increasing). */
  readonly byOwner: Map<number, LogEntry<unknown>[]>;
  readonly file: LogFile;
}

export class DocFiles {
  private readonly docKinds = new Map<string, Promise<Map<string, AnyDoc>>>();
  private readonly logKinds = new Map<string, Promise<KindLog>>();

  constructor(private readonly host: DocFilesHost) {}

  async createDoc<T>(kind: DocKind<T>, input: NewDoc<T>): Promise<Doc<T>> {
    this.host.assertOpen();
    const docs = await this.docsOf(kind);
    this.host.assertOpen();
    // Built, checked and set in one synchronous turn: of two racing creates, the second sees the first.
    const doc = buildNewDoc(kind, input, this.host.clock.now());
    if (docs.has(doc.id)) throw new DuplicateDocError(doc.kind, doc.id);
    docs.set(doc.id, doc);
    this.host.markDirty(docKey(doc.kind));
    return doc;
  }

  async getDoc<T>(kind: DocKind<T>, id: string): Promise<Doc<T> | undefined> {
    return (await this.docsOf(kind)).get(id) as Doc<T> | undefined;
  }

  async updateDoc<T>(kind: DocKind<T>, id: string, expect: DocExpect, change: DocChange<T>): Promise<Doc<T> | undefined> {
    this.host.assertOpen();
    checkExpect(expect);
    const valid = docChange(kind, id, change);
    const docs = await this.docsOf(kind);
    this.host.assertOpen();
    // Checked and applied in one synchronous turn: nothing else writes in between.
    const current = docs.get(id) as Doc<T> | undefined;
    if (!docMatches(current, expect)) return undefined;
    const next = changedDoc(current as Doc<T>, valid, this.host.clock.now());
    docs.set(id, next);
    this.host.markDirty(docKey(next.kind));
    return next;
  }

  async listDocs<T>(kind: DocKind<T>, query: DocQuery): Promise<Doc<T>[]> {
    const docs = await this.docsOf(kind);
    const hits = [...docs.values()].filter((d) => docInQuery(d, query)).sort(compareDocs);
    const limit = docLimit(query.limit);
    return (limit < hits.length ? hits.slice(0, limit) : hits) as Doc<T>[];
  }

  async appendLog<T>(kind: DocKind<T>, owner: number, entry: T): Promise<LogEntry<T>> {
    this.host.assertOpen();
    const value = validLogEntry(kind, owner, entry);
    const log = await this.logOf(kind);
    this.host.assertOpen();
    let list = log.byOwner.get(owner);
    if (!list) log.byOwner.set(owner, (list = []));
    const rec: LogEntry<T> = Object.freeze({ seq: (list[list.length - 1]?.seq ?? 0) + 1, owner, at: this.host.clock.now(), entry: value });
    list.push(rec);
    log.file.pending.push(`${JSON.stringify(rec)}\n`);
    this.host.markDirty(logKey(kind.name));
    return rec;
  }

  async listLog<T>(kind: DocKind<T>, owner: number, page?: LogPage): Promise<LogEntry<T>[]> {
    const { beforeSeq, limit } = logPage(page);
    const list = (await this.logOf(kind)).byOwner.get(owner) ?? [];
    const end = beforeSeq === undefined ? list.length : firstAtOrAbove(list, beforeSeq);
    return list.slice(Math.max(0, end - limit), end).reverse() as LogEntry<T>[];
  }

  private docsOf(kind: DocKind<unknown>): Promise<Map<string, AnyDoc>> {
    const name = kindName(kind);
    let docs = this.docKinds.get(name);
    if (!docs) this.docKinds.set(name, (docs = this.loadDocs(kind, name)));
    return docs;
  }

  private logOf(kind: DocKind<unknown>): Promise<KindLog> {
    const name = kindName(kind);
    let log = this.logKinds.get(name);
    if (!log) this.logKinds.set(name, (log = this.loadLog(kind, name)));
    return log;
  }

  private async loadDocs(kind: DocKind<unknown>, name: string): Promise<Map<string, AnyDoc>> {
    await mkdir(join(this.host.root, "docs"), { recursive: true, mode: 0o700 });
    const key = docKey(name);
    const file = StoreFile.ofText(this.host.root, key);
    const data = await file.read();
    const docs = new Map<string, AnyDoc>();
    if (data !== null) {
      const list = (data as { docs?: unknown }).docs;
      if (typeof data !== "object" || !Array.isArray(list)) throw new StoreCorruptError(file.path, 'expected {"docs": [...]}');
      list.forEach((raw, i) => {
        const doc = storedDoc(kind, file.path, raw, `docs[${i}].`);
        if (docs.has(doc.id)) throw new StoreCorruptError(file.path, `document ${doc.id} is there twice`);
        docs.set(doc.id, doc);
      });
    }
    this.host.register(key, () => file.write(docsJson(docs.values())));
    return docs;
  }

  private async loadLog(kind: DocKind<unknown>, name: string): Promise<KindLog> {
    await mkdir(join(this.host.root, "logs"), { recursive: true, mode: 0o700 });
    const key = logKey(name);
    const path = join(this.host.root, key);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw new StoreCorruptError(path, `unreadable (${String(err)})`);
      bytes = Buffer.alloc(0);
    }
    // Appends end with a newline: bytes after the last one are an append a crash cut short.
    const whole = bytes.lastIndexOf(0x0a) + 1;
    if (whole < bytes.length) {
      this.host.warn(`Store log ${path}: dropped a torn last line (${bytes.length - whole} bytes), left by a crash during an append.`);
      await truncate(path, whole);
    }
    const byOwner = new Map<number, LogEntry<unknown>[]>();
    const lines = bytes.subarray(0, whole).toString("utf8").split("\n");
    lines.pop(); // after the last newline
    lines.forEach((line, i) => {
      let data: unknown;
      try {
        data = JSON.parse(line);
      } catch {
        throw new StoreCorruptError(path, `line ${i + 1}: invalid JSON`);
      }
      const rec = storedLogEntry(kind, path, data, `line ${i + 1}: `);
      let list = byOwner.get(rec.owner);
      if (!list) byOwner.set(rec.owner, (list = []));
      if ((list[list.length - 1]?.seq ?? 0) >= rec.seq) throw new StoreCorruptError(path, `line ${i + 1}: seq ${rec.seq} does not follow the owner's last`);
      list.push(rec);
    });
    const file = new LogFile(path, whole);
    this.host.register(key, () => file.write());
    return { byOwner, file };
  }
}

/** Each document's JSON text, made once per version (a changed document is a new object). */
const docText = new WeakMap<AnyDoc, string>();

/** `JSON.stringify({ docs })`, byte for byte, stringifying only the documents not seen before. */
function docsJson(docs: Iterable<AnyDoc>): string {
  const parts: string[] = [];
  for (const doc of docs) {
    let text = docText.get(doc);
    if (text === undefined) docText.set(doc, (text = JSON.stringify(doc)));
    parts.push(text);
  }
  return `{"docs":[${parts.join(",")}]}`;
}

function docKey(kind: string): string {
  return `docs/${kind}.json`;
}

function logKey(kind: string): string {
  return `logs/${kind}.jsonl`;
}

/** First index whose seq is not below `seq`. */
function firstAtOrAbove(list: readonly LogEntry<unknown>[], seq: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A log file: lines waiting to be appended, and how long the file is when every append so far went
 * whole. An append cut short (disk full) is cut back to that length and its lines kept for the retry,
 * so the file never holds half a line followed by more.
 */
class LogFile {
  pending: string[] = [];

  constructor(
    readonly path: string,
    private size: number,
  ) {}

  /** Takes the pending lines now (the flusher's synchronous part) and appends them durably. */
  write(): Promise<void> {
    const lines = this.pending;
    this.pending = [];
    if (lines.length === 0) return Promise.resolve();
    const text = Buffer.from(lines.join(""), "utf8");
    return this.append(text).catch((err: unknown) => {
      this.pending = lines.concat(this.pending);
      throw err;
    });
  }

  private async append(text: Buffer): Promise<void> {
    const fh = await open(this.path, "a", 0o600);
    try {
      if ((await fh.stat()).size !== this.size) await fh.truncate(this.size);
      await fh.writeFile(text);
      await fh.sync();
      this.size += text.length;
    } finally {
      await fh.close();
    }
  }
}
