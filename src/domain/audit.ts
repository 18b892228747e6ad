/**
 * The owner's audit log: every sensitive act on a reseller's account, appended once to a per-owner,
 * append-only log (the store's log API has no way to change or delete an entry). Who did it (the
 * chat), what, and the values before and after, as short text. `audit(ctx, act, before?, after?)` is
 * what features call; it names the owner itself (staff act on their owner's log).
 */
import type { DocKind, LogEntry, Store } from "../store/index.js";
import * as z from "../tools/zod.js";
import { ledgerChatOf, type Role } from "./roles.js";

export const AUDIT_ACTS = [
  "key_linked",
  "key_replaced",
  "key_removed",
  "staff_invited",
  "staff_joined",
  "staff_role_changed",
  "staff_removed",
  "staff_left",
  "staff_choice_changed",
  "prices_changed",
  "shop_changed",
  "transfer",
  "deposit_created",
  "deposit_cancelled",
  "deposit_released",
  "export",
  "refund",
  "downline_invited",
  "downline_joined",
  "downline_changed",
  "downline_removed",
  "wallet_adjusted",
  "pin_set",
  "pin_changed",
  "pin_reset",
  "pin_locked",
  "pin_frozen",
  "limit_changed",
  "h2h_key_made",
  "h2h_key_retired",
  "h2h_ips_changed",
] as const;
export type AuditAct = (typeof AUDIT_ACTS)[number];

/** Longest before/after text kept: enough for a price rule or a shop's footer. */
export const AUDIT_VALUE_MAX = 300;

const AuditEntrySchema = z.object({
  act: z.enum(AUDIT_ACTS),
  /** The chat that did it (the owner, or one of its staff). */
  by: z.int(),
  /** Its name as Telegram showed it then. */
  byName: z.optional(z.string()),
  before: z.optional(z.string()),
  after: z.optional(z.string()),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditKind: DocKind<AuditEntry> = { name: "audit", schema: AuditEntrySchema };

/** A value as the log keeps it: text as is, anything else as compact JSON, cut to AUDIT_VALUE_MAX. */
export function auditValue(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  return text.length > AUDIT_VALUE_MAX ? `${text.slice(0, AUDIT_VALUE_MAX - 1)}…` : text;
}

/** What `audit` needs of an update's context (bot/ passes its context; tests a plain object). */
export interface AuditActor {
  readonly chat?: { readonly id: number } | undefined;
  readonly from?: { readonly first_name?: string; readonly username?: string } | undefined;
  readonly role: Role;
  readonly deps: { readonly store: Pick<Store, "appendLog"> };
}

/** Appends one entry to the log of the owner the acting chat works for. */
export async function audit(ctx: AuditActor, act: AuditAct, before?: unknown, after?: unknown): Promise<void> {
  const chat = ctx.chat?.id;
  if (chat === undefined) return;
  const byName = ctx.from?.first_name ?? ctx.from?.username;
  await appendAudit(ctx.deps.store, ledgerChatOf(chat, ctx.role), { act, by: chat, byName, before, after });
}

/** Appends to `owner`'s log for an act whose actor is not (yet, or any longer) of that owner: a join, a leave. */
export async function appendAudit(
  store: Pick<Store, "appendLog">,
  owner: number,
  act: { act: AuditAct; by: number; byName?: string | undefined; before?: unknown; after?: unknown },
): Promise<void> {
  const before = auditValue(act.before);
  const after = auditValue(act.after);
  const entry: AuditEntry = {
    act: act.act,
    by: act.by,
    ...(act.byName ? { byName: act.byName } : {}),
    ...(before !== undefined ? { before } : {}),
    ...(after !== undefined ? { after } : {}),
  };
  await store.appendLog(AuditKind, owner, entry);
}

/** The owner's latest entries, newest first; `beforeSeq` pages back. */
export function auditLog(store: Pick<Store, "listLog">, owner: number, page?: { beforeSeq?: number; limit?: number }): Promise<LogEntry<AuditEntry>[]> {
  return store.listLog(AuditKind, owner, page);
}
