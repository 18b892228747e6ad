/**
 * Staff (/staf, /staff): the owner invites cashiers and shop admins with one-time links, sees them with
 * their role and last activity, changes a role and removes anyone at once; the owner's choices (its own
 * copy of staff notices, cashiers seeing cost and balance) live here too. For a staff chat: joining by
 * the link (`/start staff_<token>`), /start and /keluar (asks first; leaving ends the membership only), and any key
 * pasted is deleted and refused (a staff chat is never a reseller of its own). Runs before flows, so a
 * key pasted while a flow waits is caught too.
 */
import { Composer } from "grammy";
import { appendAudit, audit } from "../../domain/audit.js";
import { findKeys } from "../../domain/keyShape.js";
import { INVITE_PREFIX, type JoinRefusal, type Staff, type Member } from "../../domain/staff.js";
import { html, wibTime } from "../../render/format.js";
import type { StaffRole } from "../../store/index.js";
import { DEFAULT_LANG } from "../../render/i18n.js";
import { cb, onCallback } from "../buttons.js";
import type { BaseContext, BotContext } from "../context.js";
import { isPrivate, replyPrivateOnly } from "../guards.js";
import { commandOf, commands } from "../../telegram/commands.js";
import { roleChanged } from "../roleMenu.js";
import { apiKeyOf } from "../middlewares/chatRecord.js";
import { deleteKeyMessage } from "./link.js";
import { staffInvitationKeyboard, staffLeaveKeyboard, staffListKeyboard, staffMemberKeyboard } from "../keyboards/staff.js";
import { knownRole } from "../middlewares/role.js";
import { withPin } from "../pin/gate.js";
import { announceSecurity } from "../pin/announce.js";
import type { FeatureModule } from "../module.js";

/** The owner's staff (the one service in the dependencies). */
export function staffOf(ctx: BaseContext): Staff {
  return ctx.deps.staff;
}

/** When this process last noted each member's activity, per store (so a read is not made on every update). */
const activityNoted = new WeakMap<object, Map<number, number>>();

export const staffFeature = new Composer<BotContext>();

// Joining: `/start staff_<token>` from the invitation link, whoever opens it.
staffFeature.command(commands.start, async (ctx, next) => {
  const payload = typeof ctx.match === "string" ? ctx.match.trim() : "";
  const role = ctx.role;
  if (!payload.startsWith(INVITE_PREFIX)) {
    if (role.kind !== "staff" || !isPrivate(ctx)) return next();
    await ctx.reply(ctx.t("staff-welcome", { role: roleName(ctx, role.role), shop: await shopName(ctx, role.owner, ctx.chatRecord?.staffOf?.ownerName) }));
    return;
  }
  if (!isPrivate(ctx)) {
    await replyPrivateOnly(ctx);
    return;
  }
  const record = ctx.chatRecord;
  const name = ctx.from?.first_name ?? ctx.from?.username ?? String(ctx.chat.id);
  const joined = await staffOf(ctx).join(payload.slice(INVITE_PREFIX.length), {
    chat: ctx.chat.id,
    name,
    ownsKey: record?.apiKeyEnc !== undefined,
    staffOf: record?.staffOf?.owner,
  });
  if (typeof joined === "string") {
    await ctx.reply(ctx.t(refusalKey(joined)));
    return;
  }
  // This update's record is stale now: the next one reads the membership.
  ctx.chatRecord = await ctx.deps.store.getChat(ctx.chat.id);
  await appendAudit(ctx.deps.store, joined.owner, { act: "staff_joined", by: ctx.chat.id, byName: name, after: joined.role });
  await ctx.reply(ctx.t("staff-joined", { role: roleName(ctx, joined.role), shop: await shopName(ctx, joined.owner, joined.ownerName) }));
  await roleChanged(ctx, ctx.chat.id, ctx.role);
  await tellChat(ctx, joined.owner, "staff-joined-owner", { name: html(name), role: roleName(ctx, joined.role, await langOf(ctx, joined.owner)) });
});

// A staff chat asks to leave: nothing ends before its confirm button.
staffFeature.command(commands.keluar, async (ctx, next) => {
  const role = ctx.role;
  const since = ctx.chatRecord?.staffOf?.since;
  if (role.kind !== "staff" || since === undefined || !isPrivate(ctx)) return next();
  await ctx.reply(ctx.t("staff-leave-ask", { role: roleName(ctx, role.role), shop: await shopName(ctx, role.owner, ctx.chatRecord?.staffOf?.ownerName) }), {
    reply_markup: staffLeaveKeyboard(ctx, role.owner, since),
  });
});

// Leaving: only the membership the button asked about (an old button after joining again ends nothing),
// once (the second tap finds no membership). Nothing else changes: a staff chat never had a key of its own.
onCallback(staffFeature, cb.staffLeave, async (ctx, { owner, since }) => {
  const role = ctx.role;
  const asked = role.kind === "staff" && role.owner === owner && ctx.chatRecord?.staffOf?.since === since && isPrivate(ctx);
  const member = asked ? await staffOf(ctx).end(owner, ctx.chat!.id) : undefined;
  if (role.kind !== "staff" || member === undefined) {
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    await ctx.editMessageReplyMarkup().catch(() => undefined);
    return;
  }
  await ctx.answerCallbackQuery();
  ctx.chatRecord = await ctx.deps.store.getChat(ctx.chat!.id);
  await appendAudit(ctx.deps.store, owner, { act: "staff_left", by: ctx.chat!.id, byName: member.name, before: role.role });
  await ctx.editMessageText(ctx.t("staff-left")).catch(() => ctx.reply(ctx.t("staff-left")));
  await roleChanged(ctx, ctx.chat!.id, ctx.role);
  await tellChat(ctx, owner, "staff-left-owner", { name: html(member.name) });
});

onCallback(staffFeature, cb.staffStay, async (ctx) => {
  await ctx.answerCallbackQuery();
  const role = ctx.role;
  if (role.kind !== "staff") {
    await ctx.editMessageReplyMarkup().catch(() => undefined);
    return;
  }
  const text = ctx.t("staff-leave-kept", { role: roleName(ctx, role.role), shop: await shopName(ctx, role.owner, ctx.chatRecord?.staffOf?.ownerName) });
  await ctx.editMessageText(text).catch(() => ctx.reply(text));
});

// A staff chat never links a key: any key-shaped text is deleted and refused, whatever else waits.
staffFeature.on("message:text", (ctx, next) => {
  const role = knownRole(ctx); // unknown while the store is unreachable: help and the menu still answer
  if (role?.kind !== "staff" || !isPrivate(ctx) || commandOf(ctx.message.text) !== undefined) return next();
  return refuseKey(ctx, next);
});

async function refuseKey(ctx: BotContext & { message: { text: string } }, next: () => Promise<void>): Promise<void> {
  const ownerKey = await apiKeyOf(ctx).catch(() => undefined); // unreadable: the shape rule still applies
  if (findKeys(ctx.message.text, ownerKey ? [ownerKey] : []).length === 0) return next();
  await deleteKeyMessage(ctx);
  await ctx.reply(ctx.t("staff-key-refused"));
}

// Last activity, at most every few minutes per member (written on the owner's list).
staffFeature.use((ctx, next) => {
  const role = knownRole(ctx);
  const chat = ctx.chat?.id;
  if (role?.kind !== "staff" || chat === undefined) return next();
  const now = ctx.deps.clock.now();
  let noted = activityNoted.get(ctx.deps.store);
  if (!noted) activityNoted.set(ctx.deps.store, (noted = new Map()));
  const last = noted.get(chat);
  if (last !== undefined && now - last < 60_000 && now >= last) return next();
  noted.set(chat, now);
  return staffOf(ctx)
    .touch(role.owner, chat)
    .catch((err: unknown) => ctx.deps.logger.warn({ err }, "staff activity not noted"))
    .then(next);
});

// ---- the owner's screens -----------------------------------------------------------------------

staffFeature.command(commands.staf, async (ctx) => {
  if (!isPrivate(ctx)) return replyPrivateOnly(ctx);
  if (ctx.role.kind !== "owner") {
    await ctx.reply(ctx.t("not-linked"));
    return;
  }
  await showStaff(ctx, false);
});

async function showStaff(ctx: BotContext, edit: boolean): Promise<void> {
  const owner = ctx.chat!.id;
  const staff = staffOf(ctx);
  const members = await staff.members(owner);
  const choices = await staff.choices(owner);
  const lines = members.map((m, i) =>
    ctx.t("staff-line", {
      n: i + 1,
      name: html(m.name),
      role: roleName(ctx, m.role),
      seen: m.lastActiveAt === undefined ? ctx.t("staff-never-seen") : ctx.t("staff-seen-at", { time: wibTime(m.lastActiveAt, ctx.lang) }),
    }),
  );
  const text = [ctx.t("staff-title", { count: members.length }), "", ...(lines.length ? lines : [ctx.t("staff-none")]), "", ctx.t("staff-roles-help")].join("\n");
  const kb = staffListKeyboard(ctx, members, choices);
  if (edit) await ctx.editMessageText(text, { reply_markup: kb }).catch(() => ctx.reply(text, { reply_markup: kb }));
  else await ctx.reply(text, { reply_markup: kb });
}

/** The owner's buttons are the owner's alone: the gate refuses staff, this refuses anyone without a key. */
async function ownerOnly(ctx: BotContext): Promise<boolean> {
  if (ctx.role.kind === "owner" && isPrivate(ctx)) return true;
  await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
  return false;
}

onCallback(staffFeature, cb.staffInvite, withPin(cb.staffInvite, () => ({ what: "pin-for-staff-invite", moneyOut: true }), async (ctx, { role }) => {
  if (!(await ownerOnly(ctx))) return;
  const invited = await staffOf(ctx).invite(ctx.chat!.id, role, ctx.from?.first_name);
  await ctx.answerCallbackQuery();
  if (invited === "full") {
    await ctx.reply(ctx.t("staff-full"));
    return;
  }
  await audit(ctx, "staff_invited", undefined, role);
  await announceSecurity(ctx, "pin-told-staff-invite");
  const link = `https://t.me/${ctx.me.username}?start=${INVITE_PREFIX}${invited.token}`;
  await ctx.reply(ctx.t("staff-invite-link", { role: roleName(ctx, role), link: html(link), until: wibTime(invited.expiresAt, ctx.lang) }), {
    reply_markup: staffInvitationKeyboard(ctx, role, link),
  });
}));

onCallback(staffFeature, cb.staffOpen, async (ctx, { chat }) => {
  if (!(await ownerOnly(ctx))) return;
  const member = await staffOf(ctx).member(ctx.chat!.id, chat);
  if (!member) {
    await ctx.answerCallbackQuery({ text: ctx.t("staff-gone") });
    return;
  }
  await ctx.answerCallbackQuery();
  await showMember(ctx, member);
});

async function showMember(ctx: BotContext, member: Member): Promise<void> {
  const kb = staffMemberKeyboard(ctx, member);
  const seen = member.lastActiveAt === undefined ? ctx.t("staff-member-never-seen") : ctx.t("staff-member-seen-at", { time: wibTime(member.lastActiveAt, ctx.lang) });
  await ctx.reply(ctx.t("staff-member", { name: html(member.name), role: roleName(ctx, member.role), since: wibTime(member.joinedAt, ctx.lang), seen }), { reply_markup: kb });
}

onCallback(staffFeature, cb.staffRole, withPin(cb.staffRole, () => ({ what: "pin-for-staff-role" }), async (ctx, { chat, role }) => {
  if (!(await ownerOnly(ctx))) return;
  const before = await staffOf(ctx).changeRole(ctx.chat!.id, chat, role);
  if (before === undefined) {
    await ctx.answerCallbackQuery({ text: ctx.t("staff-gone") });
    return;
  }
  await ctx.answerCallbackQuery();
  await ctx.editMessageReplyMarkup().catch(() => undefined);
  if (before !== role) {
    await audit(ctx, "staff_role_changed", `${chat} ${before}`, `${chat} ${role}`);
    const name = (await staffOf(ctx).member(ctx.chat!.id, chat))?.name ?? String(chat);
    await announceSecurity(ctx, "pin-told-staff-role", { name: html(name), role: roleName(ctx, role) });
  }
  await ctx.reply(ctx.t("staff-role-changed", { role: roleName(ctx, role) }));
  await tellChat(ctx, chat, "staff-role-changed-you", { role: roleName(ctx, role, await langOf(ctx, chat)) });
  await roleChanged(ctx, chat);
}));

onCallback(staffFeature, cb.staffRemove, async (ctx, { chat }) => {
  if (!(await ownerOnly(ctx))) return;
  const member = await staffOf(ctx).end(ctx.chat!.id, chat);
  if (!member) {
    await ctx.answerCallbackQuery({ text: ctx.t("staff-gone") });
    return;
  }
  await ctx.answerCallbackQuery();
  await ctx.editMessageReplyMarkup().catch(() => undefined);
  await audit(ctx, "staff_removed", `${member.name} (${chat}) ${member.role}`);
  await ctx.reply(ctx.t("staff-removed", { name: html(member.name) }));
  await tellChat(ctx, chat, "staff-removed-you", {});
  await roleChanged(ctx, chat);
});

// A staff member's forgotten or locked PIN: the owner removes it (behind the owner's own PIN), audited.
onCallback(staffFeature, cb.staffPinReset, withPin(cb.staffPinReset, () => ({ what: "pin-for-member-reset" }), async (ctx, { chat }) => {
  if (!(await ownerOnly(ctx))) return;
  const member = await staffOf(ctx).member(ctx.chat!.id, chat);
  if (!member) return void (await ctx.answerCallbackQuery({ text: ctx.t("staff-gone") }));
  await ctx.deps.pins.resetByUpline(chat);
  await ctx.answerCallbackQuery().catch(() => undefined);
  await audit(ctx, "pin_reset", `${member.name} (${chat})`);
  await ctx.reply(ctx.t("pin-member-reset", { name: html(member.name) }));
  await tellChat(ctx, chat, "pin-staff-reset-you", {});
}));

onCallback(staffFeature, cb.staffNotices, async (ctx, { on }) => {
  if (!(await ownerOnly(ctx))) return;
  const { before, after } = await staffOf(ctx).choose(ctx.chat!.id, { ownerNotices: on === "on" });
  await ctx.answerCallbackQuery();
  if (before.ownerNotices !== after.ownerNotices) await audit(ctx, "staff_choice_changed", { ownerNotices: before.ownerNotices }, { ownerNotices: after.ownerNotices });
  await showStaff(ctx, true);
});

onCallback(staffFeature, cb.staffCost, async (ctx, { on }) => {
  if (!(await ownerOnly(ctx))) return;
  const { before, after } = await staffOf(ctx).choose(ctx.chat!.id, { cashierSeesCost: on === "on" });
  await ctx.answerCallbackQuery();
  if (before.cashierSeesCost !== after.cashierSeesCost) {
    await audit(ctx, "staff_choice_changed", { cashierSeesCost: before.cashierSeesCost }, { cashierSeesCost: after.cashierSeesCost });
  }
  await showStaff(ctx, true);
});

// ---- helpers -----------------------------------------------------------------------------------

function refusalKey(why: JoinRefusal): string {
  return `staff-join-${why}`;
}

export function roleName(ctx: BaseContext, role: StaffRole, lang = ctx.lang): string {
  return ctx.translate(lang, `staff-role-${role}`);
}

async function langOf(ctx: BaseContext, chatId: number) {
  return (await ctx.deps.settings.language(chatId)) ?? DEFAULT_LANG;
}

/**
 * Whose shop a staff chat works in: the /toko name and the owner's name ("Cell Jaya (milik Rina)"),
 * either alone when only one is known, or a plain "the owner's shop" (invited before names were kept).
 */
async function shopName(ctx: BaseContext, owner: number, ownerName: string | undefined): Promise<string> {
  const shop = (await ctx.deps.settings.shop(owner)).shopName;
  if (shop && ownerName) return ctx.t("staff-shop-named", { shop: html(shop), owner: html(ownerName) });
  if (shop) return html(shop);
  return ownerName ? ctx.t("staff-shop-of", { owner: html(ownerName) }) : ctx.t("staff-the-owner");
}

/** A message to another chat in its language; a chat that blocked the bot simply misses it. */
async function tellChat(ctx: BaseContext, chatId: number, key: string, vars: Record<string, string | number>): Promise<void> {
  const text = ctx.translate(await langOf(ctx, chatId), key, vars);
  await ctx.api.sendMessage(chatId, text).catch((err: unknown) => ctx.deps.logger.warn({ err, chatId }, "staff notice not delivered"));
}

export const staffModule: FeatureModule = {
  name: "staff",
  stage: "beforeKey",
  composer: staffFeature,
  commands: { staf: "owner" },
  buttons: {
    staffInvite: "owner",
    staffOpen: "owner",
    staffRole: "owner",
    staffPinReset: "owner",
    staffRemove: "owner",
    staffNotices: "owner",
    staffCost: "owner",
    staffLeave: "anyone",
    staffStay: "anyone",
  },
  // An invitation's /start and a staff member's /keluar; the owner's are link's.
  shares: { commands: ["start", "keluar"] },
};
