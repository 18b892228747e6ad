/**
 * The file store's documents and append-only logs (api.ts createDoc... listLog), kept in memory and
 * written per kind under the store's folder:
 *   docs/<kind>.json     {"docs": Doc[]}  every document of the kind as of the last compaction
 *   docs/<kind>.jsonl    one document a line: each version written since, appended and fsync-ed
 *   logs/<kind>.jsonl    one entry a line, appended and fsync-ed through the flusher
 * A kind's files are read at its first use, since only then is its schema known, and checked with it
 * then (what is in memory was checked when read or written): a damaged file fails every call of that
 * kind with StoreCorruptError and is never rewritten. Every entry of a log stays in memory, as every
 * document does: fine for audit and price changes at this bot's size, not for unbounded streams.
 * A log's torn last line (a crash in the middle of an append) is cut off with a warning. The rules
 * are rules.ts's, as PgStore's.
 *
 * Why a journal: every shop-order move is made durable before its provider call, and rewriting a
 * kind's whole file per move stringified a thousand orders each time. A flush appends the changed
 * documents; the journal is folded into the file (rename, then emptied) at the first write after open,
 * when it outgrows the file, when no file exists yet, and at close, so after a clean close the file alone
 * holds the kind (what migrate-store reads). A journal line counts only if newer than the version held,
 * so a crash between the rename and the emptying reads the same; a torn last line is cut off as a log's.
 * The journal's handle is kept open between appends (a write and an fsync, not open, stat and close
 * around them: a burst of orders appends thousands of times); folding it closes the handle.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Clock } from "../../tools/clock.js";
import type { Doc, DocChange, DocExpect, DocKind, DocQuery, LogEntry, LogPage, NewDoc } from "../api.js";
import { buildNewDoc, changedDoc, checkExpect, compareDocs, docChange, docInQuery, docLimit, docMatches, kindName, logPage, storedDoc, storedLogEntry, validLogEntry } from "../rules.js";
import { DuplicateDocError, StoreCorruptError } from "../errors.js";
import { DocKindFiles, LogFile, readLines, type AnyDoc } from "./kindFiles.js";
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

interface KindLog {
  /** Each owner's entries, oldest first (seq increasing). */
  readonly byOwner: Map<number, LogEntry<unknown>[]>;
  readonly file: LogFile;
}

export class DocFiles {
  private readonly docKinds = new Map<string, Promise<DocKindFiles>>();
  /** The kinds read so far (what `compactAll` folds). */
  private readonly loadedKinds: DocKindFiles[] = [];
  private readonly logKinds = new Map<string, Promise<KindLog>>();

  constructor(private readonly host: DocFilesHost) {}

  async createDoc<T>(kind: DocKind<T>, input: NewDoc<T>): Promise<Doc<T>> {
    this.host.assertOpen();
    const files = await this.docsOf(kind);
    this.host.assertOpen();
    // Built, checked and set in one synchronous turn: of two racing creates, the second sees the first.
    const doc = buildNewDoc(kind, input, this.host.clock.now());
    if (files.docs.has(doc.id)) throw new DuplicateDocError(doc.kind, doc.id);
    files.put(doc);
    this.host.markDirty(docKey(doc.kind));
    return doc;
  }

  async getDoc<T>(kind: DocKind<T>, id: string): Promise<Doc<T> | undefined> {
    return (await this.docsOf(kind)).docs.get(id) as Doc<T> | undefined;
  }

  async updateDoc<T>(kind: DocKind<T>, id: string, expect: DocExpect, change: DocChange<T>): Promise<Doc<T> | undefined> {
    this.host.assertOpen();
    checkExpect(expect);
    const valid = docChange(kind, id, change);
    const files = await this.docsOf(kind);
    this.host.assertOpen();
    // Checked and applied in one synchronous turn: nothing else writes in between.
    const current = files.docs.get(id) as Doc<T> | undefined;
    if (!docMatches(current, expect)) return undefined;
    const next = changedDoc(current as Doc<T>, valid, this.host.clock.now());
    files.put(next);
    this.host.markDirty(docKey(next.kind));
    return next;
  }

  async listDocs<T>(kind: DocKind<T>, query: DocQuery): Promise<Doc<T>[]> {
    const { docs } = await this.docsOf(kind);
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

  /** Marks every kind with journal lines for compaction (the store is closing: its last flush folds them). */
  compactAll(): void {
    for (const files of this.loadedKinds) {
      if (files.journalBytes() > 0 || files.changedCount() > 0) {
        files.compactNext = true;
        this.host.markDirty(files.key);
      }
    }
  }

  private docsOf(kind: DocKind<unknown>): Promise<DocKindFiles> {
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

  private async loadDocs(kind: DocKind<unknown>, name: string): Promise<DocKindFiles> {
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
    const journalPath = join(this.host.root, journalKey(name));
    const whole = await this.readLines(journalPath, (line, n) => {
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        throw new StoreCorruptError(journalPath, `line ${n}: invalid JSON`);
      }
      const doc = storedDoc(kind, journalPath, raw, `line ${n}: `);
      const held = docs.get(doc.id);
      if (!held || held.version < doc.version) docs.set(doc.id, doc);
    });
    const files = new DocKindFiles(key, docs, file, new LogFile(journalPath, whole, true), data !== null, () => this.isClosing());
    // Lines left by the last run (it did not close, or closed before this version): folded at the first write.
    if (whole > 0) files.compactNext = true;
    this.host.register(key, () => files.write());
    this.loadedKinds.push(files);
    if (whole > 0) this.host.markDirty(key);
    return files;
  }

  private readLines(path: string, each: (line: string, n: number) => void): Promise<number> {
    return readLines(path, (m) => this.host.warn(m), each);
  }

  private isClosing(): boolean {
    try {
      this.host.assertOpen();
      return false;
    } catch {
      return true;
    }
  }

  private async loadLog(kind: DocKind<unknown>, name: string): Promise<KindLog> {
    await mkdir(join(this.host.root, "logs"), { recursive: true, mode: 0o700 });
    const key = logKey(name);
    const path = join(this.host.root, key);
    const byOwner = new Map<number, LogEntry<unknown>[]>();
    const whole = await this.readLines(path, (line, n) => {
      let data: unknown;
      try {
        data = JSON.parse(line);
      } catch {
        throw new StoreCorruptError(path, `line ${n}: invalid JSON`);
      }
      const rec = storedLogEntry(kind, path, data, `line ${n}: `);
      let list = byOwner.get(rec.owner);
      if (!list) byOwner.set(rec.owner, (list = []));
      if ((list[list.length - 1]?.seq ?? 0) >= rec.seq) throw new StoreCorruptError(path, `line ${n}: seq ${rec.seq} does not follow the owner's last`);
      list.push(rec);
    });
    const file = new LogFile(path, whole);
    this.host.register(key, () => file.write());
    return { byOwner, file };
  }
}

/** The flusher's key (and the path under the store's folder) of a kind's documents. */
export function docKey(kind: string): string {
  return `docs/${kind}.json`;
}

function journalKey(kind: string): string {
  return `docs/${kind}.jsonl`;
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
