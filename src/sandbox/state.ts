/**
 * Shared state of one sandbox: accounts and balances, the clock, seeded ids and the queue of
 * time-driven transitions. Statuses are computed lazily from clock.now() whenever a record is
 * read; the queue only exists so money moves (refunds, deposit credits) reach the balance at the
 * right moment even if nobody reads the record, without timers (a ManualClock drives it).
 */
import type { Clock, TimerHandle } from "../tools/clock.js";
import { Rng } from "./rng.js";
import { DueQueue } from "../tools/dueQueue.js";

/** A business refusal: answered as `{status:false, message, code}`. */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly code = 400,
  ) {
    super(message);
  }
}

export interface Account {
  key: string;
  name: string;
  username: string;
  email: string;
  phone: string;
  balance: number;
  /** Bound to another caller IP: every call is refused naming the caller's IP. */
  ipBound: boolean;
}

/** What a state file keeps of the core. */
export interface CoreState {
  accounts: Account[];
  usedIds: string[];
  rng: number;
}

export class Core {
  readonly accounts = new Map<string, Account>();
  readonly rng: Rng;
  private readonly queue = new DueQueue<() => void>();
  private readonly usedIds = new Set<string>();
  /** Base URL of the running server (for qr_image / payment urls); set once listening. */
  baseUrl = "http://127.0.0.1";
  /** A record's status changed (the sandbox sends callbacks from here). */
  onChange?: (rec: { kind: string; key: string }) => void;
  /** Callbacks are on: due transitions also run on the clock, not only at the next request. */
  private timed = false;
  private readonly timers = new Set<TimerHandle>();
  /** Due times of transitions restored from a state file, armed once runOnClock() is called. */
  private restoredDue: number[] = [];

  constructor(
    readonly clock: Clock,
    seed: number,
  ) {
    this.rng = new Rng(seed);
  }

  now(): number {
    return this.clock.now();
  }

  /** A fresh provider id, unique across every kind of record. */
  newId(length: number): string {
    for (;;) {
      const id = this.rng.text(length);
      if (!this.usedIds.has(id)) {
        this.usedIds.add(id);
        return id;
      }
    }
  }

  /** Runs `run` once clock time reaches `at` (on the next sweep). `run` must be idempotent. */
  schedule(at: number, run: () => void): void {
    this.queue.push(at, run);
    if (!this.timed) return;
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(timer);
      this.sweep();
    }, at - this.now());
    this.timers.add(timer);
  }

  /** Like schedule(), for a transition restored from a state file. */
  scheduleRestored(at: number, run: () => void): void {
    if (!this.timed) this.restoredDue.push(at);
    this.schedule(at, run);
  }

  /** From now on transitions happen at their time (so their callbacks go out then). */
  runOnClock(): void {
    this.timed = true;
    for (const at of this.restoredDue.splice(0)) {
      const timer = this.clock.setTimeout(() => {
        this.timers.delete(timer);
        this.sweep();
      }, at - this.now());
      this.timers.add(timer);
    }
  }

  snapshot(): CoreState {
    return { accounts: [...this.accounts.values()], usedIds: [...this.usedIds], rng: this.rng.position };
  }

  restore(s: CoreState): void {
    this.accounts.clear();
    for (const a of s.accounts) this.accounts.set(a.key, { ...a });
    for (const id of s.usedIds) this.usedIds.add(id);
    this.rng.position = s.rng;
  }

  stopTimers(): void {
    for (const t of this.timers) t.cancel();
    this.timers.clear();
  }

  /** Tells the callback sender that `rec` changed (idempotent transitions call it once each). */
  changed(rec: { kind: string; key: string }): void {
    this.onChange?.(rec);
  }

  /** Applies every transition that is due. Called at the start of each request and control. */
  sweep(): void {
    const now = this.now();
    for (let due = this.queue.popDue(now); due; due = this.queue.popDue(now)) due.item();
  }

  addAccount(key: string, balance: number, name?: string, ipBound = false): Account {
    const slug = key.toLowerCase().replace(/[^a-z0-9]+/g, "").slice(0, 12) || "reseller";
    const acc: Account = {
      key,
      name: name ?? "Sandbox Reseller",
      username: `${slug}_sandbox`,
      email: `${slug}@sandbox.invalid`,
      phone: `0812${String(this.accounts.size + 1).padStart(8, "0")}`,
      balance,
      ipBound,
    };
    this.accounts.set(key, acc);
    return acc;
  }

  /** The account behind an api_key, or the refusal the provider gives. */
  authenticate(key: string | undefined, ip: string): Account {
    const acc = key ? this.accounts.get(key) : undefined;
    if (!acc) throw new Refusal("Api key tidak valid atau tidak ditemukan", 401);
    if (acc.ipBound) {
      throw new Refusal(`Akses ditolak: IP ${ip} tidak terdaftar di whitelist api key ini`, 403);
    }
    return acc;
  }

  account(key: string): Account {
    const acc = this.accounts.get(key);
    if (!acc) throw new Error(`sandbox: unknown key ${key}`);
    return acc;
  }

  debit(acc: Account, amount: number): void {
    if (acc.balance < amount) throw new Refusal("Saldo tidak mencukupi", 402);
    acc.balance -= amount;
  }

  credit(key: string, amount: number): void {
    const acc = this.accounts.get(key);
    if (acc) acc.balance += amount;
  }
}

/** Key of a client reference within one account. */
export const reffKey = (key: string, reff: string) => `${key}\n${reff}`;

/** A whole non-negative rupiah amount, or null. */
export function parseAmount(text: string | undefined): number | null {
  if (text === undefined || !/^\d{1,12}$/.test(text.trim())) return null;
  return Number(text.trim());
}

export function required(params: Record<string, string>, ...names: string[]): void {
  for (const n of names) {
    if (!params[n]?.trim()) throw new Refusal(`Parameter ${n} wajib diisi`, 400);
  }
}
