/**
 * Deposits (/deposit): the guided flow, cancelling a pending deposit (`dp:x:<ref>`) and the instant
 * release of a paid (processing) one: preview the handling fee (`dp:i:<ref>`), then release once
 * (`dp:ic:<ref>`; `dp:in:<ref>` = not now). Buttons live outside the conversation so they work on
 * old messages and after a restart.
 */
import { Composer } from "grammy";
import type { TxPatch } from "../../store/index.js";
import { detailOf, type DepositDetail, type TxRecord, type TxStatus } from "../../store/index.js";
import { UpstreamError, UpstreamRejected } from "../../upstream/errors.js";
import { DEFAULT_DEPOSIT_LATE_MS, refreshTx } from "../../domain/refresh.js";
import { cb, onCallback } from "../buttons.js";
import type { BaseContext, BotContext } from "../context.js";
import { html, rupiah } from "../../render/format.js";
import { requireMoneyKey, requireStorage } from "../guards.js";
import type { FeatureModule } from "../module.js";
import { claimCancel, dropCancelClaim, rememberReleaseOffer } from "../../domain/depositClaims.js";
import { depositActionsKeyboard, depositCancelAskKeyboard, depositReleaseAskKeyboard } from "../keyboards/deposit.js";
import { depositKind } from "../money/deposit.js";
import { receiptText, STATUS_ICON, statusLabel } from "../../render/receipt.js";
import { moneyText, upstreamErrorText } from "../replies.js";
import { DEPOSIT_FLOW, depositFlow } from "../flows/deposit.js";
import { qrCardMedia } from "../../render/voidImage.js";
import { commands } from "../../telegram/commands.js";
import { whileAskingProvider } from "../slowAnswer.js";
import { logAct } from "../money/auditActs.js";
import { actsOnTx } from "../middlewares/roleGate.js";

async function startDeposit(ctx: BotContext): Promise<void> {
  if (!(await requireMoneyKey(ctx))) return;
  await ctx.conversation.enter(DEPOSIT_FLOW);
}

/** The deposit a button refers to (its own), with its ledger's key; answers the button itself when there is none. */
async function depositOfButton(ctx: BotContext, refId: string): Promise<{ tx: TxRecord; apiKey: string } | undefined> {
  const tx = await ctx.deps.ledger.get(refId);
  // A downline's own deposit (money into its wallet) is made with its owner's key.
  if (!tx || tx.kind !== "deposit" || !actsOnTx(ctx, tx)) {
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    return undefined;
  }
  const apiKey = await ctx.deps.providerLink.keyOf(tx.chatId);
  if (!apiKey) {
    await ctx.answerCallbackQuery({ text: ctx.t("not-linked"), show_alert: true });
    return undefined;
  }
  return { tx, apiKey };
}

/**
 * Asks the provider for the deposit's status and records it the way the status watcher does (a
 * QRIS the provider calls expired stays open for a late payment). Returns the record and the
 * status to show (the provider's own word). Throws the UpstreamError when there was no answer.
 */
async function refreshDeposit(ctx: BaseContext, apiKey: string, tx: TxRecord): Promise<{ tx: TxRecord; shown: TxStatus }> {
  const r = await refreshTx(ctx.deps, apiKey, tx, { depositLateMs: DEFAULT_DEPOSIT_LATE_MS });
  if (r.lookup.kind === "error") throw r.lookup.error;
  const said = r.lookup.kind === "found" ? r.lookup.providerStatus : undefined;
  return { tx: r.tx, shown: said !== undefined && said in STATUS_ICON ? (said as TxStatus) : r.tx.status };
}

/** Shows the fresh state's buttons (e.g. "release now" once paid) on the pressed message. */
async function refreshPressedButtons(ctx: BotContext, tx: TxRecord): Promise<void> {
  await ctx.editMessageReplyMarkup({ reply_markup: depositActionsKeyboard(ctx, tx) }).catch(() => undefined);
}

/**
 * After a release: the deposit's own message and the status messages that offered the release
 * show its state (no "H+1" left, no live release button) without telling the news again: the
 * answer replaces the pressed question.
 */
async function updateAfterRelease(ctx: BotContext, tx: TxRecord): Promise<void> {
  const pressed = ctx.callbackQuery?.message?.message_id;
  const d = detailOf(tx, "deposit");
  const markup = depositActionsKeyboard(ctx, tx);
  const other = markup ? { reply_markup: markup } : {};
  const receipt = receiptText(ctx.translate, ctx.lang, tx);
  const head =
    tx.status === "success"
      ? ctx.t("watch-caption-success")
      : ctx.t("deposit-release-requested", { status: statusLabel(ctx.translate, ctx.lang, tx.status, "deposit") });
  const text = moneyText(ctx, `${head}\n\n${receipt}`);
  const ignore = () => undefined;
  if (tx.messageId !== undefined && tx.messageId !== pressed) {
    // A released deposit is paid: its photo shows the paid card, never the code (nobody pays twice).
    if (d.photo) await ctx.api.editMessageMedia(tx.chatId, tx.messageId, await qrCardMedia(ctx.translate, ctx.lang, "paid", text), other).catch(ignore);
    else await ctx.api.editMessageText(tx.chatId, tx.messageId, text, other).catch(ignore);
  }
  for (const id of d.offers ?? []) {
    if (id !== pressed && id !== tx.messageId) await ctx.api.editMessageText(tx.chatId, id, text, other).catch(ignore);
  }
}

async function replyUpstreamError(ctx: BotContext, err: unknown): Promise<void> {
  if (!(err instanceof UpstreamError)) throw err;
  await ctx.reply(upstreamErrorText(ctx, err));
}

const composer = new Composer<BotContext>();
composer.command(commands.deposit, startDeposit);

// Cancel, step 1: ask first (a cancelled code must never be paid, so no cancel by a stray tap).
onCallback(composer, cb.depositCancel, async (ctx, { refId }) => {
  const found = await depositOfButton(ctx, refId);
  if (!found) return;
  if (!found.tx.upstreamId) {
    await ctx.answerCallbackQuery({ text: ctx.t("deposit-cancel-not-yet"), show_alert: true });
    return;
  }
  await ctx.answerCallbackQuery();
  await ctx.reply(ctx.t("deposit-cancel-ask", { ref: html(refId) }), {
    reply_markup: depositCancelAskKeyboard(ctx, refId),
  });
});

onCallback(composer, cb.depositCancelNo, async (ctx, { refId }) => {
  await ctx.answerCallbackQuery();
  await ctx.editMessageText(ctx.t("deposit-cancel-kept", { ref: html(refId) })).catch(() => undefined);
});

// Cancel, step 2: cancel at the provider; once it was paid (or ended) say why not.
onCallback(composer, cb.depositCancelYes, async (ctx, { refId }) => {
  const found = await depositOfButton(ctx, refId);
  if (!found) return;
  const { tx, apiKey } = found;
  if (!tx.upstreamId) {
    await ctx.answerCallbackQuery({ text: ctx.t("deposit-cancel-not-yet"), show_alert: true });
    return;
  }
  const upstreamId = tx.upstreamId;
  const claim = tx.status === "pending" ? await claimCancel(ctx.deps.ledger, ctx.deps.clock.now(), refId) : undefined;
  if (claim === "taken") {
    // Another tap (here or on another process) is cancelling it and will say how it went.
    await ctx.answerCallbackQuery();
    return;
  }
  await ctx.answerCallbackQuery();
  // The question is answered: its buttons go whatever the provider says.
  await ctx.editMessageReplyMarkup().catch(() => undefined);
  try {
    await whileAskingProvider(ctx, () => cancelDeposit(ctx, claim ?? tx, apiKey, upstreamId, claim !== undefined));
  } finally {
    if (claim !== undefined) await dropCancelClaim(ctx.deps.ledger, claim);
  }
});

/** `claimed`: this tap claimed the pending deposit and cancels it at the provider; else its status is told. */
async function cancelDeposit(ctx: BotContext, tx: Readonly<TxRecord>, apiKey: string, upstreamId: string, claimed: boolean): Promise<void> {
  try {
    if (claimed) {
      try {
        const r = await ctx.deps.upstream.cancelDeposit(apiKey, upstreamId);
        if (r.status === "cancel") {
          // Compare-and-set: a payment the watcher recorded meanwhile is never overwritten.
          const cancelled = await ctx.deps.ledger.transition(tx.refId, ["pending"], { status: "cancel" });
          await ctx.deps.ledger.flush();
          if (cancelled) {
            await logAct(ctx, "deposit_cancelled", cancelled);
            const text = moneyText(ctx, `${ctx.t("deposit-cancelled")}\n\n${receiptText(ctx.translate, ctx.lang, cancelled)}`);
            await showCancelled(ctx, cancelled, text);
            return;
          }
        }
      } catch (err) {
        // A refusal means it is no longer pending (paid, expired...): the status below says which.
        if (!(err instanceof UpstreamRejected)) throw err;
      }
    }
    const fresh = await refreshDeposit(ctx, apiKey, tx);
    if (tx.messageId !== undefined) {
      await ctx.api.editMessageReplyMarkup(tx.chatId, tx.messageId, { reply_markup: depositActionsKeyboard(ctx, fresh.tx) }).catch(() => undefined);
    }
    const hint = fresh.tx.status === "processing" ? `\n${ctx.t("deposit-processing-hint")}` : "";
    await ctx.reply(
      moneyText(ctx, `${ctx.t("deposit-cancel-refused", { ref: html(tx.refId), status: statusLabel(ctx.translate, ctx.lang, fresh.shown, "deposit") })}${hint}`),
    );
  } catch (err) {
    await replyUpstreamError(ctx, err);
  }
}

/**
 * The deposit's own message shows the cancellation without buttons; a QRIS photo becomes a grey
 * void image, so the old code cannot be scanned and paid. The question says it too.
 */
async function showCancelled(ctx: BotContext, tx: TxRecord, text: string): Promise<void> {
  const ignore = () => undefined;
  if (tx.messageId !== undefined) {
    if (detailOf(tx, "deposit").photo) {
      const media = await qrCardMedia(ctx.translate, ctx.lang, "cancel", text);
      await ctx.api.editMessageMedia(tx.chatId, tx.messageId, media).catch(ignore);
    } else {
      await ctx.api.editMessageText(tx.chatId, tx.messageId, text).catch(ignore);
    }
  }
  if (ctx.callbackQuery?.message?.message_id !== tx.messageId) await ctx.editMessageText(ctx.t("deposit-cancelled")).catch(ignore);
}

// Instant release, step 1: preview the handling fee and ask to confirm.
onCallback(composer, cb.depositRelease, async (ctx, { refId }) => {
  const found = await depositOfButton(ctx, refId);
  if (!found) return;
  if (!(await requireStorage(ctx))) return;
  const { apiKey, tx } = found;
  // A deposit into a downline's wallet is credited once paid: no release fee is spent on it.
  if (tx.wallet) return void (await ctx.answerCallbackQuery({ text: ctx.t("button-expired") }));
  if (detailOf(tx, "deposit").instant !== undefined) {
    await ctx.answerCallbackQuery({ text: ctx.t("deposit-release-already"), show_alert: true });
    return;
  }
  await ctx.answerCallbackQuery();
  // A notice or status message with this button: updated after the release.
  const pressed = ctx.callbackQuery.message?.message_id;
  if (pressed !== undefined) await rememberReleaseOffer(ctx.deps.ledger, tx, pressed);
  await whileAskingProvider(ctx, () => offerRelease(ctx, apiKey, tx));
});

/** Shows the provider's preview of the release's fee with the buttons to release, or why not now. */
async function offerRelease(ctx: BotContext, apiKey: string, found: TxRecord): Promise<void> {
  let tx = found;
  try {
    let shown = tx.status;
    if (tx.status !== "processing") ({ tx, shown } = await refreshDeposit(ctx, apiKey, tx));
    if (tx.status !== "processing" || !tx.upstreamId) {
      await refreshPressedButtons(ctx, tx);
      await ctx.reply(ctx.t("deposit-release-unavailable", { status: statusLabel(ctx.translate, ctx.lang, shown, "deposit") }));
      return;
    }
    const preview = await ctx.deps.upstream.instantDeposit(apiKey, { id: tx.upstreamId, action: false });
    const text = ctx.t("deposit-release-preview", {
      ref: html(tx.refId),
      amount: rupiah(preview.amount || tx.amount, ctx.lang),
      handling: rupiah(preview.handlingFee, ctx.lang),
      total: rupiah(preview.totalFee, ctx.lang),
      received: rupiah(preview.received, ctx.lang),
    });
    await ctx.reply(moneyText(ctx, text), {
      reply_markup: depositReleaseAskKeyboard(ctx, tx.refId),
    });
  } catch (err) {
    await replyUpstreamError(ctx, err);
  }
}

// Instant release, step 2: release exactly once, whatever the number of taps or re-delivered updates.
/**
 * Releases being decided in this process. The store is read asynchronously, so a second tap could
 * read the record between the first one's read and its "sending" mark: one tap per deposit at a time.
 */
const releasing = new Set<string>();

onCallback(composer, cb.depositReleaseConfirm, async (ctx, { refId }) => {
  if (releasing.has(refId)) {
    await ctx.answerCallbackQuery({ text: ctx.t("deposit-release-already"), show_alert: true });
    return;
  }
  releasing.add(refId);
  try {
    await releaseDeposit(ctx, refId);
  } finally {
    releasing.delete(refId);
  }
});

async function releaseDeposit(ctx: BotContext, refId: string): Promise<void> {
  if (!(await requireStorage(ctx))) return;
  const ledger = ctx.deps.ledger;
  const tx = await ledger.get(refId);
  const apiKey = ctx.chat && await ctx.deps.providerLink.keyOf(ctx.chat.id);
  if (!tx || tx.kind !== "deposit" || tx.chatId !== ctx.chat?.id || !apiKey || !tx.upstreamId || tx.wallet) {
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    return;
  }
  if (tx.detail?.instant !== undefined || tx.status !== "processing") {
    await ctx.answerCallbackQuery({ text: ctx.t("deposit-release-already"), show_alert: true });
    return;
  }
  // Compare-and-set in the store: of two taps (on this process or another behind the load
  // balancer) only one marks "sending" and calls the provider; the other is told it was asked.
  const unclaimed = (c: Readonly<TxRecord>) => c.kind === "deposit" && c.detail?.instant === undefined;
  const claimed = await ledger.transition(refId, ["processing"], { detail: { ...tx.detail, instant: "sending" } }, unclaimed);
  if (!claimed) {
    await ctx.answerCallbackQuery({ text: ctx.t("deposit-release-already"), show_alert: true });
    return;
  }
  await ledger.flush();
  await logAct(ctx, "deposit_released", claimed);
  // Past the check-and-set, a Telegram hiccup must not leave the release marked "sending" but never sent.
  await ctx.answerCallbackQuery({ text: ctx.t("confirm-sending") }).catch(() => undefined);
  await ctx.editMessageReplyMarkup().catch(() => undefined);

  // Records this release's outcome only over our own "sending" mark, whatever the status became
  // meanwhile (the watcher): a result recorded otherwise is never overwritten.
  const record = async (patch: TxPatch & { detail?: DepositDetail }, instant: DepositDetail["instant"]): Promise<TxRecord> => {
    for (;;) {
      const latest = (await ledger.get(refId))!;
      if (detailOf(latest, "deposit").instant !== "sending") return latest;
      const ours = (c: Readonly<TxRecord>) => c.kind === "deposit" && c.detail?.instant === "sending";
      const next = { ...patch, detail: { ...detailOf(latest, "deposit"), ...patch.detail, instant } };
      const saved = await ledger.transition(refId, [latest.status], next, ours);
      if (saved) return saved;
    }
  };
  let result: TxRecord;
  try {
    const upstreamId = tx.upstreamId;
    // Money moved onto the balance: the next confirm screen reads it afresh.
    const r = await whileAskingProvider(ctx, () => ctx.deps.upstream.instantDeposit(apiKey, { id: upstreamId, action: true })).finally(() =>
      ctx.deps.lists.forgetProfile(apiKey),
    );
    result = await record(
      { status: r.status, fee: r.totalFee, detail: { credited: r.received, handlingFee: r.handlingFee } },
      "done",
    );
    await ledger.flush();
    ctx.deps.events.emit("created", result);
    const text =
      r.status === "success"
        ? ctx.t("deposit-release-done", { received: rupiah(r.received, ctx.lang), total: rupiah(r.totalFee, ctx.lang) })
        : ctx.t("deposit-release-requested", { status: statusLabel(ctx.translate, ctx.lang, r.status, "deposit") });
    await updateAfterRelease(ctx, result);
    const answer = moneyText(ctx, `${text}\n\n${receiptText(ctx.translate, ctx.lang, result)}`);
    const markup = depositActionsKeyboard(ctx, result);
    // The question becomes its answer; a new message only when it cannot be edited.
    await ctx.editMessageText(answer, markup ? { reply_markup: markup } : {}).catch(() => ctx.reply(answer, { reply_markup: markup }));
  } catch (err) {
    if (err instanceof UpstreamRejected) {
      // Refused: nothing was released, so asking again later is safe.
      await record({}, undefined);
      await ledger.flush();
      await ctx.reply(moneyText(ctx, ctx.t("money-rejected", { message: html(err.providerMessage) })));
      return;
    }
    // Timeout, outage or a bug after sending: it may have been released. Never ask again by itself.
    ctx.deps.logger.warn({ refId, err }, "instant release outcome unknown");
    await record({}, "unknown");
    await ledger.flush();
    if (!(err instanceof UpstreamError)) throw err;
    await ctx.reply(moneyText(ctx, ctx.t("deposit-release-unknown", { ref: html(refId) })));
  }
}

onCallback(composer, cb.depositReleaseLater, async (ctx) => {
  await ctx.answerCallbackQuery();
  await ctx.editMessageReplyMarkup().catch(() => undefined);
});

export const depositModule: FeatureModule = {
  name: "deposit",
  composer,
  commands: { deposit: "owner" },
  buttons: {
    depositCancel: "owner",
    depositCancelYes: "owner",
    depositCancelNo: "owner",
    depositRelease: "owner",
    depositReleaseConfirm: "owner",
    depositReleaseLater: "owner",
  },
  flows: [{ id: DEPOSIT_FLOW, builder: depositFlow }],
  kinds: [depositKind],
  menu: { deposit: startDeposit },
};
