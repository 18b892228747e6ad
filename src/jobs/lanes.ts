/**
 * The watcher's per-api-key lanes: each key has a FIFO of due reference ids, a failure backoff and
 * a wake-up timer (plus a FIFO of urgent ids, served first); runnable lanes take turns through a second FIFO (round robin).
 */
import { createHash } from "node:crypto";
import type { TimerHandle } from "../tools/clock.js";
import type { FailureBackoff } from "./backoff.js";

/** Lane id of an api key: a hash, so no raw key sits in long-lived maps. */
export function laneId(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex").slice(0, 20);
}

export interface Lane {
  id: string;
  queue: Fifo<string>;
  /** Ids a provider callback says changed: served before `queue`, under the same limits. */
  urgent: Fifo<string>;
  inflight: number;
  backoff: FailureBackoff;
  /** Timer waking the lane after a rate or failure pause, and when it fires. */
  wake?: TimerHandle;
  wakeAt?: number;
  /** In the runnable queue. */
  listed: boolean;
}

/** FIFO with O(1) shift (compacts now and then). */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(x: T): void {
    this.items.push(x);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const x = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return x;
  }

  /** Takes `x` out wherever it waits (O(n); only for the rare check on demand). */
  remove(x: T): boolean {
    const i = this.items.indexOf(x, this.head);
    if (i < 0) return false;
    this.items.splice(i, 1);
    return true;
  }
}
