/**
 * The wallet entries of bench/mutasi.ts: a year of a downline's wallet, `perDay` entries a day. The first
 * of each day is the owner's adjustment by hand (cash received: the day's purchases and Rp1.000 more),
 * the rest purchases at a fixed price, so the running balance has a closed form (the SQL twin in
 * mutasiPg.ts computes the same). Entries come out as the store stores them: through buildEntry, the
 * JSON key order of the schema.
 */
import type { NewWalletEntry } from "../src/store/index.js";
import type { WalletEntry } from "../src/store/records.js";
import { buildEntry } from "../src/store/walletRules.js";

export const DAY = 86_400_000;
export const DAYS = 365;
export const OWNER = 1_900_000;
export const WALLET0 = 2_000_000;
/** A downline's price of Telkomsel 10.000. */
export const PRICE = 11_500;
/** What each day's cash adds beyond its purchases. */
export const EXTRA = 1_000;

export interface Size {
  downlines: number;
  perDay: number;
}

/** The purchase record's ref of entry (w, d, i): its debit's ref is `<this>:d`. */
export function txRefOf(w: number, d: number, i: number): string {
  return `TW${d.toString(36)}W${w}I${i}`;
}

/** The entry (w, d, i) of the year starting at `start`, as stored. */
export function entryOf(w: number, d: number, i: number, start: number, perDay: number): WalletEntry {
  const wallet = WALLET0 + w;
  const seq = d * perDay + i + 1;
  const at = start + d * DAY + Math.floor((i * DAY) / perDay) + w;
  const credit = (perDay - 1) * PRICE + EXTRA;
  // Before day d: EXTRA a day; then the day's credit; each purchase takes PRICE.
  const balance = d * EXTRA + credit - i * PRICE;
  const input: NewWalletEntry =
    i === 0
      ? { ref: `A${w}D${d}`, wallet, owner: OWNER, amount: credit, kind: "adjust", reason: "tunai", by: OWNER }
      : { ref: `${txRefOf(w, d, i)}:d`, wallet, owner: OWNER, amount: -PRICE, kind: "purchase", txRef: txRefOf(w, d, i) };
  return buildEntry(input, seq, at, balance);
}

/** The wallet's balance and last seq after the year. */
export function walletEnd(perDay: number): { balance: number; lastSeq: number } {
  return { balance: DAYS * EXTRA, lastSeq: DAYS * perDay };
}

/** A seeded generator: the same wallets and depths on every run. */
export function seeded(seed = 42): () => number {
  let s = seed;
  return () => (s = (s * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32;
}
