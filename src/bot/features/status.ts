/**
 * Manual status checks: `/status ID` (our reference id or the provider's id, any case),
 * `/status` alone (the chat's open transactions as buttons), menu `status`, and the `st:<ref>`
 * "check status" button under pending messages. A check asks the status watcher to look now
 * (`checkNow`) and shows the receipt, with a refresh button while it is open.
 *
 * Only the chat's own transactions are found; another chat's id reads as "not found". When
 * this check is the one that sees a change, its answer is the announcement: the transaction's
 * own message (e.g. the QRIS photo) is updated and the watcher will not announce it again.
 *
 * A deposit's own message (payment instructions) is never replaced by a check: while unpaid the
 * payer still needs it, so the button answers with a toast; a change is shown there as the
 * watcher shows it and the receipt comes as a new message. A paid deposit waiting for settlement
 * offers the instant release wherever it is shown; those messages are remembered (`offers`) so
 * the release can update them.
 */
import { Composer, type InlineKeyboard } from "grammy";
import { finalStatusKeyboard, openStatusKeyboard, statusListKeyboard } from "../keyboards/status.js";
import type { Ledger } from "../../domain/ledger.js";
import { OPEN_STATUSES, type TxRecord } from "../../store/index.js";
import type { Lookup } from "../../domain/refresh.js";
import { cb, onCallback } from "../buttons.js";
import type { BaseContext, BotContext } from "../context.js";
import { html } from "../../render/format.js";
import { findKeys } from "../../domain/keyShape.js";
import { notLinkedText, requireKey } from "../guards.js";
import { receiptText, statusLabel } from "../../render/receipt.js";
import type { FeatureModule } from "../module.js";
import { editOrReply, moneyText } from "../replies.js";
import { txButtonLabel } from "./history.js";
import { releasable, rememberReleaseOffer } from "../../domain/depositClaims.js";
import { commands } from "../../telegram/commands.js";
import { saleActionRows } from "../../render/saleActions.js";
import { ledgerChat, seesTx, shownTx } from "../middlewares/roleGate.js";
import { creditedToWallet } from "../../domain/staff.js";
import { whileAskingProvider } from "../slowAnswer.js";

const OPEN_LIST_MAX = 10;

/** Every transaction of the chat whose reference or provider id equals `id` (ignoring case). */
export async function findOwnTxs(ledger: Ledger, chatId: number, id: string): Promise<TxRecord[]> {
  const found = new Map<string, TxRecord>();
  const direct = await ledger.find(chatId, id);
  if (direct) found.set(direct.refId, direct);
  // Provider ids of different kinds may collide, and people type ids in any case.
  const wanted = id.toLowerCase();
  for (const tx of await ledger.all(chatId)) {
    if (tx.refId.toLowerCase() === wanted || tx.upstreamId?.toLowerCase() === wanted) found.set(tx.refId, tx);
  }
  return [...found.values()];
}

/** The chat's open transactions, newest first. */
async function openTxsOf(ledger: Ledger, chatId: number): Promise<TxRecord[]> {
  return (await ledger.all(chatId)).filter((tx) => OPEN_STATUSES.has(tx.status));
}

interface Checked {
  tx: Readonly<TxRecord>;
  lookup?: Lookup;
}

/**
 * Asks the watcher to check an open transaction now and shows its answer; final ones are shown as
 * stored. The answer is the announcement: a pressed text message is rewritten with it below, and
 * any other message of the transaction (a QRIS photo) is updated by the watcher.
 */
async function check(ctx: BaseContext, tx: Readonly<TxRecord>, keepPressed = false): Promise<Checked> {
  if (!OPEN_STATUSES.has(tx.status)) return { tx };
  const pressed = ctx.callbackQuery?.message;
  const rewritten = !keepPressed && pressed !== undefined && "text" in pressed && pressed.text !== undefined;
  const outcome = await whileAskingProvider(ctx, () =>
    ctx.deps.statusChecker.checkNow(tx.refId, {
      shownByCaller: true,
      ...(rewritten ? { pressedMessageId: pressed.message_id } : {}),
    }),
  );
  return outcome ?? { tx };
}

function statusView(ctx: BaseContext, { tx, lookup }: Checked): { text: string; markup?: InlineKeyboard } {
  const notes: string[] = [];
  const open = OPEN_STATUSES.has(tx.status);
  if (lookup?.kind === "error") notes.push(ctx.t("check-upstream-error"));
  if (open && lookup?.kind === "not-found" && tx.upstreamId === undefined) notes.push(ctx.t("check-not-at-provider", { ref: html(tx.refId) }));
  else if (open && lookup?.kind !== "error") notes.push(ctx.t("check-still-open"));
  if (open && tx.watch?.gaveUp) notes.push(ctx.t("check-gave-up-note"));
  const release = releasable(tx);
  if (release) notes.push(ctx.t("deposit-processing-hint"));
  const text = moneyText(ctx, [receiptText(ctx.translate, ctx.lang, tx), ...notes].join("\n\n"));
  if (!open) {
    // The same actions as the success notice (receipt, buy again, copy the SN...).
    const markup = finalStatusKeyboard(saleActionRows(ctx.translate, ctx.lang, tx as TxRecord));
    return markup ? { text, markup } : { text };
  }
  return { text, markup: openStatusKeyboard(ctx, tx.refId, Boolean(release)) };
}

async function replyStatus(ctx: BotContext, tx: TxRecord): Promise<void> {
  const checked = await check(ctx, tx);
  const view = statusView(ctx, { ...checked, tx: await shownTx(ctx, checked.tx) });
  const sent = await ctx.reply(view.text, { ...(view.markup ? { reply_markup: view.markup } : {}) });
  await rememberReleaseOffer(ctx.deps.ledger, checked.tx, sent.message_id);
}

async function listOpen(ctx: BotContext): Promise<void> {
  if (!(await requireKey(ctx))) return;
  const open = (await openTxsOf(ctx.deps.ledger, ledgerChat(ctx))).filter((tx) => seesTx(ctx, tx) && !(ctx.role.kind === "downline" && creditedToWallet(tx)));
  if (open.length === 0) {
    await ctx.reply(ctx.t("check-open-none"));
    return;
  }
  const kb = statusListKeyboard(open.slice(0, OPEN_LIST_MAX), (tx) => txButtonLabel(ctx, tx));
  const more = open.length - OPEN_LIST_MAX;
  const text = more > 0 ? `${ctx.t("check-open-title")}\n${ctx.t("check-open-more", { count: more })}` : ctx.t("check-open-title");
  await ctx.reply(text, { reply_markup: kb });
}

const composer = new Composer<BotContext>();

composer.command(commands.status, async (ctx) => {
  const id = ctx.match.trim().split(/\s+/)[0] ?? "";
  if (id === "") return listOpen(ctx);
  if (!(await requireKey(ctx))) return;
  const matches = (await findOwnTxs(ctx.deps.ledger, ledgerChat(ctx), id)).filter((tx) => seesTx(ctx, tx));
  if (matches.length === 0) {
    await ctx.reply(ctx.t("check-not-found", { id: html((findKeys(id).length > 0 ? "•••" : id).slice(0, 64)) }));
    return;
  }
  if (matches.length > 1) {
    const kb = statusListKeyboard(matches.slice(0, OPEN_LIST_MAX), (tx) => txButtonLabel(ctx, tx));
    await ctx.reply(ctx.t("check-choose", { id: html(id) }), { reply_markup: kb });
    return;
  }
  await replyStatus(ctx, matches[0]!);
});

onCallback(composer, cb.status, async (ctx, { refId }) => {
  const tx = await ctx.deps.ledger.get(refId);
  // Another chat's reference is answered like an unknown one: nothing about it is revealed.
  if (!tx || !seesTx(ctx, tx)) {
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    return;
  }
  if (!await ctx.deps.providerLink.keyOf(tx.chatId)) {
    await ctx.answerCallbackQuery({ text: notLinkedText(ctx), show_alert: true });
    return;
  }
  const message = ctx.callbackQuery.message;
  // A deposit's own message keeps its payment instructions (and Cancel): never rewritten here.
  const instructions = tx.kind === "deposit" && message !== undefined && message.message_id === tx.messageId;
  const checked = await check(ctx, tx, instructions);
  const seen = await shownTx(ctx, checked.tx);
  await ctx.answerCallbackQuery({ text: ctx.t("check-callback-status", { status: statusLabel(ctx.translate, ctx.lang, seen.status, seen.kind) }) });
  if (instructions && checked.tx.status === "pending") return; // unpaid: the toast is the answer
  const view = statusView(ctx, { ...checked, tx: seen });
  // A text message (a receipt, an earlier check) is updated in place; a photo gets a new message.
  const shown = await editOrReply(ctx, view.text, { ...(view.markup ? { reply_markup: view.markup } : {}) }, !instructions);
  await rememberReleaseOffer(ctx.deps.ledger, checked.tx, shown);
});

export const statusModule: FeatureModule = {
  name: "status",
  composer,
  commands: { status: "cashier" },
  buttons: {
    status: "cashier",
  },
  menu: { status: listOpen },
};
