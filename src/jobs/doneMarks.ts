/**
 * The "done" marks of one broadcast run: which recipients (walked in ascending chat id order)
 * have an outcome, kept as a cursor plus the few answers that came back out of order.
 */
/** Which recipients of one run have an outcome: a cursor over the queue plus the few done past it. */
export class DoneMarks {
  private readonly marks: Uint8Array;
  private first = 0;
  /** One past the highest index marked. */
  private end = 0;

  constructor(
    readonly queue: readonly number[],
    doneAhead: readonly number[],
  ) {
    this.marks = new Uint8Array(queue.length);
    const ahead = new Set(doneAhead);
    for (let i = 0; i < queue.length && ahead.size > 0; i++) {
      if (ahead.delete(queue[i]!)) this.mark(i);
    }
  }

  /** Index of the first recipient without an outcome. */
  get firstOpen(): number {
    return this.first;
  }

  has(i: number): boolean {
    return this.marks[i] === 1;
  }

  mark(i: number): void {
    this.marks[i] = 1;
    this.end = Math.max(this.end, i + 1);
    while (this.first < this.queue.length && this.marks[this.first] === 1) this.first++;
  }

  /** The cursor to store: the last id of the done prefix (or `before` when the prefix is empty). */
  doneThrough(before: number | null): number | null {
    return this.first > 0 ? this.queue[this.first - 1]! : before;
  }

  /** Ids done past the cursor. */
  ahead(): number[] {
    const out: number[] = [];
    for (let i = this.first; i < this.end; i++) if (this.marks[i] === 1) out.push(this.queue[i]!);
    return out;
  }
}
