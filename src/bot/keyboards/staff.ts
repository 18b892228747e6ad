/** The owner's staff screens' buttons (features/staff.ts). */
import { InlineKeyboard } from "grammy";
import type { Member, StaffChoices } from "../../domain/staff.js";
import type { StaffRole } from "../../store/index.js";
import { cb } from "../buttons.js";
import type { Translator } from "./translator.js";

/** /staf: one button per member, the two invitations, then the owner's two choices (each shows its state). */
export function staffListKeyboard(tr: Translator, members: readonly Pick<Member, "chat" | "name">[], choices: StaffChoices): InlineKeyboard {
  const kb = new InlineKeyboard();
  members.forEach((m, i) => kb.text(`${i + 1}. ${m.name}`.slice(0, 40), cb.staffOpen.encode({ chat: m.chat })).row());
  return kb
    .text(tr.t("staff-button-invite-cashier"), cb.staffInvite.encode({ role: "cashier" }))
    .text(tr.t("staff-button-invite-admin"), cb.staffInvite.encode({ role: "admin" }))
    .row()
    .text(tr.t(choices.ownerNotices ? "staff-button-notices-on" : "staff-button-notices-off"), cb.staffNotices.encode({ on: choices.ownerNotices ? "off" : "on" }))
    .row()
    .text(tr.t(choices.cashierSeesCost ? "staff-button-cost-on" : "staff-button-cost-off"), cb.staffCost.encode({ on: choices.cashierSeesCost ? "off" : "on" }));
}

/** One member's card: give it the other role, or remove it. */
export function staffMemberKeyboard(tr: Translator, member: Pick<Member, "chat" | "role">): InlineKeyboard {
  const other: StaffRole = member.role === "cashier" ? "admin" : "cashier";
  return new InlineKeyboard()
    .text(tr.t("staff-button-make", { role: tr.t(`staff-role-${other}`) }), cb.staffRole.encode({ chat: member.chat, role: other }))
    .row()
    .text(tr.t("pin-button-reset-member"), cb.staffPinReset.encode({ chat: member.chat }))
    .row()
    .text(tr.t("staff-button-remove"), cb.staffRemove.encode({ chat: member.chat }));
}

/** A staff member's /keluar question: leave (this membership only: `owner`, joined at `since`) or stay. */
export function staffLeaveKeyboard(tr: Translator, owner: number, since: number): InlineKeyboard {
  return new InlineKeyboard().text(tr.t("staff-button-leave"), cb.staffLeave.encode({ owner, since })).text(tr.t("staff-button-stay"), cb.staffStay.encode({}));
}

/** Under an invitation: the link as a button, for the person the owner forwards it to. */
export function staffInvitationKeyboard(tr: Translator, role: StaffRole, link: string): InlineKeyboard {
  return new InlineKeyboard().url(tr.t("staff-button-join", { role: tr.t(`staff-role-${role}`) }), link);
}
