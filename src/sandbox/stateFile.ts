/**
 * A state kept in one JSON file: read once at start, written on change a little later (many changes
 * make one write), atomically (a temporary file renamed over the old one: a crash leaves the old
 * state or the new, never half). The sandbox keeps its accounts and records here, the playground its
 * chat windows.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Clock, TimerHandle } from "../tools/clock.js";

/** The file's JSON, or undefined when there is none yet. */
export async function readStateFile<T>(file: string): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return undefined;
    throw e;
  }
  return JSON.parse(text) as T;
}

export class StateFile {
  private timer: TimerHandle | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly snapshot: () => unknown,
    private readonly clock: Clock,
    private readonly delayMs = 200,
  ) {}

  /** Something changed: written within `delayMs`. */
  soon(): void {
    if (this.timer) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.write().catch(() => undefined); // the next change or flush() tries again
    }, this.delayMs);
  }

  /** Writes now what a pending soon() would have written (at stop). */
  async flush(): Promise<void> {
    if (this.timer) {
      this.timer.cancel();
      this.timer = undefined;
      await this.write();
    }
    await this.writing;
  }

  private write(): Promise<void> {
    const text = JSON.stringify(this.snapshot());
    // One write at a time, in order: a slow older write never lands over a newer one.
    this.writing = this.writing.catch(() => undefined).then(async () => {
      await mkdir(dirname(this.file), { recursive: true });
      const tmp = `${this.file}.tmp`;
      await writeFile(tmp, text);
      await rename(tmp, this.file);
    });
    return this.writing;
  }
}
