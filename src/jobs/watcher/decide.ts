/**
 * What the status watcher decides, apart from what it does: pure functions of a record, what the
 * provider answered, the time and the options (no store, no clock, no I/O). The watcher reads what
 * they need, calls them, and applies the answer (lookups.ts, applyDecision.ts).
 *
 * A check decides in two steps, each on the record as stored at that moment: first what the answer
 * changes (`decideChange`: record, announce, or owe a notice to a chat that blocked the bot), then,
 * on the record as the change left it (another writer may have won), when to look again
 * (`decideNext`: the next due time, or giving up past the deadline).
 *
 * Ends. Prepaid, postpaid and transfers are watched for `maxAgeMs`; a pending deposit until
 * `depositLateMs` after its expiry (it can be paid late; only then is `expired` final); a paid
 * deposit waiting for settlement for `depositProcessingMaxAgeMs`. After that the chat is told once
 * how to check by hand (`watch.gaveUp`).
 *
 * Backoff. Checks `firstCheckMs` apart while younger than `youngMs`, then doubling up to
 * `maxIntervalMs`; a chat whose provider callbacks work has its pending ids checked far less often
 * (`callbackDue`). Why these numbers: watcherOptions.ts.
 */
import type { TxPatch, TxRecord, TxStatus } from "../../store/index.js";
import type { Lookup } from "../../domain/refresh.js";
import { lookupPatch } from "../../domain/refresh.js";
import { backoffDelay } from "./backoff.js";
import { watchOf, type Watch } from "./announce.js";
import { noticeFor, type NoticeKind } from "./notify.js";
import type { WatcherOptions } from "./watcherOptions.js";

/** What a status answer changes in the record and what the chat is told. */
export type ChangeDecision =
  /** The record changed since the check read it (/status, a deposit button): nothing to write. */
  | { act: "changed-meanwhile" }
  /** Nothing learned, nothing to write. */
  | { act: "none" }
  /** Saved without telling the chat (fields learned, or a change no one is told about). */
  | { act: "record"; patch: TxPatch }
  /** Told through the exactly-once protocol: `fields` with the marker, then `next` (announce.ts). */
  | { act: "announce"; notice: NoticeKind; fields: TxPatch; next: TxStatus }
  /** The chat blocked the bot: saved now with the notice owed (`watch.owed`), told when it is back. */
  | { act: "owe"; notice: NoticeKind; patch: TxPatch };

export interface ChangeFacts {
  /** The chat is marked inactive (it blocked the bot). */
  chatInactive: boolean;
  /** A user's own check: its caller shows the answer, so nothing is owed. */
  shownByCaller: boolean;
  /** The key still answers (a profile call just succeeded): asked only when a wallet's purchase is ripe to fail as absent. */
  keyAnswers?: boolean;
}

/**
 * "Not at the provider" for a wallet's purchase (docs/wallets.md, as shop-orders rule 9): counted "not
 * found by our reference" answers at most every ABSENT_ASK_MS, at least ABSENT_ANSWERS of them spanning
 * ABSENT_WINDOW_MS, with the key still answering. Only then is the record failed and its hold released.
 */
export const ABSENT_ASK_MS = 15 * 60_000;
export const ABSENT_ANSWERS = 3;
export const ABSENT_WINDOW_MS = 30 * 60_000;
export type Absent = NonNullable<Watch["absent"]>;

/** The "not found" count of a held wallet record after `lookup`, or undefined when this answer changes no count. */
export function absentAfter(cur: TxRecord, lookup: Lookup, now: number): Absent | undefined {
  if (cur.kind === "deposit" || cur.wallet?.state !== "held" || cur.upstreamId !== undefined) return undefined;
  const prev = watchOf(cur).absent;
  if (prev?.found) return undefined;
  // Any answer that finds it ends the count for good; an error counts for nothing.
  if (lookup.kind === "found") return { ...(prev ?? { answers: 0, firstAt: now, lastAt: now }), found: true };
  if (lookup.kind !== "not-found" || cur.status !== "unknown") return undefined;
  if (prev && now - prev.lastAt < ABSENT_ASK_MS) return undefined;
  return { answers: (prev?.answers ?? 0) + 1, firstAt: prev?.firstAt ?? now, lastAt: now };
}

/** Enough "not found" answers over the window to call the purchase absent (the key's check still to come). */
export function absentRipe(a: Absent | undefined): boolean {
  return !!a && !a.found && a.answers >= ABSENT_ANSWERS && a.lastAt - a.firstAt >= ABSENT_WINDOW_MS;
}

/**
 * What the answer `lookup` to a check of a record in `checkedStatus` changes in `cur` (the record
 * read again after the call).
 */
export function decideChange(
  checkedStatus: TxStatus,
  cur: TxRecord,
  lookup: Lookup,
  now: number,
  options: Pick<WatcherOptions, "sendingGraceMs">,
  facts: ChangeFacts,
): ChangeDecision {
  if (cur.status !== checkedStatus) return { act: "changed-meanwhile" };
  let next: TxStatus = cur.status;
  let fields = lookupPatch(cur, lookup, { withStatus: false });
  const absent = absentAfter(cur, lookup, now);
  if (lookup.kind === "found") next = lookup.status;
  // Not found by our reference after the grace: the create call's outcome is simply unknown.
  else if (cur.status === "sending" && lookup.kind === "not-found" && now >= cur.updatedAt + options.sendingGraceMs) next = "unknown";
  else if (absentRipe(absent) && facts.keyAnswers === true && lookup.kind === "not-found") {
    // A wallet's purchase the provider does not hold: failed, so the store releases its hold in the same write.
    next = "failed";
    fields = { ...fields, message: lookup.message.slice(0, 500) };
  }
  if (absent && next === cur.status) fields = { ...fields, watch: { ...watchOf(cur), absent } };
  const notice = noticeFor(cur, next);
  if (notice && facts.chatInactive && !facts.shownByCaller) {
    return { act: "owe", notice, patch: { ...fields, status: next, watch: { ...watchOf(cur), owed: notice } } };
  }
  if (notice) return { act: "announce", notice, fields, next };
  if (next !== cur.status || Object.keys(fields).length > 0) {
    return { act: "record", patch: { ...fields, ...(next !== cur.status ? { status: next } : {}) } };
  }
  return { act: "none" };
}

/** When to look at a record again after a check. */
export type NextDecision =
  /** Closed, or given up already: no more automatic checks. */
  | { act: "stop" }
  /** Past its deadline: tell the chat once how to check by hand. */
  | { act: "give-up" }
  /** Check again at `at`; `save` is the watch state to write first (absent: nothing to save). */
  | { act: "schedule"; at: number; save?: Watch };

/**
 * The next check of `cur` (as stored after the change). `callbacksLastAt`: when the chat's last
 * valid provider callback came, if ever. `checkFailed`: the status call got no answer (an error).
 */
export function decideNext(cur: TxRecord, now: number, options: WatcherOptions, callbacksLastAt: number | undefined, checkFailed = false): NextDecision {
  const w = watchOf(cur);
  if (w.gaveUp) return { act: "stop" };
  const end = deadline(cur, options);
  if (now >= end) return { act: "give-up" };
  if (checkFailed) {
    // The provider did not answer: nothing was learned, so the schedule does not advance. The id is
    // back in its key's queue after one pause: the key's probes (one call per pause) go through its
    // failed ids, and the first answer lets them all go at the per-key cap, not minutes later.
    // Nothing saved: the saved due time stays at or before this one (a restart checks it at once).
    const at = Math.min(now + options.keyBackoff.capMs, end);
    return { act: "schedule", at, ...(w.nextCheckAt > at ? { save: { ...w, nextCheckAt: at } } : {}) };
  }
  const viaCallbacks = callbackDue(cur, now, options, callbacksLastAt);
  if (viaCallbacks !== undefined) {
    const at = Math.min(viaCallbacks, end);
    // Checks are a minute or more apart here: saving each due time costs little.
    return { act: "schedule", at, save: { ...w, nextCheckAt: at } };
  }
  // While young the wait stays at the first step and the backoff does not advance: `attempts`
  // counts the checks since the young phase ended (the doubling starts from there).
  const young = now - cur.createdAt < options.youngMs;
  const attempts = young ? w.attempts : w.attempts + 1;
  const at = Math.min(now + backoffDelay(attempts, { firstMs: options.firstCheckMs, factor: options.backoffFactor, capMs: options.maxIntervalMs }), end);
  // A young id's due time moves every few seconds: saving each move would rewrite its store
  // shard per check (hundreds of writes a second with many pending). The saved due time stays
  // at or before the real one, so after a restart it is simply checked at once.
  // Not for a "sending" record: a write would move its updatedAt, from which its grace counts; after a
  // restart its due time follows from that (initialDue, sendingLostAtStart) anyway.
  const save = (!young || w.nextCheckAt > at) && cur.status !== "sending";
  return { act: "schedule", at, ...(save ? { save: { ...w, attempts, nextCheckAt: at } } : {}) };
}

/** A notice whose delivery was uncertain (or rate limited) is tried again at `at` (telegramGate.ts says when). */
export function retryNotice(cur: TxRecord, at: number): { at: number; save: Watch } {
  return { at, save: { ...watchOf(cur), nextCheckAt: at } };
}

/** Whether a due check of `tx` runs: a given-up id is checked only when asked (or a notice is in flight). */
export function shouldCheck(tx: TxRecord, asked: boolean): boolean {
  const w = watchOf(tx);
  return !(w.gaveUp && !w.announcing && !asked);
}

/** A record that cannot be polled now (no readable api key): looked at again later, or dropped past its deadline. */
export function parkDecision(tx: TxRecord, now: number, options: WatcherOptions): { act: "drop" } | { act: "schedule"; at: number } {
  if (now >= deadline(tx, options)) return { act: "drop" };
  return { act: "schedule", at: now + options.maxIntervalMs };
}

/**
 * When an open record found in the store (start, rescan, a hint) is due: at once if a notice was in
 * flight, else at its saved due time, else as a new one's. Undefined: not watched (given up).
 * `madeAt`: when this watcher was made (a "sending" record older than that lost its create call).
 */
export function adoptDue(tx: TxRecord, now: number, options: WatcherOptions, madeAt: number): number | undefined {
  const w = watchOf(tx);
  if (w.gaveUp && !w.announcing) return undefined;
  let at = w.announcing ? now : tx.watch ? w.nextCheckAt : initialDue(tx, options);
  if (tx.status === "sending" && options.sendingLostAtStart && tx.updatedAt < madeAt) at = Math.min(at, now);
  return at;
}

/** The first due time of a record never checked. */
export function initialDue(tx: TxRecord, options: Pick<WatcherOptions, "sendingGraceMs" | "firstCheckMs">): number {
  // A "sending" record may still be in its create call: leave it to the engine for a while.
  if (tx.status === "sending") return tx.updatedAt + options.sendingGraceMs;
  return tx.createdAt + options.firstCheckMs;
}

/** The first check of a record a create just answered (track): callbacks' pace, else `firstCheckMs`. */
export function trackedDue(tx: TxRecord, now: number, options: WatcherOptions, callbacksLastAt: number | undefined): number {
  return callbackDue(tx, now, options, callbacksLastAt) ?? now + options.firstCheckMs;
}

/**
 * The next check of a pending/processing id whose chat's callbacks work (see
 * DEFAULT_WATCHER_OPTIONS): when its age doubles, within the cap, and at the latest when the
 * callbacks stop counting as working (then the normal schedule takes over). `attempts` is left
 * alone, so the normal doubling restarts from its first step. Undefined: the normal schedule.
 */
export function callbackDue(tx: TxRecord, now: number, options: WatcherOptions, callbacksLastAt: number | undefined): number | undefined {
  if (!usesCallbacks(tx)) return undefined;
  if (callbacksLastAt === undefined || now - callbacksLastAt >= options.callbacksFreshMs) return undefined;
  const wait = Math.min(options.callbackMaxIntervalMs, Math.max(options.callbackFirstMs, now - tx.createdAt));
  return Math.min(now + wait, callbacksLastAt + options.callbacksFreshMs);
}

/** Whether the chat's callbacks can pace `tx` (only then is its chat's `callbacksLastAt` needed). */
export function usesCallbacks(tx: Pick<TxRecord, "status">): boolean {
  return tx.status === "pending" || tx.status === "processing";
}

/** When automatic checks of `tx` end. */
export function deadline(tx: TxRecord, options: Pick<WatcherOptions, "maxAgeMs" | "depositProcessingMaxAgeMs" | "depositLateMs">): number {
  if (tx.kind !== "deposit") return tx.createdAt + options.maxAgeMs;
  if (tx.status === "processing") return tx.createdAt + options.depositProcessingMaxAgeMs;
  const expiresAt = tx.detail?.expiresAt;
  const base = typeof expiresAt === "number" && Number.isFinite(expiresAt) ? expiresAt : tx.createdAt + options.maxAgeMs;
  return base + options.depositLateMs;
}
