/**
 * Who may do what, enforced once for every command and every button (forged data included), from the
 * access each declares in telegram/commands.ts: the owner does all; a shop admin what an admin may; a
 * cashier only selling. Customers and guests pass as before (the features answer them). A refusal says
 * who can instead. The role is read from this update's record, so a removal or a role change made on
 * any process counts from the next tap.
 *
 * Also here: which chat's ledger, key and settings a chat works with (the owner's, for staff), and
 * which transactions it may see or act on.
 */
import type { MiddlewareFn } from "grammy";
import { ledgerChatOf } from "../../domain/roles.js";
import { creditedToWallet, downlineView, withoutCost } from "../../domain/staff.js";
import type { TxRecord } from "../../store/index.js";
import { allows, buttonAccess, commandAccess, commandOf, commands, DOWNLINE_COMMANDS, downlineMayPress, type Access, type CommandId } from "../../telegram/commands.js";
import type { BaseContext } from "../context.js";

/**
 * What a downline may use besides what anyone may: selling with the owner's key from its own wallet
 * (its `/saldo` is its wallet), never the owner's settings, money out of the owner's balance or the
 * owner's shop orders (docs/wallets.md).
 */
export { DOWNLINE_COMMANDS } from "../../telegram/commands.js";
export { allows };

/** "Only the owner can ..." or "Only the owner or a shop admin can ...", naming what was refused. */
export function refusalText(ctx: BaseContext, access: Access, what: string): string {
  return ctx.t(access === "owner" ? "staff-only-owner" : "staff-only-admin", { what });
}

export const roleGate: MiddlewareFn<BaseContext> = (ctx, next) => {
  if (ctx.chat === undefined) return next();
  const text = ctx.message?.text;
  const command = typeof text === "string" ? commandOf(text) : undefined;
  const data = ctx.callbackQuery?.data;
  const button = data === undefined ? undefined : buttonAccess(data);
  const needed = command !== undefined ? commandAccess(command) : button?.access;
  // What anyone may use reads no role (the store may be unreachable: help and the menu still answer).
  if (needed === undefined || needed === "anyone") return next();
  if (ctx.role.kind === "downline" && command !== undefined) {
    return DOWNLINE_COMMANDS.has(command) ? next() : refuse(ctx, needed, command);
  }
  if (ctx.role.kind === "downline" && button !== undefined && downlineMayPress(button)) return next();
  if (allows(ctx.role, needed)) return next();
  return refuse(ctx, needed, command);
};

async function refuse(ctx: BaseContext, needed: Access, command: CommandId | undefined): Promise<void> {
  if (command !== undefined) {
    await ctx.reply(refusalText(ctx, needed, `/${commands[command][0]}`));
    return;
  }
  await ctx.answerCallbackQuery({ text: refusalText(ctx, needed, ctx.t("staff-this-button")), show_alert: true }).catch(() => undefined);
}

/** The chat whose key, balance, ledger, prices and customers this update works with. */
export function ledgerChat(ctx: BaseContext): number {
  return ledgerChatOf(ctx.chat!.id, ctx.role);
}

/**
 * The chat whose saved customers (/pelanggan, the prompts' 👤 buttons) this chat works with: staff
 * share their owner's; a downline keeps its own, as it reaches nothing of its owner's but its wallet.
 */
export function customersChat(ctx: BaseContext): number {
  return ctx.role.kind === "downline" ? ctx.chat!.id : ledgerChat(ctx);
}

/** The staff member's chat to record as `by` on a transaction it makes; undefined for the owner. */
export function madeBy(ctx: BaseContext): number | undefined {
  return ctx.role.kind === "staff" || ctx.role.kind === "downline" ? ctx.chat!.id : undefined;
}

/**
 * A transaction this chat may see (history, status, receipts, buy again): its own ledger's; for a
 * cashier only what it made itself, for a shop admin everything of its owner.
 */
export function seesTx(ctx: BaseContext, tx: Pick<TxRecord, "chatId" | "by">): boolean {
  const chatId = ctx.chat?.id;
  if (chatId === undefined) return false;
  const role = ctx.role;
  if (role.kind === "downline") return tx.chatId === role.owner && tx.by === chatId;
  if (role.kind !== "staff") return tx.chatId === chatId;
  return tx.chatId === role.owner && (role.role === "admin" || tx.by === chatId);
}

/** A transaction this chat may confirm, cancel or try again: one it made (the owner: any of its ledger). */
export function actsOnTx(ctx: BaseContext, tx: Pick<TxRecord, "chatId" | "by">): boolean {
  const chatId = ctx.chat?.id;
  if (chatId === undefined) return false;
  const role = ctx.role;
  return role.kind === "staff" || role.kind === "downline" ? tx.chatId === role.owner && tx.by === chatId : tx.chatId === chatId;
}

/** A cashier the owner has not allowed to see cost and balance (/staf): the confirm screen shows neither. */
export async function hidesCost(ctx: BaseContext): Promise<boolean> {
  const role = ctx.role;
  // A downline sees its own price only: the owner's cost and balance are the owner's.
  if (role.kind === "downline") return true;
  if (role.kind !== "staff" || role.role !== "cashier") return false;
  return !(await ctx.deps.staff.choices(role.owner)).cashierSeesCost;
}

/** `tx` as this chat may read it: a cashier the owner shows no cost to sees the selling price alone. */
export async function shownTx<T extends TxRecord>(ctx: BaseContext, tx: T): Promise<T> {
  if (ctx.role.kind === "downline") return (creditedToWallet(tx) ? { ...downlineView(tx), status: "success" } : downlineView(tx)) as T;
  return (await hidesCost(ctx)) ? (withoutCost(tx) as T) : tx;
}
