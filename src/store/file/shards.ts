/**
 * File naming, shard placement and the store's JSON files: read through lowdb's `DataFile`, written as a
 * temp file + rename (steno's way), so a crash leaves either the old or the new file.
 */
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { DataFile } from "lowdb/node";
import { fnv1a } from "../../tools/hash.js";
import { StoreCorruptError } from "../errors.js";

export function shardIndex(key: string | number, count: number): number {
  return fnv1a(String(key)) % count;
}

/** `chats-07.json`; the width grows with the count so names sort in shard order. */
export function shardFileName(prefix: string, index: number, count: number): string {
  const width = Math.max(2, String(count - 1).length);
  return `${prefix}-${String(index).padStart(width, "0")}.json`;
}

/**
 * The JSON text of each record last written, by record: records are deeply frozen and replaced on
 * every change (frozen.ts), so an object's text never goes stale, and a shard's write stringifies
 * only the records changed since its last write (one in ~150 at 10,000 open transactions) instead
 * of the whole shard. The text lives as long as its record does (the hot set, not the archive).
 */
const recordText = new WeakMap<object, string>();

/** `{"<field>":[...records]}` (and `"seq":n` after it when given), byte for byte what JSON.stringify makes of it. */
export function recordsText(field: string, records: Iterable<object>, seq?: number): string {
  const parts: string[] = [];
  for (const rec of records) {
    let text = recordText.get(rec);
    if (text === undefined) {
      text = JSON.stringify(rec);
      if (Object.isFrozen(rec)) recordText.set(rec, text);
    }
    parts.push(text);
  }
  return `{${JSON.stringify(field)}:[${parts.join(",")}]${seq === undefined ? "" : `,"seq":${seq}`}}`;
}

/** One JSON file of the store. `read` turns every failure into StoreCorruptError naming the file. */
export class StoreFile<T> {
  readonly path: string;
  /** Reads JSON. */
  private readonly adapter: DataFile<string>;
  private readonly stringify: (data: T) => string;

  constructor(dir: string, readonly name: string, pretty: boolean | "text" = false) {
    this.path = join(dir, name);
    this.adapter = new DataFile<string>(this.path, { parse: JSON.parse, stringify: (text) => text });
    // Shards are compact: smaller files and a faster stringify. meta.json is small and read by people.
    this.stringify = pretty === true ? (d) => JSON.stringify(d, null, 2) : pretty === "text" ? (d) => d as string : (d) => JSON.stringify(d);
  }

  /** A file whose writer hands `write` the JSON text already made (documents: see docFiles.ts). */
  static ofText(dir: string, name: string): StoreFile<string> {
    return new StoreFile<string>(dir, name, "text");
  }

  /** The parsed content, or null if the file does not exist. */
  async read(): Promise<unknown> {
    try {
      return (await this.adapter.read()) as unknown;
    } catch (err) {
      const reason = err instanceof SyntaxError ? `invalid JSON (${err.message})` : `unreadable (${errMessage(err)})`;
      throw new StoreCorruptError(this.path, reason);
    }
  }

  /** Serialises `data` synchronously, then resolves once the file was renamed into place. */
  write(data: T): Promise<void> {
    let text: string;
    try {
      text = this.stringify(data);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.replaceWith(text);
  }

  /**
   * Temp file + rename, as steno does, with the temp made owner-only at its creation (exclusive, 0600):
   * no separate chmod round trip on every write. One write per file is in flight (flusher.ts), so a temp
   * already there is one a crash left, of whatever mode: removed first.
   */
  private async replaceWith(text: string): Promise<void> {
    const tmp = tempPath(this.path);
    try {
      await writeFile(tmp, text, { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      await rm(tmp, { force: true });
      await writeFile(tmp, text, { mode: 0o600, flag: "wx" });
    }
    await rename(tmp, this.path);
  }
}

/** The temp file for `file`: `.<name>.tmp` beside it (steno's name, so older versions' leftovers are found). */
function tempPath(file: string): string {
  return join(dirname(file), `.${basename(file)}.tmp`);
}

function errMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
