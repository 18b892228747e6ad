/**
 * A downline's payout request as its owner meets it (docs/wallets.md "Money out"): one message with one
 * button that opens the ordinary transfer confirm screen for the held draft (the owner's own fee and
 * Confirm, the create with the owner's key), and one that declines it (the cancel releases the hold).
 */
import { isPayout, payoutExpired } from "../../domain/payouts.js";
import { html, rupiah } from "../../render/format.js";
import { DEFAULT_LANG } from "../../render/i18n.js";
import { detailOf, type TxRecord } from "../../store/index.js";
import type { BaseContext } from "../context.js";
import { payoutRequestKeyboard } from "../keyboards/payout.js";
import { showConfirm } from "./confirm.js";
import { transferDetail, transferKind } from "./transfer.js";

/** Sends the owner the request with its two buttons. */
export async function offerToOwner(ctx: BaseContext, tx: TxRecord): Promise<void> {
  const owner = tx.chatId;
  const lang = (await ctx.deps.settings.language(owner)) ?? DEFAULT_LANG;
  const t = (key: string, vars?: Record<string, string | number>) => ctx.translate(lang, key, vars);
  const d = transferDetail(tx);
  const text = t("payout-owner-request", {
    name: html(detailOf(tx, "transfer").payoutName ?? ""),
    amount: rupiah(tx.amount, lang),
    bank: t(d.bankType === "ewallet" ? "transfer-dest-ewallet" : "transfer-dest-bank", { name: html(tx.title ?? tx.code ?? "") }),
    number: html(tx.target ?? ""),
    holder: html(d.holderName || "-"),
  });
  await ctx.api
    .sendMessage(owner, text, { reply_markup: payoutRequestKeyboard({ t }, tx.refId) })
    .catch((err: unknown) => ctx.deps.logger.warn({ err, chatId: owner, refId: tx.refId }, "payout request not delivered to the owner"));
}

/**
 * The owner's payout draft a button names, or undefined (the button answered): gone, not the owner's,
 * already confirmed or ended, or left too long (then cancelled, the downline told).
 */
export async function openPayout(ctx: BaseContext, refId: string): Promise<TxRecord | undefined> {
  const tx = await ctx.deps.ledger.get(refId);
  if (!tx || !isPayout(tx) || tx.chatId !== ctx.chat?.id) {
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    return undefined;
  }
  if (payoutExpired(tx, ctx.deps.clock.now())) await ctx.deps.payouts.expire(tx);
  const now = await ctx.deps.ledger.get(refId);
  if (now?.status !== "draft") {
    await ctx.answerCallbackQuery({ text: ctx.t(now?.status === "cancel" ? "payout-gone" : "confirm-already"), show_alert: true });
    await ctx.editMessageReplyMarkup().catch(() => undefined);
    return undefined;
  }
  return now;
}

/** The ordinary transfer confirm screen for the request (its fee, the owner's balance, Confirm). */
export async function showPayoutConfirm(ctx: BaseContext, tx: TxRecord): Promise<void> {
  await ctx.answerCallbackQuery();
  await showConfirm(ctx, transferKind, tx);
}
