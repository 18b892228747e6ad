/**
 * History (/riwayat, /history, menu `history`): the chat's own transactions, newest first, ten
 * per page (`hp:<page>`), a number button per line for the details (`hd:<ref>`).
 *
 * Not history: drafts that were never confirmed (status `draft`, or `cancel` without a provider
 * id: the confirm screen was cancelled or expired). Everything that was sent to the provider, or
 * may have been, is listed, including unknown outcomes.
 */
import { Composer } from "grammy";
import { historyDetailKeyboard, historyKeyboard } from "../keyboards/history.js";
import type { Ledger } from "../../domain/ledger.js";
import { detailOf, OPEN_STATUSES, type TxKind, type TxRecord } from "../../store/index.js";
import { cb, onCallback } from "../buttons.js";
import type { BaseContext, BotContext } from "../context.js";
import { html, rupiah, wibTime } from "../../render/format.js";
import { isPrivate, replyPrivateOnly } from "../guards.js";
import { receiptText, STATUS_ICON, statusLabel } from "../../render/receipt.js";
import type { FeatureModule } from "../module.js";
import { saleActionRows } from "../../render/saleActions.js";
import { sellingPrice } from "../../domain/sale.js";
import { orderRefOfTx } from "../../domain/shop/orders.js";
import { paginate } from "../paging.js";
import { editOrReply, moneyText } from "../replies.js";
import { commands } from "../../telegram/commands.js";
import { ledgerChat, seesTx, shownTx } from "../middlewares/roleGate.js";

export const HISTORY_PAGE_SIZE = 10;

export const KIND_ICON: Record<TxKind, string> = { prepaid: "📱", postpaid: "🧾", transfer: "💸", deposit: "🏦" };

/** True for records that belong in the history (see the file comment). */
export function isHistory(tx: TxRecord): boolean {
  if (tx.status === "draft") return false;
  return !(tx.status === "cancel" && tx.upstreamId === undefined);
}

/** The chat's history records, newest first. */
export async function historyOf(ledger: Ledger, chatId: number): Promise<TxRecord[]> {
  return (await ledger.all(chatId)).filter(isHistory);
}

/** One short line: kind, what/whom, amount (a sale's: what the customer paid), status, time (HTML). */
export function txLine(ctx: BaseContext, tx: TxRecord, downlines?: ReadonlyMap<number, string>): string {
  // The owner reads a downline's top-up as that downline's (money into its wallet, not the owner's).
  const name = tx.kind === "deposit" && tx.wallet ? downlines?.get(tx.wallet.chat) : undefined;
  const shop = orderRefOfTx(tx.refId) !== undefined ? ` <i>(${ctx.t("shop-sale-mark")})</i>` : name !== undefined ? ` <i>(${ctx.t("wallet-deposit-of", { name: html(name) })})</i>` : "";
  const what = `${tx.title ? html(tx.title) : ctx.t(`kind-${tx.kind}`)}${shop}`;
  const target = tx.target ? ` · <code>${html(tx.target)}</code>` : "";
  return `${KIND_ICON[tx.kind]} <b>${what}</b>${target} · ${rupiah(sellingPrice(tx), ctx.lang)} · ${statusLabel(ctx.translate, ctx.lang, tx.status, tx.kind)} · ${wibTime(tx.createdAt, ctx.lang)}`;
}

/** A button label for a transaction (plain text, kept short). */
export function txButtonLabel(ctx: BaseContext, tx: TxRecord): string {
  const what = tx.title ?? ctx.t(`kind-${tx.kind}`);
  const shop = orderRefOfTx(tx.refId) === undefined ? "" : "🛒 ";
  const label = `${STATUS_ICON[tx.status]} ${KIND_ICON[tx.kind]} ${shop}${what}${tx.target ? ` ${tx.target}` : ""} · ${rupiah(sellingPrice(tx), ctx.lang)}`;
  return label.length > 60 ? `${label.slice(0, 59)}…` : label;
}

async function showHistory(ctx: BotContext, page = 0, edit = false): Promise<void> {
  if (!ctx.chat) return;
  if (!isPrivate(ctx)) {
    await replyPrivateOnly(ctx);
    return;
  }
  // Staff read their owner's ledger: a cashier its own sales, a shop admin everyone's.
  const list = (await historyOf(ctx.deps.ledger, ledgerChat(ctx))).filter((tx) => seesTx(ctx, tx));
  if (list.length === 0) {
    await ctx.reply(ctx.t("history-empty"));
    return;
  }
  const shown = paginate(list, page, HISTORY_PAGE_SIZE);
  const first = shown.page * HISTORY_PAGE_SIZE;
  const downlines = ctx.role.kind === "owner" && shown.items.some((tx) => tx.wallet) ? new Map((await ctx.deps.network.members(ctx.chat.id)).map((m) => [m.chat, m.name])) : undefined;
  // A downline reads its own lines as its receipts say (its price; a deposit in its wallet is done).
  const items = ctx.role.kind === "downline" ? await Promise.all(shown.items.map((tx) => shownTx(ctx, tx))) : shown.items;
  const lines = items.map((tx, i) => `${first + i + 1}. ${txLine(ctx, tx, downlines)}`);
  const text = `${ctx.t("history-title", { page: shown.page + 1, pages: shown.pages })}\n\n${lines.join("\n")}\n\n${ctx.t("history-tap-hint")}`;

  const kb = historyKeyboard(ctx, shown.items.map((tx) => tx.refId), first, shown);
  await editOrReply(ctx, text, { reply_markup: kb }, edit);
}

/** The details of one transaction: the receipt plus what the list leaves out. */
export function detailText(ctx: BaseContext, tx: TxRecord): string {
  const extra: string[] = [];
  const cost = detailOf(tx, "postpaid").cost;
  // A sale's receipt already names its cost (render/receipt.ts).
  const costShown = tx.sale !== undefined && tx.status !== "failed";
  if (cost !== undefined && !costShown) extra.push(`${ctx.t("history-cost")}: ${rupiah(cost, ctx.lang)}`);
  const credited = detailOf(tx, "deposit").credited;
  if (tx.kind === "deposit" && tx.status === "success" && credited !== undefined) {
    extra.push(`${ctx.t("history-credited")}: ${rupiah(credited, ctx.lang)}`);
  }
  if (tx.updatedAt !== tx.createdAt) extra.push(`${ctx.t("history-updated")}: ${wibTime(tx.updatedAt, ctx.lang)}`);
  const body = [receiptText(ctx.translate, ctx.lang, tx), ...extra].join("\n");
  return moneyText(ctx, `${ctx.t("history-detail-title")}\n\n${body}`);
}

const composer = new Composer<BotContext>();
composer.command(commands.riwayat, (ctx) => showHistory(ctx));

onCallback(composer, cb.historyPage, async (ctx, { page }) => {
  await ctx.answerCallbackQuery();
  await showHistory(ctx, page, true);
});

onCallback(composer, cb.historyDetail, async (ctx, { refId }) => {
  const tx = await ctx.deps.ledger.get(refId);
  // Another chat's reference is answered like an unknown one: nothing about it is revealed.
  if (!tx || !seesTx(ctx, tx) || !isHistory(tx)) {
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    return;
  }
  await ctx.answerCallbackQuery();
  const kb = historyDetailKeyboard(ctx, saleActionRows(ctx.translate, ctx.lang, tx), tx.refId, OPEN_STATUSES.has(tx.status));
  await ctx.reply(detailText(ctx, await shownTx(ctx, tx)), { reply_markup: kb });
});

export const historyModule: FeatureModule = {
  name: "history",
  composer,
  commands: { riwayat: "cashier" },
  buttons: {
    historyPage: "cashier",
    historyDetail: "cashier",
  },
  menu: { history: (ctx) => showHistory(ctx) },
};
