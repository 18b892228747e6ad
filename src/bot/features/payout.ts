/**
 * A downline's payout (/tarik, /withdraw; docs/wallets.md "Money out"): the downline's flow
 * (flows/payout.ts), and the owner's two buttons under the request: open the ordinary transfer confirm
 * screen for it, or decline it (the draft cancelled, the hold released, the downline told).
 */
import { Composer } from "grammy";
import { html, rupiah } from "../../render/format.js";
import { commands } from "../../telegram/commands.js";
import { cb, onCallback } from "../buttons.js";
import type { BotContext } from "../context.js";
import { isPrivate, replyPrivateOnly } from "../guards.js";
import type { FeatureModule } from "../module.js";
import { PAYOUT_FLOW, payoutFlow } from "../flows/payout.js";
import { openPayout, showPayoutConfirm } from "../money/payoutRequest.js";
import { detailOf } from "../../store/index.js";
import { withPinCommand } from "../pin/gate.js";
import { MIN_TRANSFER } from "../../domain/transferDrafts.js";

const composer = new Composer<BotContext>();

// A downline with a PIN of its own enters it before the request is made (its money leaves its wallet).
const startPayout = withPinCommand(
  "tarik",
  (ctx) => (ctx.role.kind === "downline" && !ctx.role.suspended && isPrivate(ctx) ? { what: "pin-for-payout", moneyOut: true } : undefined),
  async (ctx) => {
    const role = ctx.role;
    if (role.kind !== "downline") return void (await ctx.reply(ctx.t("payout-only-downlines")));
    if (!isPrivate(ctx)) return void (await replyPrivateOnly(ctx));
    if (role.suspended) return void (await ctx.reply(ctx.t("wallet-suspended")));
    await ctx.conversation.enter(PAYOUT_FLOW);
  },
);

composer.command(commands.tarik, async (ctx) => {
  const role = ctx.role;
  // Nothing to take out: said before the PIN and the bank list, which would lead nowhere.
  if (role.kind === "downline" && !role.suspended && isPrivate(ctx)) {
    const { available } = await ctx.deps.wallets.view(ctx.chat.id);
    if (available < MIN_TRANSFER) return void (await ctx.reply(ctx.t("payout-nothing", { available: rupiah(available, ctx.lang), min: rupiah(MIN_TRANSFER, ctx.lang) })));
  }
  return startPayout(ctx, "");
});

onCallback(composer, cb.payoutOpen, async (ctx, { refId }) => {
  const tx = await openPayout(ctx, refId);
  if (tx) await showPayoutConfirm(ctx, tx);
});

onCallback(composer, cb.payoutDecline, async (ctx, { refId }) => {
  const tx = await openPayout(ctx, refId);
  if (!tx) return;
  // Of a double tap one cancels; the cancel releases the hold in its own write.
  const cancelled = await ctx.deps.ledger.cancelDraft(refId, "payout declined");
  if (!cancelled) return void (await ctx.answerCallbackQuery({ text: ctx.t("payout-gone") }));
  await ctx.deps.ledger.flushTx(refId);
  await ctx.answerCallbackQuery();
  await ctx.editMessageReplyMarkup().catch(() => undefined);
  await ctx.reply(ctx.t("payout-declined-owner", { amount: rupiah(tx.amount, ctx.lang), name: html(detailOf(tx, "transfer").payoutName ?? "") }));
  await ctx.deps.payouts.declined(cancelled);
});

export const payoutModule: FeatureModule = {
  name: "payout",
  composer,
  commands: { tarik: "anyone" },
  buttons: { payoutOpen: "owner", payoutDecline: "owner" },
  flows: [{ id: PAYOUT_FLOW, builder: payoutFlow }],
};
