/**
 * The network's figures (docs/wallets.md), from records and wallet entries only: pure, no clock, no
 * store. A downline's sale is a record of the owner's ledger paid from the downline's wallet: the owner
 * reads it at the downline's price (turnover) with its margin (price − cost − commissions paid to
 * uplines); the downline reads only what it paid, never the cost.
 */
import type { TxRecord, WalletEntry } from "../store/index.js";
import { addDays, wibDayStart } from "./report.js";
import { commissionsOf, isSale, profitOf, sellingPrice } from "./sale.js";

export interface NetworkLine {
  sales: number;
  /** What the downlines paid from their wallets. */
  turnover: number;
  /** What the owner keeps: the price less the cost and the uplines' commissions. */
  margin: number;
}

export interface NetworkSummary extends NetworkLine {
  /** Paid to uplines that are downlines themselves (their wallets' commission entries). */
  commissions: number;
  /** By the buyer's level (at the sale; else its level now), lowest index first. */
  levels: (NetworkLine & { level: number | undefined })[];
  /** By buyer, highest turnover first. */
  downlines: (NetworkLine & { chat: number })[];
  /** Made by a downline's own system over H2H (records with `clientRef`); counted in the totals too. */
  h2h: NetworkLine;
}

function inDays(from: string, to: string): (at: number) => boolean {
  const start = wibDayStart(from);
  const end = wibDayStart(addDays(to, 1));
  return (at) => at >= start && at < end;
}

const add = (line: NetworkLine, tx: TxRecord): void => {
  line.sales++;
  line.turnover += sellingPrice(tx);
  line.margin += profitOf(tx);
};

/** The downlines' successful sales of the days `from`..`to`; `levelNow` gives a buyer's level when the record has none. */
export function networkSummary(txs: readonly TxRecord[], from: string, to: string, levelNow: (chat: number) => number | undefined): NetworkSummary {
  const within = inDays(from, to);
  const s: NetworkSummary = { sales: 0, turnover: 0, margin: 0, commissions: 0, levels: [], downlines: [], h2h: { sales: 0, turnover: 0, margin: 0 } };
  const levels = new Map<number | undefined, NetworkSummary["levels"][number]>();
  const buyers = new Map<number, NetworkSummary["downlines"][number]>();
  for (const tx of txs) {
    const part = tx.wallet;
    if (!part || !isSale(tx) || tx.status !== "success" || !within(tx.createdAt)) continue;
    add(s, tx);
    if (tx.clientRef !== undefined) add(s.h2h, tx);
    s.commissions += commissionsOf(tx);
    const level = part.level ?? levelNow(part.chat);
    const byLevel = levels.get(level) ?? { level, sales: 0, turnover: 0, margin: 0 };
    add(byLevel, tx);
    levels.set(level, byLevel);
    const byBuyer = buyers.get(part.chat) ?? { chat: part.chat, sales: 0, turnover: 0, margin: 0 };
    add(byBuyer, tx);
    buyers.set(part.chat, byBuyer);
  }
  s.levels = [...levels.values()].sort((a, b) => (a.level ?? Infinity) - (b.level ?? Infinity));
  s.downlines = [...buyers.values()].sort((a, b) => b.turnover - a.turnover || a.chat - b.chat);
  return s;
}

/** A downline's own figures: its sales, and what it paid for them from its wallet. */
export interface OwnSummary {
  sales: number;
  failed: number;
  spend: number;
}

/** The sales `chat` made from its wallet in the days `from`..`to`. */
export function ownSummary(txs: readonly TxRecord[], chat: number, from: string, to: string): OwnSummary {
  const within = inDays(from, to);
  const s: OwnSummary = { sales: 0, failed: 0, spend: 0 };
  for (const tx of txs) {
    if (tx.wallet?.chat !== chat || !isSale(tx) || !within(tx.createdAt)) continue;
    if (tx.status === "failed") s.failed++;
    if (tx.status !== "success") continue;
    s.sales++;
    s.spend += tx.wallet.price;
  }
  return s;
}

/** What a wallet earned in commissions in the days `from`..`to` (less those reversed with their sale). */
export function commissionsEarned(entries: readonly WalletEntry[], from: string, to: string): number {
  const within = inDays(from, to);
  return entries.filter((e) => within(e.at) && (e.kind === "commission" || (e.kind === "refund" && e.ref.includes(":rc")))).reduce((sum, e) => sum + e.amount, 0);
}

/** Each buyer's successful sales in `txs` and the time of its newest record (anything it made). */
export function downlineActivity(txs: readonly TxRecord[], salesFrom: string): Map<number, { sales: number; lastAt: number }> {
  const start = wibDayStart(salesFrom);
  const out = new Map<number, { sales: number; lastAt: number }>();
  for (const tx of txs) {
    const chat = tx.wallet?.chat ?? tx.by;
    if (chat === undefined || tx.status === "draft") continue;
    const a = out.get(chat) ?? { sales: 0, lastAt: 0 };
    if (tx.wallet && isSale(tx) && tx.status === "success" && tx.createdAt >= start) a.sales++;
    a.lastAt = Math.max(a.lastAt, tx.createdAt);
    out.set(chat, a);
  }
  return out;
}
