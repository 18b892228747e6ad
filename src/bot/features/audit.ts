/**
 * /audit: the owner's audit log, newest first, a page at a time (`au:<seq>` pages back): when (WIB),
 * who, what, and the values before and after. Read only: the bot has no way to change an entry.
 */
import { Composer } from "grammy";
import { auditMoreKeyboard } from "../keyboards/audit.js";
import { auditLog, type AuditEntry } from "../../domain/audit.js";
import { auditValues } from "../../render/audit.js";
import { html, wibTime } from "../../render/format.js";
import type { LogEntry } from "../../store/index.js";
import { commands } from "../../telegram/commands.js";
import { cb, onCallback } from "../buttons.js";
import type { BaseContext, BotContext } from "../context.js";
import { isPrivate, replyPrivateOnly } from "../guards.js";
import { staffOf } from "./staff.js";
import type { FeatureModule } from "../module.js";

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
  const names = await staffOf(ctx).names(ctx.chat!.id);
  const text = [ctx.t("audit-title"), "", ...entries.map((e) => auditLine(ctx, e, names))].join("\n");
  const oldest = entries[entries.length - 1]!.seq;
  const more = entries.length === AUDIT_PAGE_SIZE && oldest > 1;
  await ctx.reply(text, more ? { reply_markup: auditMoreKeyboard(ctx, oldest) } : {});
}

/** One entry: when (WIB), who, what, before → after (HTML), every value in the owner's language. */
export function auditLine(ctx: BaseContext, { at, entry }: LogEntry<AuditEntry>, names: ReadonlyMap<number, string> = new Map()): string {
  const who = entry.byName ? html(entry.byName) : String(entry.by);
  const { before, after } = auditValues(ctx.translate, ctx.lang, entry, names);
  const change = before !== undefined || after !== undefined ? `\n    ${before ?? "–"} → ${after ?? "–"}` : "";
  return `• ${wibTime(at, ctx.lang)} · <b>${who}</b> · ${ctx.t(`audit-act-${entry.act}`)}${change}`;
}

export const auditModule: FeatureModule = {
  name: "audit",
  stage: "beforeKey",
  composer: auditFeature,
  commands: { audit: "owner" },
  buttons: { auditMore: "owner" },
};
