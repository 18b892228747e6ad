/**
 * Who a chat is to the bot, from its record alone (no further read): a reseller who owns a key, staff
 * working with an owner's key, a downline buying with it from its own wallet, a customer of an owner's
 * online shop, or a guest who has none of these
 * yet (a newcomer, who is asked to link a key). Staff comes first: a staff chat is never a reseller of its
 * own, even if a key was somehow left on its record.
 */
import type { ChatRecord, StaffRole } from "../store/index.js";

export type Role =
  | { readonly kind: "owner" }
  | { readonly kind: "staff"; readonly owner: number; readonly role: StaffRole }
  | { readonly kind: "customer"; readonly owner: number; readonly code: string }
  /** Buys with the owner's key, paid from its own wallet, at its level's price (docs/wallets.md). */
  | { readonly kind: "downline"; readonly owner: number; readonly upline: number; readonly level: number; readonly suspended: boolean }
  | { readonly kind: "guest" };

export function roleOf(record: Readonly<ChatRecord> | undefined): Role {
  if (record?.staffOf) return { kind: "staff", owner: record.staffOf.owner, role: record.staffOf.role };
  if (record?.apiKeyEnc !== undefined) return { kind: "owner" };
  if (record?.downlineOf) {
    const d = record.downlineOf;
    return { kind: "downline", owner: d.owner, upline: d.upline, level: d.level, suspended: d.suspended ?? false };
  }
  if (record?.customerOf) return { kind: "customer", owner: record.customerOf.owner, code: record.customerOf.code };
  return { kind: "guest" };
}

/** The chat whose key and ledger this chat works with: its own, or its owner's (staff, downlines). */
export function ledgerChatOf(chatId: number, role: Role): number {
  return role.kind === "staff" || role.kind === "downline" ? role.owner : chatId;
}
