/**
 * The update queue behind getUpdates: updates wait until an offset confirms them, and a long poll
 * waits (up to its timeout) for the next one, released early when the client aborts or the server
 * closes.
 */
import type { Update } from "grammy/types";

interface Poller {
  wake: () => void;
}

export class UpdateQueue {
  private readonly updates: Update[] = [];
  private lastUpdateId = 100_000;
  private readonly pollers = new Set<Poller>();
  private closed = false;

  /** The next update_id (shared by queued updates and updates a test hands the bot directly). */
  nextUpdateId(): number {
    return ++this.lastUpdateId;
  }

  /** Queues an update (assigning `update_id` if missing) and wakes long polls. */
  push(update: Omit<Update, "update_id"> & { update_id?: number }): Update {
    const full = { ...update, update_id: update.update_id ?? this.nextUpdateId() } as Update;
    this.lastUpdateId = Math.max(this.lastUpdateId, full.update_id);
    this.updates.push(full);
    this.wakeAll();
    return full;
  }

  /** Updates queued and not yet confirmed by an offset. */
  pending(): readonly Update[] {
    return this.updates;
  }

  /** Long polls wait again (a server started). */
  open(): void {
    this.closed = false;
  }

  /** Releases pending long polls, and later ones answer at once (the server is closing). */
  close(): void {
    this.closed = true;
    this.wakeAll();
  }

  clear(): void {
    this.updates.length = 0;
  }

  /** getUpdates: confirms below `offset`, then answers what is queued or waits for it. */
  async take(payload: Record<string, unknown>, signal: AbortSignal | undefined): Promise<Update[]> {
    const offset = typeof payload.offset === "number" ? payload.offset : undefined;
    const limit = typeof payload.limit === "number" && payload.limit > 0 ? Math.min(payload.limit, 100) : 100;
    const timeoutS = typeof payload.timeout === "number" ? payload.timeout : 0;
    // An offset confirms (drops) all updates below it, like Telegram.
    if (offset !== undefined && offset > 0) {
      while (this.updates.length > 0 && this.updates[0]!.update_id < offset) this.updates.shift();
    }
    const deadline = Date.now() + timeoutS * 1000;
    while (this.updates.length === 0 && !this.closed && !signal?.aborted && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const poller: Poller = {
          wake: () => {
            clearTimeout(timer);
            signal?.removeEventListener("abort", poller.wake);
            this.pollers.delete(poller);
            resolve();
          },
        };
        const timer = setTimeout(poller.wake, Math.max(0, deadline - Date.now()));
        signal?.addEventListener("abort", poller.wake);
        this.pollers.add(poller);
      });
    }
    return this.updates.slice(0, limit);
  }

  private wakeAll(): void {
    for (const p of [...this.pollers]) p.wake();
  }
}
