import { describe, expect, it } from "vitest";
import {
  adoptDue,
  callbackDue,
  deadline,
  decideChange,
  decideNext,
  initialDue,
  parkDecision,
  retryNotice,
  shouldCheck,
  trackedDue,
} from "../../src/jobs/watcher/decide.js";
import { DEFAULT_WATCHER_OPTIONS, HOUR, MINUTE, type WatcherOptions } from "../../src/jobs/watcher/watcherOptions.js";
import { UpstreamError } from "../../src/upstream/errors.js";
import type { Lookup } from "../../src/domain/refresh.js";
import type { TxRecord } from "../../src/store/index.js";

const S = 1000;
const T0 = Date.UTC(2026, 0, 1);
const o: WatcherOptions = { ...DEFAULT_WATCHER_OPTIONS };

function tx(over: Partial<TxRecord> & Record<string, unknown> = {}): TxRecord {
  return { refId: "R1", chatId: 7, kind: "prepaid", status: "pending", amount: 10_000, createdAt: T0, updatedAt: T0, ...over } as TxRecord;
}

const found = (status: TxRecord["status"], fields: Record<string, unknown> = {}): Lookup => ({ kind: "found", status, providerStatus: status, fields });
const notFound: Lookup = { kind: "not-found", message: "unknown id" };
const failed: Lookup = { kind: "error", error: new UpstreamError("unavailable", "/status", false, "timeout") };
const quiet = { chatInactive: false, shownByCaller: false };

describe("decideChange: what a status answer changes and who is told", () => {
  const cases: { name: string; cur: TxRecord; checked?: TxRecord["status"]; lookup: Lookup; now?: number; facts?: typeof quiet; want: unknown }[] = [
    { name: "the record changed since the check read it", cur: tx({ status: "success" }), checked: "pending", lookup: found("failed"), want: { act: "changed-meanwhile" } },
    { name: "still pending, nothing new", cur: tx(), lookup: found("pending"), want: { act: "none" } },
    { name: "a provider error teaches nothing", cur: tx(), lookup: failed, want: { act: "none" } },
    { name: "pending and not found: nothing (only a sending record becomes unknown)", cur: tx(), lookup: notFound, want: { act: "none" } },
    {
      name: "success is announced with what was learned",
      cur: tx(),
      lookup: found("success", { sn: "SN1" }),
      want: { act: "announce", notice: "success", fields: { sn: "SN1" }, next: "success" },
    },
    { name: "failure is announced", cur: tx(), lookup: found("failed"), want: { act: "announce", notice: "failed", fields: {}, next: "failed" } },
    {
      name: "a field already held is not written again",
      cur: tx({ sn: "SN1" }),
      lookup: found("success", { sn: "SN1" }),
      want: { act: "announce", notice: "success", fields: {}, next: "success" },
    },
    { name: "fields learned without a change are recorded silently", cur: tx(), lookup: found("pending", { upstreamId: "U9" }), want: { act: "record", patch: { upstreamId: "U9" } } },
    { name: "a sale going to processing is recorded, not told", cur: tx(), lookup: found("processing"), want: { act: "record", patch: { status: "processing" } } },
    {
      name: "a deposit paid and waiting for settlement is told",
      cur: tx({ kind: "deposit" }),
      lookup: found("processing"),
      want: { act: "announce", notice: "processing", fields: {}, next: "processing" },
    },
    { name: "unknown back to pending is recorded, not told", cur: tx({ status: "unknown" }), lookup: found("pending"), want: { act: "record", patch: { status: "pending" } } },
    {
      name: "sending, not found within the grace: still nothing",
      cur: tx({ status: "sending", updatedAt: T0 }),
      lookup: notFound,
      now: T0 + o.sendingGraceMs - 1,
      want: { act: "none" },
    },
    {
      name: "sending, not found after the grace: the outcome is unknown, and told",
      cur: tx({ status: "sending", updatedAt: T0 }),
      lookup: notFound,
      now: T0 + o.sendingGraceMs,
      want: { act: "announce", notice: "unknown", fields: {}, next: "unknown" },
    },
    {
      name: "sending and a provider error after the grace: nothing (an error is not a 'not found')",
      cur: tx({ status: "sending", updatedAt: T0 }),
      lookup: failed,
      now: T0 + 10 * o.sendingGraceMs,
      want: { act: "none" },
    },
    {
      name: "a chat that blocked the bot: saved now, the notice owed",
      cur: tx({ watch: { nextCheckAt: T0, attempts: 3 } }),
      lookup: found("success", { sn: "SN1" }),
      facts: { chatInactive: true, shownByCaller: false },
      want: { act: "owe", notice: "success", patch: { sn: "SN1", status: "success", watch: { nextCheckAt: T0, attempts: 3, owed: "success" } } },
    },
    {
      name: "a blocked chat's own /status shows the answer: announced, not owed",
      cur: tx(),
      lookup: found("success"),
      facts: { chatInactive: true, shownByCaller: true },
      want: { act: "announce", notice: "success", fields: {}, next: "success" },
    },
    { name: "a blocked chat with nothing to tell: recorded as usual", cur: tx(), lookup: found("processing"), facts: { chatInactive: true, shownByCaller: false }, want: { act: "record", patch: { status: "processing" } } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(decideChange(c.checked ?? c.cur.status, c.cur, c.lookup, c.now ?? T0 + 10 * S, o, c.facts ?? quiet)).toEqual(c.want);
    });
  }
});

describe("decideNext: when to look again", () => {
  const cases: { name: string; cur: TxRecord; now: number; callbacksLastAt?: number; checkFailed?: boolean; want: unknown }[] = [
    { name: "given up already: no more automatic checks", cur: tx({ watch: { nextCheckAt: T0, attempts: 9, gaveUp: true } }), now: T0 + 25 * HOUR, want: { act: "stop" } },
    { name: "past its deadline: give up (tell how to check by hand)", cur: tx(), now: T0 + o.maxAgeMs, want: { act: "give-up" } },
    {
      name: "young: the first step again, attempts kept, nothing saved (the saved time lags)",
      cur: tx({ watch: { nextCheckAt: T0 + 5 * S, attempts: 0 } }),
      now: T0 + 30 * S,
      want: { act: "schedule", at: T0 + 35 * S },
    },
    {
      name: "young with a saved time later than the new one: saved",
      cur: tx({ watch: { nextCheckAt: T0 + HOUR, attempts: 0 } }),
      now: T0 + 30 * S,
      want: { act: "schedule", at: T0 + 35 * S, save: { nextCheckAt: T0 + 35 * S, attempts: 0 } },
    },
    {
      name: "young without a watch state yet: the first step, nothing saved",
      cur: tx(),
      now: T0 + 5 * S,
      want: { act: "schedule", at: T0 + 10 * S },
    },
    {
      name: "old: the backoff doubles from the first step and is saved",
      cur: tx({ watch: { nextCheckAt: T0, attempts: 2 } }),
      now: T0 + 10 * MINUTE,
      want: { act: "schedule", at: T0 + 10 * MINUTE + 40 * S, save: { nextCheckAt: T0 + 10 * MINUTE + 40 * S, attempts: 3 } },
    },
    {
      name: "old: the wait is capped at maxIntervalMs",
      cur: tx({ watch: { nextCheckAt: T0, attempts: 20 } }),
      now: T0 + HOUR,
      want: { act: "schedule", at: T0 + HOUR + o.maxIntervalMs, save: { nextCheckAt: T0 + HOUR + o.maxIntervalMs, attempts: 21 } },
    },
    {
      name: "the next check never lies past the deadline",
      cur: tx({ watch: { nextCheckAt: T0, attempts: 20 } }),
      now: T0 + o.maxAgeMs - MINUTE,
      want: { act: "schedule", at: T0 + o.maxAgeMs, save: { nextCheckAt: T0 + o.maxAgeMs, attempts: 21 } },
    },
    {
      name: "sending: scheduled but never saved (a write would move the grace)",
      cur: tx({ status: "sending", watch: { nextCheckAt: T0, attempts: 20 } }),
      now: T0 + HOUR,
      want: { act: "schedule", at: T0 + HOUR + o.maxIntervalMs },
    },
    {
      name: "callbacks work: checked when the age doubles, saved, attempts untouched",
      cur: tx({ watch: { nextCheckAt: T0, attempts: 2 } }),
      now: T0 + 3 * MINUTE,
      callbacksLastAt: T0 + 2 * MINUTE,
      want: { act: "schedule", at: T0 + 6 * MINUTE, save: { nextCheckAt: T0 + 6 * MINUTE, attempts: 2 } },
    },
    {
      name: "stale callbacks: the normal schedule",
      cur: tx({ watch: { nextCheckAt: T0, attempts: 0 } }),
      now: T0 + HOUR,
      callbacksLastAt: T0 + HOUR - o.callbacksFreshMs,
      want: { act: "schedule", at: T0 + HOUR + 10 * S, save: { nextCheckAt: T0 + HOUR + 10 * S, attempts: 1 } },
    },
    {
      name: "unknown ids keep the normal schedule even when callbacks work",
      cur: tx({ status: "unknown", watch: { nextCheckAt: T0, attempts: 0 } }),
      now: T0 + HOUR,
      callbacksLastAt: T0 + HOUR - S,
      want: { act: "schedule", at: T0 + HOUR + 10 * S, save: { nextCheckAt: T0 + HOUR + 10 * S, attempts: 1 } },
    },
    {
      name: "check failed (old id): tried again after one key pause, not minutes later; attempts kept, nothing saved",
      cur: tx({ watch: { nextCheckAt: T0 + HOUR, attempts: 20 } }),
      now: T0 + HOUR,
      checkFailed: true,
      want: { act: "schedule", at: T0 + HOUR + o.keyBackoff.capMs },
    },
    {
      name: "check failed (young id): the same pause, attempts kept",
      cur: tx({ watch: { nextCheckAt: T0 + 30 * S, attempts: 0 } }),
      now: T0 + 30 * S,
      checkFailed: true,
      want: { act: "schedule", at: T0 + 30 * S + o.keyBackoff.capMs },
    },
    {
      name: "check failed with working callbacks: still tried again after one pause",
      cur: tx({ watch: { nextCheckAt: T0 + 3 * MINUTE, attempts: 2 } }),
      now: T0 + 3 * MINUTE,
      callbacksLastAt: T0 + 2 * MINUTE,
      checkFailed: true,
      want: { act: "schedule", at: T0 + 3 * MINUTE + o.keyBackoff.capMs },
    },
    {
      name: "check failed with a saved time later than the retry: the retry is saved",
      cur: tx({ watch: { nextCheckAt: T0 + HOUR, attempts: 3 } }),
      now: T0 + 10 * MINUTE,
      checkFailed: true,
      want: { act: "schedule", at: T0 + 10 * MINUTE + o.keyBackoff.capMs, save: { nextCheckAt: T0 + 10 * MINUTE + o.keyBackoff.capMs, attempts: 3 } },
    },
    {
      name: "check failed near the deadline: the retry never lies past it",
      cur: tx({ watch: { nextCheckAt: T0, attempts: 20 } }),
      now: T0 + o.maxAgeMs - S,
      checkFailed: true,
      want: { act: "schedule", at: T0 + o.maxAgeMs },
    },
    { name: "check failed past the deadline: give up", cur: tx(), now: T0 + o.maxAgeMs, checkFailed: true, want: { act: "give-up" } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(decideNext(c.cur, c.now, o, c.callbacksLastAt, c.checkFailed)).toEqual(c.want);
    });
  }
});

describe("deadline: when automatic checks end", () => {
  it.each([
    ["a sale: maxAgeMs after creation", tx(), T0 + o.maxAgeMs],
    ["a deposit with an expiry: depositLateMs after it", tx({ kind: "deposit", detail: { expiresAt: T0 + HOUR } }), T0 + HOUR + o.depositLateMs],
    ["a deposit without an expiry: maxAgeMs, then depositLateMs", tx({ kind: "deposit" }), T0 + o.maxAgeMs + o.depositLateMs],
    ["a paid deposit waiting for settlement", tx({ kind: "deposit", status: "processing", detail: { expiresAt: T0 + HOUR } }), T0 + o.depositProcessingMaxAgeMs],
  ])("%s", (_name, record, want) => {
    expect(deadline(record, o)).toBe(want);
  });
});

describe("due times outside a check", () => {
  const madeAt = T0 + HOUR;
  it.each([
    ["a new record: firstCheckMs after creation", tx(), madeAt + MINUTE, T0 + 5 * S],
    ["a saved due time is resumed", tx({ watch: { nextCheckAt: T0 + 2 * HOUR, attempts: 4 } }), madeAt, T0 + 2 * HOUR],
    ["a notice in flight: at once", tx({ watch: { nextCheckAt: T0 + 2 * HOUR, attempts: 4, announcing: "success" } }), madeAt, madeAt],
    ["given up with a notice in flight: at once", tx({ watch: { nextCheckAt: T0, attempts: 4, gaveUp: true, announcing: "gaveup" } }), madeAt, madeAt],
    ["given up: not watched", tx({ watch: { nextCheckAt: T0, attempts: 4, gaveUp: true } }), madeAt, undefined],
    ["sending: after the grace from its last write", tx({ status: "sending", updatedAt: T0 + HOUR + S }), madeAt + 2 * S, T0 + HOUR + S + o.sendingGraceMs],
  ])("adoptDue: %s", (_name, record, now, want) => {
    expect(adoptDue(record, now, o, madeAt)).toBe(want);
  });

  it("adoptDue: a sending record from before this process, when only it creates, is looked up at once", () => {
    const lost = tx({ status: "sending", updatedAt: madeAt - S });
    expect(adoptDue(lost, madeAt + S, { ...o, sendingLostAtStart: true }, madeAt)).toBe(madeAt + S);
    expect(adoptDue(lost, madeAt + S, o, madeAt)).toBe(madeAt - S + o.sendingGraceMs);
    // One written since this process was made may still be in its create call.
    expect(adoptDue(tx({ status: "sending", updatedAt: madeAt }), madeAt + S, { ...o, sendingLostAtStart: true }, madeAt)).toBe(madeAt + o.sendingGraceMs);
  });

  it("initialDue: a sending record waits out its grace, others firstCheckMs", () => {
    expect(initialDue(tx({ status: "sending", updatedAt: T0 + S }), o)).toBe(T0 + S + o.sendingGraceMs);
    expect(initialDue(tx({ updatedAt: T0 + S }), o)).toBe(T0 + o.firstCheckMs);
  });

  it("trackedDue: firstCheckMs after the create answered, or the callbacks' pace", () => {
    expect(trackedDue(tx(), T0 + S, o, undefined)).toBe(T0 + S + o.firstCheckMs);
    expect(trackedDue(tx(), T0 + S, o, T0)).toBe(T0 + S + o.callbackFirstMs);
  });

  it("callbackDue: at most callbackMaxIntervalMs apart, and never after the callbacks go stale", () => {
    expect(callbackDue(tx(), T0 + 5 * HOUR, o, T0 + 5 * HOUR)).toBe(T0 + 5 * HOUR + o.callbackMaxIntervalMs);
    expect(callbackDue(tx(), T0 + 5 * HOUR, o, T0 + 5 * HOUR - o.callbacksFreshMs + MINUTE)).toBe(T0 + 5 * HOUR + MINUTE);
    expect(callbackDue(tx({ status: "sending" }), T0 + S, o, T0)).toBeUndefined();
  });

  it("parkDecision: a record that cannot be polled is looked at again, or dropped past its deadline", () => {
    expect(parkDecision(tx(), T0 + HOUR, o)).toEqual({ act: "schedule", at: T0 + HOUR + o.maxIntervalMs });
    expect(parkDecision(tx(), T0 + o.maxAgeMs, o)).toEqual({ act: "drop" });
  });

  it("retryNotice: an uncertain notice is due again when the gate says, the watch state kept", () => {
    expect(retryNotice(tx({ watch: { nextCheckAt: T0, attempts: 3, announcing: "success", claim: 2 } }), T0 + HOUR + o.notifyRetryMs)).toEqual({
      at: T0 + HOUR + o.notifyRetryMs,
      save: { nextCheckAt: T0 + HOUR + o.notifyRetryMs, attempts: 3, announcing: "success", claim: 2 },
    });
  });

  it.each([
    ["an open record", tx(), false, true],
    ["given up", tx({ watch: { nextCheckAt: T0, attempts: 1, gaveUp: true } }), false, false],
    ["given up, asked for (/status, a callback)", tx({ watch: { nextCheckAt: T0, attempts: 1, gaveUp: true } }), true, true],
    ["given up with a notice in flight", tx({ watch: { nextCheckAt: T0, attempts: 1, gaveUp: true, announcing: "gaveup" } }), false, true],
  ])("shouldCheck: %s", (_name, record, asked, want) => {
    expect(shouldCheck(record, asked)).toBe(want);
  });
});
