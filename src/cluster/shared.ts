/**
 * What bot processes share besides the records: who runs the background work, hints to
 * that process, each Telegram update handled once, the per-chat rate limit, the webhook secret.
 * LocalShared (localShared.ts) is one process over DATA_DIR; PgShared (pgShared.ts)
 * lets two processes on one PostgreSQL database split the work.
 */

/**
 * One process at a time leads: it runs the watcher, alerts, broadcast, relink notices, the daily
 * summary and, in long polling mode, the polling. `onLead` runs when this process takes the lead,
 * `onLose` when it lost it (stop background work at once: another process may take over).
 */
export interface LeadLost {
  keepUpdates: boolean;
}

export interface Leadership {
  /**
   * onLose: the lead is gone, the background work stops at once. With `keepUpdates` the database
   * cannot be reached, so no other process can take the lead either: the updates loop (long polling)
   * goes on here, every update getting its answer, until another process may lead; then onLose is
   * called again without it.
   */
  run(onLead: () => Promise<void>, onLose: (how?: LeadLost) => Promise<void>): void;
  isLeader(): boolean;
  /** Gives the lead up (if held) and stops trying; onLose is not called. */
  stop(): Promise<void>;
}

/**
 * The term of a lead: a number that grows each time any process takes the lead, kept where every
 * process sees it. The old leader can still believe it leads for a moment after its lock is gone and
 * the other process took over; a leader-only write made through `fenced` under its term is refused
 * then, and a new term begins only after the writes fenced under the old one ended.
 */
export interface LeadFence {
  /** The term this process leads in; undefined when it does not lead. */
  term(): number | undefined;
  /** Runs `write` if `term` is still the current term and holds the term until it ends; false: refused. */
  fenced(term: number, write: () => Promise<void>): Promise<boolean>;
}

/**
 * Hints to the leader: a purchase made on another process (`track`, refId), a provider callback
 * that reached another process (`hurry`, refId), a chat that came back (`chatBack`, chatId), a
 * broadcast an admin started on another process (`broadcast`, its id). Only hints: the leader also
 * rescans the open transactions (WatcherOptions.rescanMs) and looks for a saved broadcast.
 */
export type HintKind = "track" | "hurry" | "chatBack" | "broadcast";

export interface Shared {
  leadership(): Leadership;
  /** Leader-only writes check their term here. */
  fence(): LeadFence;
  /** Sends a hint to the other processes (not to this one). */
  notify(kind: HintKind, id: string): void;
  /** Hints from the other processes. */
  on(kind: HintKind, fn: (id: string) => void): void;
  /** True once per update_id across every process (Telegram may resend a webhook update to the other one). */
  claimUpdate(updateId: number): Promise<boolean>;
  /** Counts a hit on `key` in the current fixed window of `windowMs`; returns the count in it. */
  hit(key: string, windowMs: number): Promise<number>;
  /** The Telegram webhook secret, the same for every process. */
  webhookSecret(): Promise<string>;
  close(): Promise<void>;
}
