/**
 * A downline's payout request as its owner meets it (docs/wallets.md "Money out"): one message with one
 * button that opens the ordinary transfer confirm screen for the held draft (the owner's own fee and
 * Confirm, the create with the owner's key), and one that declines it (the cancel releases the hold).
 */
import type { Api, InlineKeyboard } from "grammy";
import type { ChatSettings } from "../../domain/chatSettings.js";
import { isPayout, payoutExpired } from "../../domain/payouts.js";
import type { Logger } from "../../logging/logger.js";
import { deliver } from "../../telegram/delivery.js";
import type { Pacer } from "../../telegram/pacer.js";
import { html, rupiah } from "../../render/format.js";
import { DEFAULT_LANG, type Translate } from "../../render/i18n.js";
import { detailOf, type TxRecord } from "../../store/index.js";
import type { BaseContext } from "../context.js";
import { payoutRequestKeyboard } from "../keyboards/payout.js";
import { showConfirm } from "./confirm.js";
import { transferDetail, transferKind } from "./transfer.js";

/** What the owner of `tx` reads of a payout request, in its language, with its two buttons. */
async function payoutOffer(settings: ChatSettings, translate: Translate, tx: Readonly<TxRecord>): Promise<{ text: string; markup: InlineKeyboard }> {
  const lang = (await settings.language(tx.chatId)) ?? DEFAULT_LANG;
  const t = (key: string, vars?: Record<string, string | number>) => translate(lang, key, vars);
  const d = transferDetail(tx as TxRecord);
  const text = t("payout-owner-request", {
    name: html(detailOf(tx, "transfer").payoutName ?? ""),
    amount: rupiah(tx.amount, lang),
    bank: t(d.bankType === "ewallet" ? "transfer-dest-ewallet" : "transfer-dest-bank", { name: html(tx.title ?? tx.code ?? "") }),
    number: html(tx.target ?? ""),
    holder: html(d.holderName || "-"),
  });
  // Made by the downline's own system (docs/h2h.md "Transfers"): said, with its reference.
  const via = tx.clientRef === undefined ? "" : `\n${t("payout-owner-via-h2h", { ref: html(tx.clientRef) })}`;
  return { text: text + via, markup: payoutRequestKeyboard({ t }, tx.refId) };
}

export interface PayoutOfferDeps {
  api: Api;
  pacer?: Pacer | undefined;
  settings: ChatSettings;
  translate: Translate;
  logger: Logger;
}

/**
 * Sends the owner the request with its two buttons (app.ts hands it to jobs/payouts.ts, which /tarik and
 * H2H's transfer/create ask through). Not sent: logged and false; the leader's sweep tries again.
 */
export function payoutOfferSender(deps: PayoutOfferDeps): (tx: Readonly<TxRecord>) => Promise<boolean> {
  return async (tx) => {
    const { text, markup } = await payoutOffer(deps.settings, deps.translate, tx);
    const sent = await deliver(() => deps.api.sendMessage(tx.chatId, text, { reply_markup: markup }), { pacer: deps.pacer });
    if (sent.outcome !== "sent") deps.logger.warn({ chatId: tx.chatId, refId: tx.refId, outcome: sent.outcome }, "payout request not delivered to the owner; sent again later");
    return sent.outcome === "sent";
  };
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
