/**
 * A binary min-heap of items due at a time, first-in first-out among equal times: O(log n) per
 * push and pop however many are waiting. Shared by the sandbox's state transitions and the status
 * watcher's schedule.
 */
export interface Due<T> {
  at: number;
  seq: number;
  item: T;
}

export class DueQueue<T> {
  private readonly h: Due<T>[] = [];
  private seq = 0;

  get size(): number {
    return this.h.length;
  }

  peek(): Due<T> | undefined {
    return this.h[0];
  }

  push(at: number, item: T): void {
    const h = this.h;
    h.push({ at, seq: this.seq++, item });
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  pop(): Due<T> | undefined {
    const h = this.h;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && less(h[l]!, h[m]!)) m = l;
        if (r < h.length && less(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }

  /** Pops the first item if it is due at `now`. */
  popDue(now: number): Due<T> | undefined {
    const top = this.h[0];
    return top && top.at <= now ? this.pop() : undefined;
  }
}

function less<T>(a: Due<T>, b: Due<T>): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
