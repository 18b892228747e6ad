/**
 * Who a chat is to the bot, from its record alone (no further read): a reseller who owns a key, staff
 * working with an owner's key, a customer of an owner's online shop, or a guest who has none of these
 * yet (a newcomer, who is asked to link a key). Staff comes first: a staff chat is never a reseller of its
 * own, even if a key was somehow left on its record.
 */
import type { ChatRecord, StaffRole } from "../store/index.js";

export type Role =
  | { readonly kind: "owner" }
  | { readonly kind: "staff"; readonly owner: number; readonly role: StaffRole }
  | { readonly kind: "customer"; readonly owner: number; readonly code: string }
  | { readonly kind: "guest" };

export function roleOf(record: Readonly<ChatRecord> | undefined): Role {
  if (record?.staffOf) return { kind: "staff", owner: record.staffOf.owner, role: record.staffOf.role };
  if (record?.apiKeyEnc !== undefined) return { kind: "owner" };
  if (record?.customerOf) return { kind: "customer", owner: record.customerOf.owner, code: record.customerOf.code };
  return { kind: "guest" };
}

/** The chat whose key, balance and ledger this chat works with: its own, or its owner's (staff). */
export function ledgerChatOf(chatId: number, role: Role): number {
  return role.kind === "staff" ? role.owner : chatId;
}
