/**
 * /audit: the owner's audit log, newest first, a page at a time (`au:<seq>` pages back): when (WIB),
 * who, what, and the values before and after. Read only: the bot has no way to change an entry.
 */
import { InlineKeyboard } from "grammy";
import { Composer } from "../composer.js";
import { auditLog, type AuditEntry } from "../../domain/audit.js";
import { html } from "../../render/format.js";
import type { LogEntry } from "../../store/index.js";
import { commands } from "../../telegram/commands.js";
import { formatWib } from "../../tools/time.js";
import { cb, onCallback } from "../buttons.js";
import type { BaseContext, BotContext } from "../context.js";
import { isPrivate, replyPrivateOnly } from "../guards.js";

export const AUDIT_PAGE_SIZE = 10;

export const auditFeature = new Composer<BotContext>();

auditFeature.command(commands.audit, async (ctx) => {
  if (!isPrivate(ctx)) return replyPrivateOnly(ctx);
  if (ctx.role.kind !== "owner") {
    await ctx.reply(ctx.t("not-linked"));
    return;
  }
  await showAudit(ctx);
});

onCallback(auditFeature, cb.auditMore, async (ctx, { seq }) => {
  if (ctx.role.kind !== "owner" || !isPrivate(ctx)) {
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    return;
  }
  await ctx.answerCallbackQuery();
  await showAudit(ctx, seq);
});

async function showAudit(ctx: BotContext, beforeSeq?: number): Promise<void> {
  const entries = await auditLog(ctx.deps.store, ctx.chat!.id, { limit: AUDIT_PAGE_SIZE, ...(beforeSeq !== undefined ? { beforeSeq } : {}) });
  if (entries.length === 0) {
    await ctx.reply(ctx.t(beforeSeq === undefined ? "audit-empty" : "audit-no-more"));
    return;
  }
  const text = [ctx.t("audit-title"), "", ...entries.map((e) => auditLine(ctx, e))].join("\n");
  const oldest = entries[entries.length - 1]!.seq;
  const more = entries.length === AUDIT_PAGE_SIZE && oldest > 1;
  await ctx.reply(text, more ? { reply_markup: new InlineKeyboard().text(ctx.t("audit-button-more"), cb.auditMore.encode({ seq: oldest })) } : {});
}

/** One entry: when, who, what, before → after (HTML). */
export function auditLine(ctx: BaseContext, { at, entry }: LogEntry<AuditEntry>): string {
  const who = entry.byName ? html(entry.byName) : String(entry.by);
  // A staff act's role is stored as its id (cashier, admin); the owner reads it as /staf names it.
  const shown = (v: string) => html(entry.act.startsWith("staff_") ? v.replace(/\b(cashier|admin)$/, (role) => ctx.t(`staff-role-${role}`)) : v);
  const change =
    entry.before !== undefined || entry.after !== undefined
      ? `\n    ${entry.before !== undefined ? `<code>${shown(entry.before)}</code>` : "–"} → ${entry.after !== undefined ? `<code>${shown(entry.after)}</code>` : "–"}`
      : "";
  return `• ${formatWib(at).slice(0, 16)} WIB · <b>${who}</b> · ${ctx.t(`audit-act-${entry.act}`)}${change}`;
}
