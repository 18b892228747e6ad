/**
 * The file store's wallets (docs/wallets.md): every entry in memory, appended to `wallets.jsonl` one
 * line each (appended and fsync-ed before postEntries resolves), and the held amounts counted from the
 * records in memory. Posts run one after another (a seq and a running balance each): a post's debits
 * are set aside before its write (so no record's claim can hold that money meanwhile), its credits
 * count once durable, and a failed write takes back nothing but its own entries.
 */
import { join } from "node:path";
import type { LogPage, NewWalletEntry, PostedEntries, WalletBalance } from "../api.js";
import type { TxRecord, WalletEntry } from "../records.js";
import { logPage } from "../rules.js";
import { availableOf, buildEntry, walletUnsettled, distinctEntries, heldChange, mayOverdraw, storedEntry } from "../walletRules.js";
import { StoreCorruptError, WalletShortError } from "../errors.js";
import { LogFile, readLines } from "./kindFiles.js";

export const WALLETS_FILE = "wallets.jsonl";

export class FileWallets {
  private readonly balance = new Map<number, number>();
  private readonly held = new Map<number, number>();
  /** Debits of posts still being written: already unavailable, not yet in the balance. */
  private readonly settingAside = new Map<number, number>();
  private readonly owners = new Map<number, number>();
  /** Each wallet's entries, oldest first (seq increasing). */
  private readonly entries = new Map<number, WalletEntry[]>();
  private readonly byRef = new Map<string, WalletEntry>();
  private file: LogFile | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** The store's records in memory (held amounts at open, unsettledTxs). */
  private records: () => Iterable<TxRecord> = () => [];

  constructor(
    private readonly root: string,
    private readonly now: () => number,
    private readonly assertOpen: () => void,
  ) {}

  /** Reads the entries at open; `records` are the transactions in memory (the held amounts). */
  async load(warn: (message: string) => void, records: () => Iterable<TxRecord>): Promise<void> {
    this.records = records;
    const path = join(this.root, WALLETS_FILE);
    // Each entry's running balance is checked against the sum of the wallet's entries up to it.
    const wrong = new Set<number>();
    const size = await readLines(path, warn, (line, n) => {
      const e = storedEntry(`${path} line ${n}`, parseLine(path, n, line));
      this.take(e);
      if (e.balance !== this.balance.get(e.wallet) && !wrong.has(e.wallet)) {
        wrong.add(e.wallet);
        warn(`${path} line ${n}: wallet ${e.wallet}'s running balance ${e.balance} is not the sum of its entries (${this.balance.get(e.wallet)}); the sum counts`);
      }
    });
    this.file = new LogFile(path, size, true);
    for (const rec of records()) this.addHeld(rec.wallet?.chat, heldChange(undefined, rec));
  }

  wallet(chat: number): WalletBalance {
    return { chat, owner: this.owners.get(chat) ?? 0, balance: this.balance.get(chat) ?? 0, held: this.held.get(chat) ?? 0 };
  }

  walletsOf(owner: number): WalletBalance[] {
    const out: WalletBalance[] = [];
    for (const [chat, o] of this.owners) if (o === owner) out.push(this.wallet(chat));
    return out;
  }

  /** Records the wallets still owe entries: every one is in memory (rules.ts isHot keeps them). */
  unsettledTxs(): TxRecord[] {
    return [...this.records()].filter(walletUnsettled);
  }

  entry(ref: string): WalletEntry | undefined {
    return this.byRef.get(ref);
  }

  page(chat: number, page?: LogPage): WalletEntry[] {
    const { beforeSeq, limit } = logPage(page);
    const all = this.entries.get(chat) ?? [];
    let end = all.length;
    if (beforeSeq !== undefined) while (end > 0 && all[end - 1]!.seq >= beforeSeq) end--;
    return all.slice(Math.max(0, end - limit), end).reverse();
  }

  /**
   * The held amounts after a record's write, checked and counted in the caller's synchronous turn
   * before the record is kept: false (nothing counted) when it would hold more than is available.
   */
  admit(old: TxRecord | undefined, rec: TxRecord): boolean {
    const more = heldChange(old, rec);
    const chat = rec.wallet?.chat;
    if (chat === undefined || more === 0) return true;
    if (more > 0 && this.available(chat) < more) return false;
    this.addHeld(chat, more);
    return true;
  }

  /** admit, or WalletShortError (createTx, updateTx). */
  admitOrThrow(old: TxRecord | undefined, rec: TxRecord): void {
    if (this.admit(old, rec)) return;
    const chat = rec.wallet!.chat;
    throw new WalletShortError(chat, this.available(chat), heldChange(old, rec));
  }

  /** Posts entries in one append, all or none; see Store.postEntries. Posts run one after another. */
  postEntries(input: readonly NewWalletEntry[]): Promise<PostedEntries> {
    this.assertOpen();
    const run = this.queue.then(() => this.post(distinctEntries(input)));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async post(wanted: readonly NewWalletEntry[]): Promise<PostedEntries> {
    const skipped = wanted.filter((e) => this.byRef.has(e.ref)).map((e) => e.ref);
    const fresh = wanted.filter((e) => !this.byRef.has(e.ref));
    if (fresh.length === 0) return { posted: [], skipped };
    const debits = new Map<number, number>();
    for (const e of fresh) if (e.amount < 0 && !mayOverdraw(e)) debits.set(e.wallet, (debits.get(e.wallet) ?? 0) - e.amount);
    for (const [chat, debit] of debits) {
      const available = this.available(chat);
      if (available < debit) throw new WalletShortError(chat, available, debit);
    }
    const at = this.now();
    const seqs = new Map<number, number>();
    const balances = new Map<number, number>();
    const built = fresh.map((e) => {
      const seq = (seqs.get(e.wallet) ?? this.lastSeq(e.wallet)) + 1;
      const balance = (balances.get(e.wallet) ?? this.balance.get(e.wallet) ?? 0) + e.amount;
      seqs.set(e.wallet, seq);
      balances.set(e.wallet, balance);
      return buildEntry(e, seq, at, balance);
    });
    // Set aside at once: a record's claim meanwhile cannot hold money this post is taking.
    for (const [chat, debit] of debits) this.settingAside.set(chat, (this.settingAside.get(chat) ?? 0) + debit);
    try {
      await this.file!.appendLines(built.map((e) => `${JSON.stringify(e)}\n`));
      for (const e of built) this.take(e);
      return { posted: built, skipped };
    } finally {
      for (const [chat, debit] of debits) this.settingAside.set(chat, this.settingAside.get(chat)! - debit);
    }
  }

  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    await this.file?.close();
  }

  private available(chat: number): number {
    return availableOf(this.balance.get(chat) ?? 0, (this.held.get(chat) ?? 0) + (this.settingAside.get(chat) ?? 0));
  }

  private lastSeq(chat: number): number {
    const list = this.entries.get(chat);
    return list?.[list.length - 1]?.seq ?? 0;
  }

  private take(e: WalletEntry): void {
    this.byRef.set(e.ref, e);
    this.owners.set(e.wallet, e.owner);
    this.balance.set(e.wallet, (this.balance.get(e.wallet) ?? 0) + e.amount);
    let list = this.entries.get(e.wallet);
    if (!list) this.entries.set(e.wallet, (list = []));
    list.push(e);
  }

  private addHeld(chat: number | undefined, amount: number): void {
    if (chat === undefined || amount === 0) return;
    this.held.set(chat, (this.held.get(chat) ?? 0) + amount);
  }
}

function parseLine(path: string, n: number, line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new StoreCorruptError(path, `line ${n} is not JSON`);
  }
}
