/** The network's buttons (features/downline.ts): the owner's list and card, an adjustment's confirm, /mutasi's pages. */
import { InlineKeyboard } from "grammy";
import type { Downline, Level } from "../../domain/network.js";
import { cb } from "../buttons.js";
import type { Translator } from "./translator.js";
import { addPager } from "../paging.js";

/** A page of the owner's list (lower downlines marked ↳): each opens its card; the pager; an invitation per level. */
export function downlineListKeyboard(
  tr: Translator,
  tree: readonly { m: Downline; depth: number }[],
  levels: readonly Level[],
  pages: { page: number; pages: number },
  to: (page: number) => string,
): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const { m, depth } of tree) kb.text(`${depth > 0 ? "↳ ".repeat(depth) : ""}${m.suspended ? "⏸ " : ""}${m.name}`, cb.downlineOpen.encode({ chat: m.chat })).row();
  if (pages.pages > 1) addPager(kb, tr, pages, to).row();
  levels.forEach((level, i) => kb.text(tr.t("downline-button-invite", { level: level.name }), cb.downlineInvite.encode({ level: i })).row());
  return kb;
}

/** One downline's card: its wallet by hand, its level, suspend or resume, remove. */
export function downlineCardKeyboard(tr: Translator, member: Downline, levels: readonly Level[], h2hOn: boolean): InlineKeyboard {
  const kb = new InlineKeyboard()
    .text(tr.t("downline-button-add"), cb.downlineAdjust.encode({ chat: member.chat, way: "in" }))
    .text(tr.t("downline-button-take"), cb.downlineAdjust.encode({ chat: member.chat, way: "out" }))
    .row();
  // A lower downline's price follows its upline's: no level of its own to change.
  levels.forEach((level, i) => {
    if (i !== member.level && member.upline === undefined) kb.text(tr.t("downline-button-level", { level: level.name }), cb.downlineLevel.encode({ chat: member.chat, level: i }));
  });
  return kb
    .row()
    .text(tr.t(member.mayInvite ? "downline-button-no-invite" : "downline-button-may-invite"), cb.downlineMayInvite.encode({ chat: member.chat, on: member.mayInvite ? "off" : "on" }))
    .row()
    .text(tr.t(h2hOn ? "downline-button-h2h-off" : "downline-button-h2h-on"), cb.downlineH2h.encode({ chat: member.chat, on: h2hOn ? "off" : "on" }))
    .row()
    .text(tr.t(member.suspended ? "downline-button-resume" : "downline-button-suspend"), cb.downlineSuspend.encode({ chat: member.chat, on: member.suspended ? "off" : "on" }))
    .text(tr.t("downline-button-remove"), cb.downlineRemove.encode({ chat: member.chat }))
    .row()
    .text(tr.t("pin-button-reset-member"), cb.downlinePinReset.encode({ chat: member.chat }));
}

export function adjustConfirmKeyboard(tr: Translator, ref: string): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("button-confirm"), cb.downlineAdjustYes.encode({ ref })).text(tr.t("button-cancel"), cb.downlineAdjustNo.encode({ ref }));
}

/** Under a /mutasi page: older entries when there are, and the whole statement as a CSV. */
export function walletMoreKeyboard(tr: Translator, seq: number | undefined): InlineKeyboard {
  const kb = new InlineKeyboard();
  if (seq !== undefined) kb.text(tr.t("wallet-button-more"), cb.walletMore.encode({ seq }));
  return kb.text(tr.t("wallet-button-csv"), cb.walletCsv.encode({}));
}

/** An inviting downline's list: each of its own downlines opens its card; one invitation button. */
export function ownListKeyboard(tr: Translator, members: readonly Downline[]): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const m of members) kb.text(`${m.suspended ? "⏸ " : ""}${m.name}`, cb.downlineOpen.encode({ chat: m.chat })).row();
  return kb.text(tr.t("downline-own-button-invite"), cb.downlineInvite.encode({ level: 0 }));
}

/** An inviting downline's card of one of its own: suspend or resume, remove. */
export function ownCardKeyboard(tr: Translator, member: Downline): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t(member.suspended ? "downline-button-resume" : "downline-button-suspend"), cb.downlineSuspend.encode({ chat: member.chat, on: member.suspended ? "off" : "on" }))
    .text(tr.t("downline-button-remove"), cb.downlineRemove.encode({ chat: member.chat }))
    .row()
    .text(tr.t("pin-button-reset-member"), cb.downlinePinReset.encode({ chat: member.chat }));
}
