/**
 * A downline's wallet as the rest of the bot uses it (docs/wallets.md). The store keeps the rules that
 * must hold in one write (a hold with its record's claim, a release with its failure, never below
 * zero); this service makes the entries that follow a record's outcome, each exactly once by its ref:
 * a purchase's debit and its uplines' commissions once it is `success`, a paid deposit's credit, a
 * reversal's refund, and the owner's adjustments by hand. It knows no Telegram.
 */
import type { Logger } from "../logging/logger.js";
import { PAID_DEPOSIT, WalletShortError, type NewWalletEntry, type Store, type TxRecord, type WalletBalance, type WalletEntry } from "../store/index.js";

/** A wallet as shown: what it holds in all, what is on hold, and what may be spent now. */
export interface WalletView {
  readonly balance: number;
  readonly held: number;
  readonly available: number;
}

/** What an adjustment by hand came to. */
export type Adjusted = { readonly kind: "posted"; readonly entry: WalletEntry } | { readonly kind: "repeated" } | { readonly kind: "short"; readonly available: number };

/** A held part is given back by these statuses (store/walletRules.ts releases it in their write). */
const GIVES_BACK = new Set(["failed", "cancel", "expired"]);

/**
 * What the record's wallet may spend once the outcome `status` counts (a receipt's "left"): balance
 * less what is held. A notice is told before its status is saved (the hold still there), and between
 * posting a success's debit and marking its part posted the price is both debited and held
 * (docs/wallets.md rule 3): the price counted once either way.
 */
export async function walletLeftAfter(store: Store, refId: string, status: TxRecord["status"]): Promise<number | undefined> {
  const tx = await store.getTx(refId);
  const part = tx?.wallet;
  if (!tx || !part) return undefined;
  const w = await store.wallet(part.chat);
  const left = w.balance - w.held;
  if (tx.kind === "deposit") {
    // Told paid before its credit is posted (the notice comes before the status is saved): counted once.
    if (part.state !== "draft" || !PAID_DEPOSIT.has(status) || !part.credit) return left;
    const recent = await store.walletEntries(part.chat, { limit: 20 });
    return recent.some((e) => e.ref === `${refId}:in`) ? left : left + part.credit;
  }
  if (part.state !== "held") return left;
  if (GIVES_BACK.has(status)) return left + part.price;
  if (status !== "success") return left;
  const recent = await store.walletEntries(part.chat, { limit: 20 });
  return recent.some((e) => e.ref === `${refId}:d`) ? left + part.price : left;
}

export class Wallets {
  /** Settles in flight (started by events, not awaited by their emitter). */
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      store: Store;
      logger: Logger;
      /** A paid deposit's credit was just posted (once per entry: a repeat posts nothing and calls nothing). */
      onDepositCredited?: (tx: Readonly<TxRecord>, entry: WalletEntry) => void;
    },
  ) {}

  /** Resolves once every settle started before it has finished (tests, a clean stop). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  async view(chat: number): Promise<WalletView> {
    const w = await this.deps.store.wallet(chat);
    return { balance: w.balance, held: w.held, available: w.balance - w.held };
  }

  /** What the record's wallet may spend once `status` counts (walletLeftAfter). */
  leftAfter(refId: string, status: TxRecord["status"]): Promise<number | undefined> {
    return walletLeftAfter(this.deps.store, refId, status);
  }

  /** Every wallet of the owner's network that has had an entry. */
  ofNetwork(owner: number): Promise<readonly WalletBalance[]> {
    return this.deps.store.walletsOf(owner);
  }

  /** What the network's wallets hold in all (the downlines' money inside the owner's provider balance). */
  static owed(wallets: readonly WalletBalance[]): number {
    return wallets.reduce((sum, w) => sum + Math.max(0, w.balance), 0);
  }

  /** The wallet's entries, newest first; `beforeSeq` pages back. */
  entries(chat: number, page?: { beforeSeq?: number; limit?: number }): Promise<WalletEntry[]> {
    return this.deps.store.walletEntries(chat, page);
  }

  /** The owner adds (amount > 0) or takes (< 0) by hand; `ref` made with the confirm screen, so a double tap posts once. */
  async adjust(input: { ref: string; owner: number; wallet: number; amount: number; reason: string; by: number }): Promise<Adjusted> {
    const entry: NewWalletEntry = { ref: input.ref, wallet: input.wallet, owner: input.owner, amount: input.amount, kind: "adjust", reason: input.reason, by: input.by };
    try {
      const done = await this.deps.store.postEntries([entry]);
      return done.posted[0] ? { kind: "posted", entry: done.posted[0] } : { kind: "repeated" };
    } catch (err) {
      if (err instanceof WalletShortError) return { kind: "short", available: err.available };
      throw err;
    }
  }

  /**
   * What the record's outcome owes its wallets, posted once (a repeat posts nothing): called on every
   * saved outcome (the engine's, the watcher's) and at start for every record still holding.
   */
  settle(tx: Readonly<TxRecord>): Promise<void> {
    const run = this.settleNow(tx);
    this.running.add(run);
    void run.catch(() => undefined).finally(() => this.running.delete(run));
    return run;
  }

  private async settleNow(tx: Readonly<TxRecord>): Promise<void> {
    const part = tx.wallet;
    if (!part) return;
    const { store } = this.deps;
    const owner = tx.chatId;
    if (tx.kind === "deposit") {
      if (part.state !== "draft" || !PAID_DEPOSIT.has(tx.status) || !part.credit) return;
      const done = await store.postEntries([{ ref: `${tx.refId}:in`, wallet: part.chat, owner, amount: part.credit, kind: "deposit", txRef: tx.refId }]);
      await this.markPosted(tx.refId, "draft");
      if (done.posted[0]) this.deps.onDepositCredited?.(tx, done.posted[0]);
      return;
    }
    const outflow = tx.kind === "transfer" ? "payout" : "purchase";
    if (part.state === "held" && tx.status === "success") {
      const entries: NewWalletEntry[] = [{ ref: `${tx.refId}:d`, wallet: part.chat, owner, amount: -part.price, kind: outflow, txRef: tx.refId }];
      for (const c of part.commissions ?? []) {
        if (c.amount > 0) entries.push({ ref: `${tx.refId}:c${c.chat}`, wallet: c.chat, owner, amount: c.amount, kind: "commission", txRef: tx.refId });
      }
      await store.postEntries(entries);
      await this.markPosted(tx.refId, "held");
      return;
    }
    if (part.state === "posted" && tx.status === "failed" && outflow === "purchase") {
      // Reversed by the provider after success (docs/wallets.md rule 6).
      const entries: NewWalletEntry[] = [{ ref: `${tx.refId}:r`, wallet: part.chat, owner, amount: part.price, kind: "refund", txRef: tx.refId }];
      for (const c of part.commissions ?? []) {
        if (c.amount > 0) entries.push({ ref: `${tx.refId}:rc${c.chat}`, wallet: c.chat, owner, amount: -c.amount, kind: "refund", txRef: tx.refId });
      }
      await store.postEntries(entries);
    }
  }

  /** Settles every record still holding (a stop between an outcome and its entries); returns how many moved. */
  async reconcile(): Promise<number> {
    let n = 0;
    for (const tx of await this.deps.store.unsettledTxs()) {
      if (tx.status !== "success") continue;
      await this.settle(tx);
      n++;
    }
    return n;
  }

  private async markPosted(refId: string, from: "draft" | "held"): Promise<void> {
    const { store } = this.deps;
    const current = await store.getTx(refId);
    if (!current?.wallet || current.wallet.state !== from) return;
    await store.transitionTx(refId, [current.status], { wallet: { ...current.wallet, state: "posted" } }, (c) => c.wallet?.state === from);
    await store.flushTx(refId);
  }
}
