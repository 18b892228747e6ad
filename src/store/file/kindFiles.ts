/**
 * The files behind docFiles.ts: one document kind's file and journal (DocKindFiles, the flusher's
 * writer of the kind), and an append-only JSON-lines file (LogFile: a log, a kind's journal, the
 * transactions' journal of txJournal.ts).
 */
import { open, readFile, truncate, type FileHandle } from "node:fs/promises";
import { StoreCorruptError } from "../errors.js";
import type { Doc } from "../api.js";
import type { StoreFile } from "./shards.js";

export type AnyDoc = Doc<unknown>;

/** A journal outgrowing both this and the kind's file is folded into the file. */
const JOURNAL_MIN_COMPACT_BYTES = 256 * 1024;

/** One kind's documents and their two files (see the header); `write` is the flusher's writer. */
export class DocKindFiles {
  /** Set to write the whole file and empty the journal at the next write. */
  compactNext = false;
  /** Documents changed since the last write began, latest version each. */
  private changed = new Map<string, AnyDoc>();
  /** The file's length as this process last wrote it (0 until then). */
  private fileChars = 0;

  constructor(
    readonly key: string,
    readonly docs: Map<string, AnyDoc>,
    private readonly file: StoreFile<string>,
    private readonly journal: LogFile,
    private fileExists: boolean,
    private readonly closing: () => boolean,
  ) {}

  put(doc: AnyDoc): void {
    this.docs.set(doc.id, doc);
    this.changed.set(doc.id, doc);
  }

  journalBytes(): number {
    return this.journal.bytes();
  }

  changedCount(): number {
    return this.changed.size;
  }

  /** Takes what changed now (the flusher's synchronous part) and makes it durable. */
  write(): Promise<void> {
    const fold =
      this.compactNext || !this.fileExists || this.closing() || this.journal.bytes() > Math.max(JOURNAL_MIN_COMPACT_BYTES, 2 * this.fileChars);
    const taken = this.changed;
    this.changed = new Map();
    if (!fold) {
      for (const doc of taken.values()) this.journal.pending.push(`${docJson(doc)}\n`);
      return this.journal.write();
    }
    // Everything held now goes into the file, journal lines still pending included.
    this.journal.pending = [];
    let text: string;
    try {
      text = docsJson(this.docs.values());
    } catch (err) {
      this.restore(taken);
      return Promise.reject(err);
    }
    return this.file
      .write(text)
      .then(async () => {
        this.fileExists = true;
        this.fileChars = text.length;
        await this.journal.empty();
        this.compactNext = false;
      })
      .catch((err: unknown) => {
        // Retried as a compaction: the file is rewritten whole, whatever the journal holds.
        this.compactNext = true;
        this.restore(taken);
        throw err;
      });
  }

  private restore(taken: Map<string, AnyDoc>): void {
    for (const [id, doc] of taken) if (!this.changed.has(id)) this.changed.set(id, doc);
  }
}

/**
 * A log file: lines waiting to be appended, and how long the file is when every append so far went
 * whole. An append cut short (disk full) is cut back to that length and its lines kept for the retry,
 * so the file never holds half a line followed by more.
 */
export class LogFile {
  pending: string[] = [];
  /** Held between appends when `keepOpen`: an append is then a write and a sync, not five calls on the thread pool. */
  private fh: FileHandle | undefined;

  constructor(
    readonly path: string,
    private size: number,
    private readonly keepOpen = false,
  ) {}

  bytes(): number {
    return this.size;
  }

  /** Empties the file (its lines were folded elsewhere) and drops the pending lines. */
  async empty(): Promise<void> {
    this.pending = [];
    if (this.size === 0) return;
    await this.close();
    const fh = await open(this.path, "a", 0o600);
    try {
      await fh.truncate(0);
      await fh.sync();
      this.size = 0;
    } finally {
      await fh.close();
    }
  }

  /** Lets go of a held handle (before the file is renamed or removed). */
  async close(): Promise<void> {
    const fh = this.fh;
    this.fh = undefined;
    await fh?.close();
  }

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

  /**
   * Appends these lines now and durably, for a caller that writes one append at a time (the wallets):
   * when it fails, the lines are dropped, not kept for a later write.
   */
  async appendLines(lines: string[]): Promise<void> {
    this.pending = lines;
    try {
      await this.write();
    } finally {
      this.pending = [];
    }
  }

  private async append(text: Buffer): Promise<void> {
    let fh = this.fh;
    this.fh = undefined;
    try {
      if (!fh) {
        fh = await open(this.path, "a", 0o600);
        // An append cut short before (or a handle lost with it) is cut back to the last whole one.
        if ((await fh.stat()).size !== this.size) await fh.truncate(this.size);
      }
      await fh.writeFile(text);
      await fh.sync();
      this.size += text.length;
    } catch (err) {
      // Reopened (and cut back) by the next append.
      await fh?.close().catch(() => undefined);
      throw err;
    }
    if (this.keepOpen) this.fh = fh;
    else await fh.close();
  }
}

/**
 * Reads a JSON-lines file (a log, a journal), handing each whole line to `each` with its number; a
 * torn last line is cut off with a warning. Returns the length of the whole lines (0 if none).
 */
export async function readLines(path: string, warn: (message: string) => void, each: (line: string, n: number) => void): Promise<number> {
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
    warn(`Store file ${path}: dropped a torn last line (${bytes.length - whole} bytes), left by a crash during an append.`);
    await truncate(path, whole);
  }
  const lines = bytes.subarray(0, whole).toString("utf8").split("\n");
  lines.pop(); // after the last newline
  lines.forEach((line, i) => each(line, i + 1));
  return whole;
}

/** Each document's JSON text, made once per version (a changed document is a new object). */
const docText = new WeakMap<AnyDoc, string>();

/** `JSON.stringify({ docs })`, byte for byte, stringifying only the documents not seen before. */
function docsJson(docs: Iterable<AnyDoc>): string {
  const parts: string[] = [];
  for (const doc of docs) parts.push(docJson(doc));
  return `{"docs":[${parts.join(",")}]}`;
}

function docJson(doc: AnyDoc): string {
  let text = docText.get(doc);
  if (text === undefined) docText.set(doc, (text = JSON.stringify(doc)));
  return text;
}
