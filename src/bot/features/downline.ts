/**
 * The owner's network (/downline, /downlines; docs/wallets.md): the list of downlines with level and
 * wallet, sales this month and last activity, one-person invitation links per level, a downline's card (its wallet by hand, level,
 * suspend, remove). For a downline: joining by the link (`/start dl_<token>`), `/saldo` as its wallet,
 * `/mutasi` (`/statement`) its entries with the running balance, and as a CSV. A downline's purchases go through the
 * ordinary confirm screen (money/confirm.ts), paid from its wallet.
 */
import { Wallets } from "../../money/wallets.js";
import { Composer, InputFile, type InlineKeyboard } from "grammy";
import { appendAudit, audit } from "../../domain/audit.js";
import { DOWNLINE_INVITE_PREFIX, MAX_DEPTH, type Downline, type DownlineJoinRefusal } from "../../domain/network.js";
import { downlineActivity } from "../../domain/networkReport.js";
import { wibDay, wibDayStart } from "../../domain/report.js";
import { walletCsv } from "../../render/exportCsv.js";
import { html, rupiah, wibTime } from "../../render/format.js";
import { dayLabel } from "../../render/report.js";
import { DEFAULT_LANG } from "../../render/i18n.js";
import type { WalletEntry } from "../../store/index.js";
import { commands } from "../../telegram/commands.js";
import { cb, onCallback } from "../buttons.js";
import type { BaseContext, BotContext } from "../context.js";
import { isPrivate, replyPrivateOnly } from "../guards.js";
import { adjustConfirmKeyboard, downlineCardKeyboard, downlineListKeyboard, ownCardKeyboard, ownListKeyboard, walletMoreKeyboard } from "../keyboards/downline.js";
import { actorOf, actsOn, ownListText, setOwnMarkup, type NetworkActor } from "./downlineOwn.js";
import type { FeatureModule } from "../module.js";
import { paginate } from "../paging.js";
import { roleChanged } from "../roleMenu.js";
import { withPin } from "../pin/gate.js";
import { announceSecurity } from "../pin/announce.js";

/** "50000 tunai", "50.000 transfer BCA": the amount, then the reason. */
const AMOUNT_AND_REASON = /^\s*(\d{1,3}(?:[.,]\d{3})+|\d+)\s+(\S.{0,99})$/s;
const MAX_ADJUST = 100_000_000;

async function langOf(ctx: BaseContext, chatId: number) {
  return (await ctx.deps.settings.language(chatId)) ?? DEFAULT_LANG;
}

async function tell(ctx: BaseContext, chatId: number, key: string, vars: Record<string, string | number>): Promise<void> {
  const text = ctx.translate(await langOf(ctx, chatId), key, vars);
  await ctx.api.sendMessage(chatId, text).catch((err: unknown) => ctx.deps.logger.warn({ err, chatId }, "network notice not delivered"));
}

// ---- joining ------------------------------------------------------------------------------------

const joinComposer = new Composer<BotContext>();

joinComposer.command(commands.start, async (ctx, next) => {
  const payload = typeof ctx.match === "string" ? ctx.match.trim() : "";
  const role = ctx.role;
  if (!payload.startsWith(DOWNLINE_INVITE_PREFIX)) {
    if (role.kind !== "downline" || !isPrivate(ctx)) return next();
    const levels = await ctx.deps.network.levels(role.owner);
    await ctx.reply(ctx.t("downline-welcome", { level: html(levels[role.level]?.name ?? "") }));
    return;
  }
  if (!isPrivate(ctx)) return void (await replyPrivateOnly(ctx));
  const record = ctx.chatRecord;
  const name = ctx.from?.first_name ?? ctx.from?.username ?? String(ctx.chat.id);
  const joined = await ctx.deps.network.join(payload.slice(DOWNLINE_INVITE_PREFIX.length), {
    chat: ctx.chat.id,
    name,
    ownsKey: record?.apiKeyEnc !== undefined || record?.staffOf !== undefined,
    memberOf: record?.downlineOf?.owner,
  });
  if (typeof joined === "string") return void (await ctx.reply(ctx.t(refusalKey(joined))));
  ctx.chatRecord = await ctx.deps.store.getChat(ctx.chat.id);
  const level = (await ctx.deps.network.levels(joined.owner))[joined.level]?.name ?? "";
  await appendAudit(ctx.deps.store, joined.owner, { act: "downline_joined", by: ctx.chat.id, byName: name, after: level });
  if (joined.upline === joined.owner) {
    await ctx.reply(ctx.t("downline-joined", { level: html(level) }));
  } else {
    // Below another downline: its level is its upline's business, its price its upline's price plus markup.
    const upline = await ctx.deps.network.member(joined.owner, joined.upline);
    await ctx.reply(ctx.t("downline-joined-sub", { upline: html(upline?.name ?? "") }));
  }
  await roleChanged(ctx, ctx.chat.id);
  if (joined.upline === joined.owner) await tell(ctx, joined.owner, "downline-joined-owner", { name: html(name), level: html(level) });
  else await tell(ctx, joined.upline, "downline-joined-upline", { name: html(name) });
});

function refusalKey(refusal: DownlineJoinRefusal): string {
  return `downline-join-${refusal}`;
}

// ---- the owner's screens ----------------------------------------------------------------------

const composer = new Composer<BotContext>();

/** Downlines a page of the owner's list: 20 lines stay well within Telegram's 4,096 characters. */
const LIST_PAGE = 20;

/** The owner's list, one page of the tree: its lines and their buttons, the count and what the wallets hold on every page. */
async function listScreen(ctx: BaseContext, owner: number, page: number): Promise<{ text: string; keyboard: InlineKeyboard }> {
  const network = ctx.deps.network;
  const [members, levels, wallets, activity] = await Promise.all([network.members(owner), network.levels(owner), ctx.deps.wallets.ofNetwork(owner), recentActivity(ctx, owner)]);
  const byChat = new Map(wallets.map((w) => [w.chat, w]));
  const names = new Map(members.map((m) => [m.chat, m.name]));
  const owed = Wallets.owed(wallets);
  const shown = paginate(treeOrder(members), page, LIST_PAGE);
  const lines = shown.items.map(({ m, depth }) => {
    const w = byChat.get(m.chat);
    const a = activity.byChat.get(m.chat);
    const state = `${m.mayInvite ? ctx.t("downline-may-invite") : ""}${m.suspended ? ctx.t("downline-suspended") : ""}`;
    const figures = {
      name: html(m.name),
      balance: rupiah(w?.balance ?? 0, ctx.lang),
      held: rupiah(w?.held ?? 0, ctx.lang),
      sales: a?.sales ?? 0,
      last: a ? ctx.t("downline-last", { at: wibTime(a.lastAt, ctx.lang) }) : ctx.t("downline-last-none", { since: dayLabel(wibDay(Math.max(m.joinedAt, activity.since)), ctx.lang) }),
      state,
    };
    if (depth === 0) return ctx.t("downline-line", { ...figures, level: html(levels[m.level]?.name ?? "?") });
    return ctx.t("downline-line-via", { ...figures, indent: "   ".repeat(depth - 1), upline: html(names.get(m.upline!) ?? "?") });
  });
  const body = lines.length > 0 ? lines.join("\n") : ctx.t("downline-none");
  const pageLine = shown.pages > 1 ? `\n${ctx.t("downline-page", { page: shown.page + 1, pages: shown.pages })}` : "";
  const text = `${ctx.t("downline-title", { count: members.length })}${pageLine}\n\n${body}\n\n${ctx.t("downline-owed", { owed: rupiah(owed, ctx.lang) })}`;
  return { text, keyboard: downlineListKeyboard(ctx, shown.items, levels, shown, (p) => cb.downlinePage.encode({ page: p })) };
}

/** Each downline's sales this month and its newest record, from this month's and last month's ledger (`since`: how far back). */
async function recentActivity(ctx: BaseContext, owner: number) {
  const thisMonth = wibDay(ctx.deps.clock.now()).slice(0, 7);
  const lastMonth = wibDay(wibDayStart(`${thisMonth}-01`) - 1).slice(0, 7);
  const txs = [...(await ctx.deps.ledger.month(owner, lastMonth)), ...(await ctx.deps.ledger.month(owner, thisMonth))];
  return { byChat: downlineActivity(txs, `${thisMonth}-01`), since: wibDayStart(`${lastMonth}-01`) };
}

/** The members as a tree: each followed by its own downlines, with its depth below the owner's (0: direct). */
function treeOrder(members: readonly Downline[]): { m: Downline; depth: number }[] {
  const chats = new Set(members.map((m) => m.chat));
  const out: { m: Downline; depth: number }[] = [];
  const walk = (upline: number | undefined, depth: number) => {
    for (const m of members) {
      // An upline no longer listed: shown at the top rather than lost.
      const parent = m.upline !== undefined && chats.has(m.upline) ? m.upline : undefined;
      if (parent === upline && depth <= MAX_DEPTH) {
        out.push({ m, depth });
        walk(m.chat, depth + 1);
      }
    }
  };
  walk(undefined, 0);
  return out;
}

composer.command(commands.downline, async (ctx) => {
  if (!isPrivate(ctx)) return void (await replyPrivateOnly(ctx));
  const actor = actorOf(ctx);
  if (!actor) return void (await ctx.reply(ctx.t("downline-not-allowed")));
  const { owner, by } = actor;
  if (by === undefined) {
    const screen = await listScreen(ctx, owner, 0);
    return void (await ctx.reply(screen.text, { reply_markup: screen.keyboard }));
  }
  const members = await ctx.deps.network.members(owner);
  const typed = typeof ctx.match === "string" ? /^\s*markup\s+(.+)$/i.exec(ctx.match)?.[1] : undefined;
  if (typed !== undefined) return void (await setOwnMarkup(ctx, { owner, by }, typed));
  const own = members.filter((m) => m.upline === by);
  await ctx.reply(ownListText(ctx, own, await ctx.deps.network.markup(by)), { reply_markup: ownListKeyboard(ctx, own) });
});

// Another page of the owner's list, in the same message.
onCallback(composer, cb.downlinePage, async (ctx, { page }) => {
  const actor = actorOf(ctx);
  await ctx.answerCallbackQuery();
  if (!actor || actor.by !== undefined) return;
  const screen = await listScreen(ctx, actor.owner, page);
  await ctx.editMessageText(screen.text, { reply_markup: screen.keyboard }).catch(() => undefined);
});

onCallback(composer, cb.downlineInvite, withPin(cb.downlineInvite, () => ({ what: "pin-for-downline-invite", moneyOut: true }), async (ctx, { level }) => {
  const actor = actorOf(ctx);
  if (!actor) return void (await ctx.answerCallbackQuery({ text: ctx.t("downline-not-allowed"), show_alert: true }));
  const { owner, by } = actor;
  const levels = await ctx.deps.network.levels(owner);
  if (!levels[level]) return void (await ctx.answerCallbackQuery({ text: ctx.t("button-expired") }));
  const invited = await ctx.deps.network.invite(owner, level, by);
  await ctx.answerCallbackQuery();
  if (typeof invited === "string") return void (await ctx.reply(ctx.t(`downline-${invited}`)));
  const link = `https://t.me/${ctx.me.username}?start=${DOWNLINE_INVITE_PREFIX}${invited.token}`;
  const until = wibTime(invited.expiresAt, ctx.lang);
  if (by !== undefined) {
    await audit(ctx, "downline_invited", undefined, "via");
    return void (await ctx.reply(ctx.t("downline-own-invite", { link, until }), { link_preview_options: { is_disabled: true } }));
  }
  await audit(ctx, "downline_invited", undefined, levels[level].name);
  await announceSecurity(ctx, "pin-told-downline-invite");
  await ctx.reply(ctx.t("downline-invite", { level: html(levels[level].name), link, until }), {
    link_preview_options: { is_disabled: true },
  });
}));

/** The member `chat` if this chat may act on it; else the button is answered as expired. */
async function memberFor(ctx: BotContext, chat: number): Promise<{ actor: NetworkActor; member: Downline } | undefined> {
  const actor = actorOf(ctx);
  const member = actor && (await ctx.deps.network.member(actor.owner, chat));
  if (actor && actsOn(actor, member)) return { actor, member };
  await ctx.answerCallbackQuery({ text: ctx.t(actor ? "button-expired" : "downline-not-allowed") }).catch(() => undefined);
  return undefined;
}

async function showCard(ctx: BotContext, chat: number): Promise<void> {
  const found = await memberFor(ctx, chat);
  if (!found) return;
  const { actor, member } = found;
  const owner = actor.owner;
  const since = wibTime(member.joinedAt, ctx.lang);
  const state = member.suspended ? ctx.t("downline-suspended") : "";
  await ctx.answerCallbackQuery().catch(() => undefined);
  if (actor.by !== undefined) {
    // An inviting downline's card: no wallets or levels of the network, only suspend and remove.
    return void (await ctx.reply(ctx.t("downline-own-card", { name: html(member.name), since, state }), { reply_markup: ownCardKeyboard(ctx, member) }));
  }
  const [levels, wallet, h2h] = await Promise.all([ctx.deps.network.levels(owner), ctx.deps.wallets.view(chat), ctx.deps.h2hAccess.view(chat)]);
  const h2hOn = h2h?.enabled === true;
  const via = member.upline !== undefined ? `\n${ctx.t("downline-card-via", { upline: html((await ctx.deps.network.member(owner, member.upline))?.name ?? "?") })}` : "";
  const text = ctx.t("downline-card", {
    name: html(member.name),
    level: html(levels[member.level]?.name ?? "?"),
    since,
    balance: rupiah(wallet.balance, ctx.lang),
    held: rupiah(wallet.held, ctx.lang),
    available: rupiah(wallet.available, ctx.lang),
    state: `${state}${member.mayInvite ? ctx.t("downline-may-invite") : ""}`,
  });
  const h2hLine = `\n${ctx.t(h2hOn ? "downline-card-h2h-on" : "downline-card-h2h-off")}`;
  await ctx.reply(`${text}${via}${h2hLine}`, { reply_markup: downlineCardKeyboard(ctx, member, levels, h2hOn) });
}

/** The owner's own change of a downline is told apart (an inviting downline's, of its own downlines, is not the owner's act). */
async function announceOwners(ctx: BotContext, actor: NetworkActor, name: string, change: string): Promise<void> {
  if (actor.by === undefined) await announceSecurity(ctx, "pin-told-downline", { name: html(name), change, level: "" });
}

onCallback(composer, cb.downlineOpen, (ctx, { chat }) => showCard(ctx, chat));

onCallback(composer, cb.downlineLevel, withPin(cb.downlineLevel, () => ({ what: "pin-for-downline-change" }), async (ctx, { chat, level }) => {
  const owner = ctx.chat!.id;
  const levels = await ctx.deps.network.levels(owner);
  if (!levels[level]) return void (await ctx.answerCallbackQuery({ text: ctx.t("button-expired") }));
  const member = await ctx.deps.network.member(owner, chat);
  const changed = member && member.upline === undefined ? await ctx.deps.network.change(owner, chat, { level }) : undefined;
  if (!changed) return void (await ctx.answerCallbackQuery({ text: ctx.t("button-expired") }));
  await audit(ctx, "downline_changed", changed.name, levels[level].name);
  await announceSecurity(ctx, "pin-told-downline", { name: html(changed.name), change: "level", level: html(levels[level].name) });
  await tell(ctx, chat, "downline-level-changed-you", { level: html(levels[level].name) });
  await showCard(ctx, chat);
}));

onCallback(composer, cb.downlineSuspend, withPin(cb.downlineSuspend, () => ({ what: "pin-for-downline-change" }), async (ctx, { chat, on }) => {
  const found = await memberFor(ctx, chat);
  if (!found) return;
  const changed = await ctx.deps.network.change(found.actor.owner, chat, { suspended: on === "on" });
  if (!changed) return void (await ctx.answerCallbackQuery({ text: ctx.t("button-expired") }));
  await audit(ctx, "downline_changed", changed.name, on === "on" ? "suspended" : "active");
  await announceOwners(ctx, found.actor, changed.name, on === "on" ? "suspended" : "resumed");
  await tell(ctx, chat, on === "on" ? "downline-suspended-you" : "downline-resumed-you", {});
  await showCard(ctx, chat);
}));

onCallback(composer, cb.downlineRemove, withPin(cb.downlineRemove, () => ({ what: "pin-for-downline-change" }), async (ctx, { chat }) => {
  const found = await memberFor(ctx, chat);
  if (!found) return;
  const { actor, member } = found;
  const removed = await ctx.deps.network.remove(actor.owner, chat);
  if (removed === "unknown") return void (await ctx.answerCallbackQuery({ text: ctx.t("button-expired") }));
  if (removed !== "removed") return void (await ctx.answerCallbackQuery({ text: ctx.t(removed === "not-empty" ? "downline-remove-not-empty" : "downline-has-downlines"), show_alert: true }));
  await ctx.answerCallbackQuery();
  await audit(ctx, "downline_removed", member.name);
  await announceOwners(ctx, actor, member.name, "removed");
  await ctx.reply(ctx.t("downline-removed", { name: html(member.name) }));
  await tell(ctx, chat, "downline-removed-you", {});
  await roleChanged(ctx, chat);
}));

onCallback(composer, cb.downlineMayInvite, withPin(cb.downlineMayInvite, () => ({ what: "pin-for-downline-change" }), async (ctx, { chat, on }) => {
  const owner = ctx.chat!.id;
  const changed = await ctx.deps.network.change(owner, chat, { mayInvite: on === "on" });
  if (!changed) return void (await ctx.answerCallbackQuery({ text: ctx.t("button-expired") }));
  await audit(ctx, "downline_changed", changed.name, on === "on" ? "may invite" : "may not invite");
  await announceSecurity(ctx, "pin-told-downline", { name: html(changed.name), change: on === "on" ? "may-invite" : "no-invite", level: "" });
  await tell(ctx, chat, on === "on" ? "downline-may-invite-you" : "downline-no-invite-you", {});
  await showCard(ctx, chat);
}));

// A downline's forgotten or locked PIN: its upline removes it (behind the upline's own PIN), audited.
onCallback(composer, cb.downlinePinReset, withPin(cb.downlinePinReset, () => ({ what: "pin-for-member-reset" }), async (ctx, { chat }) => {
  const found = await memberFor(ctx, chat);
  if (!found) return;
  await ctx.deps.pins.resetByUpline(chat);
  await ctx.answerCallbackQuery().catch(() => undefined);
  await audit(ctx, "pin_reset", `${found.member.name} (${chat})`);
  await ctx.reply(ctx.t("pin-member-reset", { name: html(found.member.name) }));
  await tell(ctx, chat, "pin-member-reset-you", {});
}));

// The owner's H2H switch (docs/h2h.md): on any member of its network, direct or below another downline.
onCallback(composer, cb.downlineH2h, async (ctx, { chat, on }) => {
  const owner = ctx.chat!.id;
  const member = await ctx.deps.network.member(owner, chat);
  const changed = member && (await ctx.deps.h2hAccess.enable(owner, chat, on === "on"));
  if (!member || !changed || changed === "not-member") return void (await ctx.answerCallbackQuery({ text: ctx.t("button-expired") }));
  await audit(ctx, "downline_changed", member.name, on === "on" ? "h2h on" : "h2h off");
  await tell(ctx, chat, on === "on" ? "h2h-on-you" : "h2h-off-you", {});
  await showCard(ctx, chat);
});

// Adding or taking by hand: the owner replies with the amount and the reason, then confirms.
onCallback(composer, cb.downlineAdjust, async (ctx, { chat, way }) => {
  const owner = ctx.chat!.id;
  const member = await ctx.deps.network.member(owner, chat);
  if (!member) return void (await ctx.answerCallbackQuery({ text: ctx.t("button-expired") }));
  await ctx.answerCallbackQuery();
  const prompt = await askAmount(ctx, ctx.t(way === "in" ? "downline-adjust-ask-in" : "downline-adjust-ask-out", { name: html(member.name) }));
  await ctx.deps.network.askAdjust(owner, chat, way, prompt);
});

/** A question the owner answers by replying (force_reply: the app replies to it); its message id. */
async function askAmount(ctx: BaseContext, text: string): Promise<number> {
  const prompt = await ctx.reply(text, { reply_markup: { force_reply: true, input_field_placeholder: ctx.t("downline-adjust-placeholder") } });
  return prompt.message_id;
}

composer.on("message:text", async (ctx, next) => {
  const replyTo = ctx.message.reply_to_message?.message_id;
  if (replyTo === undefined || ctx.role.kind !== "owner") return next();
  const doc = await ctx.deps.network.askedBy(ctx.chat.id, replyTo);
  if (!doc) return next();
  const m = AMOUNT_AND_REASON.exec(ctx.message.text);
  const amount = m ? Number(m[1]!.replace(/[.,]/g, "")) : NaN;
  if (!m || !(amount > 0) || amount > MAX_ADJUST) {
    // A new question to reply to: the old one is far up the chat by now.
    const again = await askAmount(ctx, ctx.t("downline-adjust-bad"));
    return void (await ctx.deps.network.askAgain(doc.ref, doc.value, again));
  }
  const reason = m[2]!.trim();
  const member = await ctx.deps.network.member(ctx.chat.id, doc.value.chat);
  // More than the wallet can give: said now, with what it holds, and asked again (Confirm would only refuse).
  const wallet = doc.value.way === "out" ? await ctx.deps.wallets.view(doc.value.chat) : undefined;
  if (wallet && amount > wallet.available) {
    const vars = { name: html(member?.name ?? ""), amount: rupiah(amount, ctx.lang), ...walletVars(ctx, wallet) };
    if (wallet.available <= 0) {
      await ctx.deps.network.cancelAdjustment(ctx.chat.id, doc.ref);
      return void (await ctx.reply(ctx.t("downline-adjust-nothing", vars)));
    }
    const again = await askAmount(ctx, ctx.t(wallet.held > 0 ? "downline-adjust-over-held" : "downline-adjust-over", vars));
    return void (await ctx.deps.network.askAgain(doc.ref, doc.value, again));
  }
  if (!(await ctx.deps.network.answered(doc.ref, doc.value, amount, reason))) return next();
  await ctx.reply(
    ctx.t(doc.value.way === "in" ? "downline-adjust-confirm-in" : "downline-adjust-confirm-out", { name: html(member?.name ?? ""), amount: rupiah(amount, ctx.lang), reason: html(reason) }),
    { reply_markup: adjustConfirmKeyboard(ctx, doc.ref) },
  );
});

onCallback(composer, cb.downlineAdjustYes, withPin(cb.downlineAdjustYes, () => ({ what: "pin-for-wallet", moneyOut: true }), async (ctx, { ref }) => {
  const owner = ctx.chat!.id;
  // Of a double tap one moves it on; "posting" again (a stop in between) posts nothing twice: the entry's ref is the adjustment's.
  const taken = await ctx.deps.network.takeAdjustment(owner, ref);
  if (!taken) return void (await ctx.answerCallbackQuery({ text: ctx.t("confirm-already") }));
  const { amount, reason } = taken;
  const signed = taken.way === "in" ? amount : -amount;
  const adjusted = await ctx.deps.wallets.adjust({ ref, owner, wallet: taken.chat, amount: signed, reason, by: owner });
  if (adjusted.kind === "short") {
    // Spent meanwhile: said on the screen itself (its Confirm would do nothing now), and in the alert.
    await ctx.deps.network.adjustmentEnded(ref, "refused");
    const short = ctx.t("downline-adjust-short", { available: rupiah(adjusted.available, ctx.lang) });
    await ctx.answerCallbackQuery({ text: short, show_alert: true });
    return void (await ctx.editMessageText(short).catch(() => undefined));
  }
  await ctx.deps.network.adjustmentEnded(ref, "done");
  await ctx.answerCallbackQuery({ text: ctx.t("downline-adjust-done") });
  await ctx.editMessageReplyMarkup().catch(() => undefined);
  if (adjusted.kind === "repeated") return;
  await audit(ctx, "wallet_adjusted", undefined, { chat: taken.chat, amount: signed, reason });
  await announceSecurity(ctx, "pin-told-wallet", { amount: rupiah(signed, ctx.lang) });
  const wallet = await ctx.deps.wallets.view(taken.chat);
  await tell(ctx, taken.chat, signed > 0 ? "wallet-credited-you" : "wallet-debited-you", {
    amount: rupiah(amount, await langOf(ctx, taken.chat)),
    reason: html(reason),
    available: rupiah(wallet.available, await langOf(ctx, taken.chat)),
  });
  await showCard(ctx, taken.chat);
}));

onCallback(composer, cb.downlineAdjustNo, async (ctx, { ref }) => {
  const cancelled = await ctx.deps.network.cancelAdjustment(ctx.chat!.id, ref);
  if (!cancelled) return void (await ctx.answerCallbackQuery({ text: ctx.t("confirm-already") }));
  await ctx.answerCallbackQuery();
  const member = await ctx.deps.network.member(ctx.chat!.id, cancelled.chat);
  await ctx.editMessageText(ctx.t("downline-adjust-cancelled", { name: html(member?.name ?? "") })).catch(() => undefined);
});

/** A wallet's figures as the texts name them. */
function walletVars(ctx: BaseContext, w: { balance: number; held: number; available: number }): Record<string, string> {
  return { balance: rupiah(w.balance, ctx.lang), held: rupiah(w.held, ctx.lang), available: rupiah(Math.max(0, w.available), ctx.lang) };
}

// ---- the downline's own ------------------------------------------------------------------------

/** A downline's /saldo: its wallet, never the owner's balance. */
composer.command(commands.saldo, async (ctx, next) => {
  const role = ctx.role;
  if (role.kind !== "downline") return next();
  const [wallet, levels] = await Promise.all([ctx.deps.wallets.view(ctx.chat.id), ctx.deps.network.levels(role.owner)]);
  await ctx.reply(
    ctx.t("wallet-show", {
      balance: rupiah(wallet.balance, ctx.lang),
      held: rupiah(wallet.held, ctx.lang),
      available: rupiah(wallet.available, ctx.lang),
      level: html(levels[role.level]?.name ?? ""),
    }),
  );
});

function entryLine(ctx: BaseContext, e: WalletEntry): string {
  const sign = e.amount > 0 ? "+" : "−";
  const what = ctx.t(`wallet-entry-${e.kind}`);
  const note = e.reason ? ` · ${html(e.reason)}` : e.txRef ? ` · <code>${html(e.txRef)}</code>` : "";
  return ctx.t("wallet-entry", { at: wibTime(e.at, ctx.lang), sign, amount: rupiah(Math.abs(e.amount), ctx.lang), what, note, balance: rupiah(e.balance, ctx.lang) });
}

async function showEntries(ctx: BotContext, beforeSeq?: number): Promise<void> {
  if (ctx.role.kind !== "downline") return void (await ctx.reply(ctx.t("wallet-only-downlines")));
  const page = await ctx.deps.wallets.entries(ctx.chat!.id, { limit: 10, ...(beforeSeq !== undefined ? { beforeSeq } : {}) });
  if (page.length === 0) return void (await ctx.reply(ctx.t(beforeSeq === undefined ? "wallet-no-entries" : "wallet-no-more")));
  const last = page[page.length - 1]!;
  const text = `${ctx.t("wallet-entries-title")}\n\n${page.map((e) => entryLine(ctx, e)).join("\n")}`;
  await ctx.reply(text, { reply_markup: walletMoreKeyboard(ctx, last.seq > 1 ? last.seq : undefined) });
}

/** The whole statement, oldest first, as a CSV file. */
async function sendEntriesCsv(ctx: BotContext): Promise<void> {
  if (ctx.role.kind !== "downline") return void (await ctx.answerCallbackQuery({ text: ctx.t("wallet-only-downlines"), show_alert: true }));
  const me = ctx.chat!.id;
  const entries: WalletEntry[] = [];
  for (let beforeSeq: number | undefined; ; ) {
    const page = await ctx.deps.wallets.entries(me, { limit: 500, ...(beforeSeq !== undefined ? { beforeSeq } : {}) });
    entries.push(...page);
    const last = page.at(-1);
    if (!last || last.seq <= 1) break;
    beforeSeq = last.seq;
  }
  if (entries.length === 0) return void (await ctx.answerCallbackQuery({ text: ctx.t("wallet-no-entries") }));
  await ctx.answerCallbackQuery();
  entries.reverse();
  const file = new InputFile(walletCsv(ctx.translate, ctx.lang, entries), `${ctx.t("file-wallet")}-${wibDay(ctx.deps.clock.now())}.csv`);
  await ctx.replyWithDocument(file, { caption: ctx.t("wallet-csv-caption", { count: entries.length }) });
}

composer.command(commands.mutasi, (ctx) => showEntries(ctx));
onCallback(composer, cb.walletMore, async (ctx, { seq }) => {
  await ctx.answerCallbackQuery();
  await showEntries(ctx, seq);
});
onCallback(composer, cb.walletCsv, (ctx) => sendEntriesCsv(ctx));

export const downlineJoinModule: FeatureModule = {
  name: "downline join",
  stage: "beforeKey",
  composer: joinComposer,
  shares: { commands: ["start"] },
};

export const downlineModule: FeatureModule = {
  name: "downline",
  composer,
  commands: { downline: "owner", mutasi: "anyone" },
  buttons: {
    downlineInvite: "cashier",
    downlineOpen: "cashier",
    downlinePage: "owner",
    downlineLevel: "owner",
    downlineSuspend: "cashier",
    downlineRemove: "cashier",
    downlineAdjust: "owner",
    downlineAdjustYes: "owner",
    downlineAdjustNo: "owner",
    downlineMayInvite: "owner",
    downlinePinReset: "cashier",
    downlineH2h: "owner",
    walletMore: "anyone",
    walletCsv: "anyone",
  },
  shares: { commands: ["saldo"] },
};
