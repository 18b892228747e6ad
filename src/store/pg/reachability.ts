/**
 * Whether a pool's database answers, and what its queries do when it does not. A database that
 * refuses (stopped cleanly) fails each query at once; one that stopped answering (a frozen process,
 * a cut network) lets queries and new connections wait for many seconds. So: once the database is
 * known to be unreachable, queries fail at once without being sent while a probe waits for it (and
 * each is refused unless a probe of its own hears the database within the deadline); and a caller that must answer a person soon may wait for its query with a deadline.
 *
 * A query failed at once was never sent: "not done" is the truth. A query cut at its deadline may
 * still run when the database wakes up: only reads, and writes whose caller treats a failure as
 * "maybe done" (an update claim handled here anyway), may be cut.
 */
import type { Clock, TimerHandle } from "../../tools/clock.js";
import { DatabaseUnreachableError } from "../errors.js";

/** How long an update's first queries wait for a silent database (two in a row stay within 2 s). */
export const PROMPT_DEADLINE_MS = 900;

export interface ReachabilityOptions {
  clock: Clock;
  /** One small query (SELECT 1), sent past the gate. */
  probe: () => Promise<unknown>;
  /** While unreachable, how often the probe runs (the first runs at once). */
  probeEveryMs: number;
  deadlineMs?: number;
}

export class Reachability {
  private reachable = true;
  private closed = false;
  private lastAnswerAt: number;
  private probeTimer: TimerHandle | undefined;
  private probing: Promise<boolean> | undefined;
  private readonly deadlineMs: number;

  constructor(private readonly opts: ReachabilityOptions) {
    this.deadlineMs = opts.deadlineMs ?? PROMPT_DEADLINE_MS;
    this.lastAnswerAt = opts.clock.now();
  }

  get up(): boolean {
    return this.reachable;
  }

  /** The database answered (a result or an error of its own). */
  answered(): void {
    this.lastAnswerAt = this.opts.clock.now();
    this.reachable = true;
  }

  /** A query could not reach the database: unreachable until a probe hears it again. */
  lost(): void {
    if (this.closed) return;
    this.reachable = false;
    if (!this.probing && !this.probeTimer) void this.probe();
  }

  /**
   * Whether a query may be sent: at once while the database is reachable. While it is not, a probe
   * still out (the database has not answered it) refuses at once, unsent; else a new probe decides,
   * waited for at most the deadline, so the first query after the database came back goes through.
   * Undefined: send now.
   */
  admit(): Promise<void> | undefined {
    if (this.reachable) return undefined;
    const refused = () => {
      throw new DatabaseUnreachableError("not sent");
    };
    if (this.probing) return Promise.reject(new DatabaseUnreachableError("not sent"));
    return this.promptly(this.probe()).then((ok) => (ok ? undefined : refused()), refused);
  }

  /**
   * `pending`, or DatabaseUnreachableError once it waited `deadlineMs` while the database said nothing
   * at all (a slow query on a database that answers others is not cut). The query itself runs on.
   */
  promptly<T>(pending: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let timer: TimerHandle | undefined;
      const arm = (ms: number) => {
        timer = this.opts.clock.setTimeout(() => {
          const silentFor = this.opts.clock.now() - this.lastAnswerAt;
          if (this.reachable && silentFor < this.deadlineMs) return arm(this.deadlineMs - silentFor);
          this.lost();
          reject(new DatabaseUnreachableError("no answer"));
        }, ms);
      };
      arm(this.deadlineMs);
      pending.then(
        (v) => (timer?.cancel(), resolve(v)),
        (err: unknown) => (timer?.cancel(), reject(err)),
      );
    });
  }

  /**
   * Probes now: true when the database answered (then it is reachable again). A probe waits as long as
   * the database does (no deadline: a frozen database answers it when it wakes); while one is out,
   * asking again gets the same one.
   */
  probe(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    this.probeTimer?.cancel();
    this.probeTimer = undefined;
    this.probing ??= this.opts.probe().then(
      () => (this.answered(), true),
      () => false,
    ).then((ok) => {
      this.probing = undefined;
      if (!ok && !this.closed) {
        this.reachable = false;
        this.probeTimer = this.opts.clock.setTimeout(() => void this.probe(), this.opts.probeEveryMs);
      }
      return ok;
    });
    return this.probing;
  }

  close(): void {
    this.closed = true;
    this.probeTimer?.cancel();
    this.probeTimer = undefined;
  }
}
