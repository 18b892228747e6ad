/**
 * Who hears about a transaction: the chat that made it (a staff member's purchase: that person, in
 * whose chat its confirm screen and receipt are), and for a staff purchase also the owner when the
 * owner chose so in /staf. A notice that chat missed while it blocked the bot is owed to it.
 */
import { isPayout } from "../../domain/payouts.js";
import { downlineView, staffChoicesOf, withoutCost } from "../../domain/staff.js";
import type { Store, TxRecord } from "../../store/index.js";
import type { ReceiptTx } from "../../render/receipt.js";
import { walletLeftAfter } from "../../money/wallets.js";

/**
 * The chat a transaction's notices go to (and whose message shows it). A downline's payout is the
 * owner's transfer, confirmed on the owner's screen: its notices are the owner's (the downline is told
 * its wallet's side by jobs/payouts.ts).
 */
export function noticeChatOf(tx: Pick<TxRecord, "chatId" | "by" | "kind" | "wallet">): number {
  return isPayout(tx) ? tx.chatId : (tx.by ?? tx.chatId);
}

/** The ledger whose transactions may owe `chatId` a notice: its own, or (staff, downlines) its owner's. */
export async function owedLedgerOf(store: Store, chatId: number): Promise<number> {
  const record = await store.getChat(chatId);
  return record?.staffOf?.owner ?? record?.downlineOf?.owner ?? chatId;
}

/** The owner, when it also wants the notices of this (staff) purchase; else undefined. */
export async function ownerCopyOf(store: Store, tx: Pick<TxRecord, "chatId" | "by" | "kind" | "wallet">): Promise<number | undefined> {
  if (tx.by === undefined || tx.by === tx.chatId || isPayout(tx)) return undefined;
  const choices = await staffChoicesOf(store, tx.chatId);
  return choices.ownerNotices ? tx.chatId : undefined;
}

/**
 * The transaction as its notice shows it to the person who made it: a downline sees its own price only
 * (the owner's cost is the owner's) and what its wallet has left, a cashier the owner shows no cost to sees none.
 */
export async function noticeViewOf(store: Store, tx: TxRecord): Promise<ReceiptTx> {
  if (tx.by === undefined || tx.by === tx.chatId || isPayout(tx)) return tx;
  const maker = await store.getChat(tx.by);
  // A downline's notice names its wallet: what was taken or given back, and what is left.
  if (maker?.downlineOf?.owner === tx.chatId) return { ...downlineView(tx), walletLeft: await walletLeftAfter(store, tx.refId, tx.status) };
  const staffOf = maker?.staffOf;
  if (staffOf?.owner !== tx.chatId || staffOf.role !== "cashier") return tx;
  return (await staffChoicesOf(store, tx.chatId)).cashierSeesCost ? tx : withoutCost(tx);
}
