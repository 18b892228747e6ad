/**
 * The wallet rules both stores keep (docs/wallets.md), written once beside rules.ts: what a record's
 * wallet part holds, how its state may move, the release that is part of a failure's own write, and
 * which entries may be taken. The backends call these inside the same write as the record or entries.
 */
import type { NewWalletEntry } from "./api.js";
import { deepFreeze, frozenCopy } from "./frozen.js";
import { describeIssues, PAID_DEPOSIT, WalletEntrySchema, type TxRecord, type TxStatus, type WalletEntry, type WalletPart, type WalletState } from "./records.js";
import { StoreCorruptError } from "./errors.js";

/** A held wallet part is released in the same write as one of these statuses. */
const RELEASING: ReadonlySet<TxStatus> = new Set<TxStatus>(["failed", "cancel", "expired"]);

/**
 * Where a wallet part may go from each state: a posted or released part never moves again; a held one
 * goes back to draft only with its record (a "sending" mark that could not be saved: nothing was sent);
 * a deposit's part is posted from draft (it never holds).
 */
const NEXT: Record<WalletState, readonly WalletState[]> = {
  draft: ["draft", "held", "posted", "released"],
  held: ["held", "posted", "released", "draft"],
  posted: ["posted"],
  released: ["released"],
};

/** What the record holds in its wallet now: its price while held, else nothing. */
export function heldBy(rec: TxRecord | undefined): number {
  return rec?.wallet?.state === "held" ? rec.wallet.price : 0;
}

/**
 * The record about to be written, after the wallet rules: a held part is released when the status
 * says the money did not move; a part may not go back, change wallet, or change price once held.
 */
export function walletAfter(old: TxRecord | undefined, rec: TxRecord): WalletPart | undefined {
  const part = rec.wallet;
  const before = old?.wallet;
  if (before && !part) throw new TypeError(`Transaction ${rec.refId}: a wallet part cannot be removed.`);
  if (!part) return undefined;
  if (before) {
    const back = before.state === "held" && part.state === "draft" && rec.status !== "draft";
    if (back || !NEXT[before.state].includes(part.state)) throw new TypeError(`Transaction ${rec.refId}: wallet part ${before.state} -> ${part.state} is not allowed.`);
    if (before.chat !== part.chat || (before.state !== "draft" && before.price !== part.price)) {
      throw new TypeError(`Transaction ${rec.refId}: a wallet part's wallet and held price do not change.`);
    }
  }
  return part.state === "held" && RELEASING.has(rec.status) ? { ...part, state: "released" } : part;
}

/**
 * Whether the wallets still owe this record entries: a hold not yet posted or released, or a paid
 * deposit whose credit is not yet posted. A stop leaves these to settle at the next start.
 */
export function walletUnsettled(rec: TxRecord): boolean {
  const part = rec.wallet;
  if (part?.state === "held") return true;
  return rec.kind === "deposit" && part?.state === "draft" && (part.credit ?? 0) > 0 && PAID_DEPOSIT.has(rec.status);
}

/** How much more (or less) `rec` holds in its wallet than `old` did. */
export function heldChange(old: TxRecord | undefined, rec: TxRecord): number {
  return heldBy(rec) - heldBy(old);
}

/** What a chat's wallet may still spend: never below zero after a write. */
export function availableOf(balance: number, held: number): number {
  return balance - held;
}

/**
 * Whether an entry is taken without the available check: a debit that settles a hold (the money was
 * held for it, so it counts once the record is posted), and the reversal of a commission already spent
 * (docs/wallets.md rule 6), which the owner is told about.
 */
export function mayOverdraw(entry: Pick<NewWalletEntry, "kind" | "amount">): boolean {
  return entry.kind === "purchase" || entry.kind === "payout" || (entry.kind === "refund" && entry.amount < 0);
}

/** A new entry as it will be stored, validated and frozen. */
export function buildEntry(input: NewWalletEntry, seq: number, at: number, balance: number): WalletEntry {
  if (!Number.isInteger(input.amount) || input.amount === 0) throw new TypeError(`Wallet entry ${input.ref}: the amount must be a whole, non-zero rupiah.`);
  const parsed = WalletEntrySchema.safeParse(frozenCopy({ ...input, seq, at, balance }, "entry"));
  if (!parsed.success) throw new TypeError(`Invalid wallet entry ${input.ref}: ${describeIssues(parsed.error)}`);
  return deepFreeze(parsed.data);
}

/** An entry read from storage (`where` names it): refused with StoreCorruptError if it does not pass. */
export function storedEntry(where: string, data: unknown): WalletEntry {
  const parsed = WalletEntrySchema.safeParse(data);
  if (!parsed.success) throw new StoreCorruptError(where, describeIssues(parsed.error));
  return deepFreeze(parsed.data);
}

/** Entries with the same ref in one call are one entry: the first counts. */
export function distinctEntries(entries: readonly NewWalletEntry[]): NewWalletEntry[] {
  const seen = new Set<string>();
  return entries.filter((e) => !seen.has(e.ref) && Boolean(seen.add(e.ref)));
}
