/**
 * The confirm screen shared by every money flow. A flow ends by saving a *draft* (with its reference id)
 * and showing this screen; the Confirm button is an ordinary callback handled here, so it works after a
 * restart. Confirm hands the record to the money engine (src/money/createOnce.ts), which makes the one
 * create exactly once however often it is tapped, and shows the outcome the engine gives back.
 */
import { Composer } from "grammy";
import { buyAgainKeyboard, cancelOnlyKeyboard, confirmKeyboard, lowBalanceKeyboard, rejectedKeyboard, statusKeyboard } from "../keyboards/confirm.js";
import type { NewTx } from "../../store/index.js";
import type { TxRecord, WalletPart } from "../../store/index.js";
import { isLowBalanceRefusal, UpstreamError } from "../../upstream/errors.js";
import { cb, onCallback } from "../buttons.js";
import { notLinkedText, requireStorage } from "../guards.js";
import type { BaseContext, BotContext } from "../context.js";
import { html, rupiah, wibClock } from "../../render/format.js";
import { detailOf, OPEN_STATUSES } from "../../store/index.js";
import { isPayout, payoutExpired } from "../../domain/payouts.js";
import { STEP_TIMEOUT_MS } from "../flows/steps.js";
import { moneyText, upstreamErrorText } from "../replies.js";
import { replierOf, type DraftFields, type MoneyKind } from "./kinds.js";
import { receiptText, statusLabel, type ReceiptTx } from "../../render/receipt.js";
import { saleActionRows } from "../../render/saleActions.js";
import { newRefId } from "./refs.js";
import { downlineView } from "../../domain/staff.js";
import { downlinePrice } from "../pricing.js";
import { depositWalletPart } from "../../money/deposits.js";
import { actsOnTx, hidesCost, ledgerChat, madeBy, shownTx } from "../middlewares/roleGate.js";
import { logAct } from "./auditActs.js";
import { withApiKey } from "../provider.js";
import { whileAskingProvider } from "../slowAnswer.js";
import type { FeatureModule } from "../module.js";
import { refuseUplineShort } from "./uplineShort.js";
import { withPin, type GateOptions } from "../pin/gate.js";
import { announceSecurity } from "../pin/announce.js";
import { paidBefore } from "./transfer.js";

/** A confirm screen older than this is refused: prices and bills may have changed. */
export const DRAFT_TTL_MS = STEP_TIMEOUT_MS;


/** Saves a draft with a fresh (or the given) reference id. Persisted before any call uses the id. */
export async function saveDraft(ctx: BaseContext, kind: MoneyKind, fields: DraftFields): Promise<TxRecord> {
  const now = ctx.deps.clock.now();
  // The kind's own draft function made `fields`; the store checks detail against the kind on write.
  return ctx.deps.money.reserve(
    {
    ...fields,
    refId: fields.refId ?? newRefId(kind.kind, now),
    // Staff sell on their owner's ledger, and the record says who made it.
    chatId: ledgerChat(ctx),
    ...(madeBy(ctx) !== undefined ? { by: madeBy(ctx) } : {}),
    kind: kind.kind,
    status: "draft",
    } as NewTx & { status: "draft" },
    true,
  );
}

/**
 * A downline pays from its wallet (docs/wallets.md): the record's wallet part for `price`, fixed with
 * the screen; "refused" (and said why) when it is suspended or its wallet cannot pay it now. The claim
 * checks the wallet again, in the same write as the hold.
 */
async function walletPartOf(ctx: BaseContext, tx: TxRecord, salePrice: number): Promise<WalletPart | "refused" | undefined> {
  const role = ctx.role;
  if (role.kind !== "downline") return undefined;
  if (role.suspended) {
    await ctx.reply(ctx.t("wallet-suspended"));
    return "refused";
  }
  if (tx.kind === "deposit") {
    // Money in (docs/wallets.md "By QRIS"): it holds nothing; the wallet gets what the owner's balance receives.
    return depositWalletPart(ctx.chat!.id, tx);
  }
  const { price, commissions, resale } = await downlinePrice(ctx, tx, salePrice);
  const { available } = await ctx.deps.wallets.view(ctx.chat!.id);
  if (available < price) {
    await ctx.reply(ctx.t("wallet-short", { price: rupiah(price, ctx.lang), available: rupiah(available, ctx.lang) }));
    return "refused";
  }
  return {
    chat: ctx.chat!.id, price, state: "draft", level: role.level,
    ...(commissions.length > 0 ? { commissions } : {}), ...(resale !== undefined ? { resale } : {}),
  };
}

/**
 * The confirm screen's text under `title`: the kind's details, the balance when known, the reference.
 * `balance`: the account's balance; "unread" when the provider could not say it now; undefined when not
 * asked. `hideCost`: a cashier the owner does not show cost and balance to (hidesCost).
 */
function confirmScreen(ctx: BaseContext, kind: MoneyKind, tx: TxRecord, title: string, hideCost: boolean, balance?: number | "unread"): string {
  const balanceLine =
    balance === undefined || hideCost
      ? ""
      : `\n${balance === "unread" ? ctx.t("confirm-balance-unread") : ctx.t("confirm-balance", { balance: rupiah(balance, ctx.lang) })}`;
  // A downline's screen says where the money comes from and what happens to it; the owner's screen of a
  // downline's payout says whose wallet pays the amount (the fee is the owner's).
  const walletLine = !tx.wallet
    ? ""
    : isPayout(tx)
      ? `\n${ctx.t("confirm-payout-wallet", { name: html(detailOf(tx, "transfer").payoutName ?? ""), amount: rupiah(tx.wallet.price, ctx.lang) })}`
      : tx.kind === "deposit"
        ? `\n${ctx.t("wallet-deposit-credit", { credit: rupiah(tx.wallet.credit ?? 0, ctx.lang) })}`
        : `\n${ctx.t("confirm-wallet", { price: rupiah(tx.wallet.price, ctx.lang) })}`;
  // Its own price only: never what the owner or its uplines pay.
  const shown = tx.wallet && ctx.role.kind === "downline" ? downlineView(tx) : tx;
  return moneyText(ctx, `${title}\n\n${kind.confirmText(ctx, shown, { hideCost })}${balanceLine}${walletLine}\n${ctx.t("receipt-ref")}: <code>${html(tx.refId)}</code>`);
}

/** How long a screen built from the last list known (the provider is slow) waits for the balance. */
const SLOW_BALANCE_MS = 3000;

/**
 * The account balance from the briefly cached profile; undefined when the provider cannot say, or
 * has not said within `waitMs` when given.
 */
async function knownBalance(ctx: BaseContext, waitMs?: number): Promise<number | undefined> {
  // Not known: the provider refuses up front anyway, and the screen says it could not be read.
  const reading = withApiKey(ctx, (key) => ctx.deps.lists.profile(key));
  const read = waitMs === undefined ? await reading : await new Promise<Awaited<typeof reading> | undefined>((resolve, reject) => {
    const timer = ctx.deps.clock.setTimeout(() => resolve(undefined), waitMs);
    reading.then(
      (r) => {
        timer.cancel();
        resolve(r);
      },
      (err: unknown) => {
        timer.cancel();
        reject(err as Error);
      },
    );
  });
  return read?.ok ? (read.value.balance ?? undefined) : undefined;
}

/** The balance line of a screen that costs money: the balance, or that it could not be read. */
function shownBalance(cost: number | undefined, balance: number | undefined): number | "unread" | undefined {
  return cost === undefined ? undefined : (balance ?? "unread");
}

/** An earlier purchase of the same thing for the same target that may still go through. */
async function sameOpenPurchase(ctx: BaseContext, tx: TxRecord): Promise<Readonly<TxRecord> | undefined> {
  if (tx.kind === "deposit" || !tx.target) return undefined;
  // Open purchases are recent: the newest page is enough.
  const items = await ctx.deps.ledger.recent(tx.chatId, 50);
  return items.find((o) => o.refId !== tx.refId && o.kind === tx.kind && o.code === tx.code && o.target === tx.target && OPEN_STATUSES.has(o.status));
}

/**
 * Sends the confirm screen for a saved draft and remembers its message for later edits. Refused up
 * front when the balance cannot pay it; a warning first when the same purchase may still go through.
 */
export async function showConfirm(ctx: BaseContext, kind: MoneyKind, draft: TxRecord): Promise<void> {
  // The selling price is fixed with the screen that shows it (saved with its message id): a later
  // rule change does not move it, and the Confirm button can only be pressed once it is saved.
  const sale = await kind.sale?.(ctx, draft);
  const wallet = await walletPartOf(ctx, draft, sale?.price ?? draft.amount);
  if (wallet === "refused") {
    await ctx.deps.ledger.cancelDraft(draft.refId, "wallet short or suspended");
    return;
  }
  const tx = { ...draft, ...(sale ? { sale } : {}), ...(wallet ? { wallet } : {}) };
  const cost = await kind.cost?.(tx, ctx);
  // A price from the last list known means a slow provider: the balance gets a short wait only.
  const slow = tx.kind === "prepaid" && detailOf(tx, "prepaid").listAt !== undefined;
  const balance = cost === undefined ? undefined : await knownBalance(ctx, slow ? SLOW_BALANCE_MS : undefined);
  if (cost !== undefined && balance !== undefined && balance < cost) {
    // A downline's payout request stays held and open: its button works again once the owner tops up.
    if (isPayout(tx)) return void (await refuseLowBalance(ctx, cost, balance));
    await ctx.deps.ledger.cancelDraft(tx.refId, "balance too low");
    await ctx.deps.ledger.flush();
    await refuseLowBalance(ctx, cost, balance);
    return;
  }
  const hideCost = await hidesCost(ctx);
  // A thief pays to an account of their own: one never paid before is said on the screen.
  const fresh = tx.kind === "transfer" && !(await paidBefore(ctx.deps.ledger, tx.chatId, tx.code ?? "", tx.target ?? "")) ? `\n${ctx.t("pin-new-account")}` : "";
  const earlier = await sameOpenPurchase(ctx, tx);
  if (earlier) {
    const warning = ctx.t("confirm-duplicate", {
      what: html(earlier.title ?? earlier.code ?? ""),
      target: `<code>${html(earlier.target ?? "")}</code>`,
      time: wibClock(earlier.createdAt, ctx.lang),
      status: statusLabel(ctx.translate, ctx.lang, earlier.status, earlier.kind),
      ref: html(earlier.refId),
    }) + fresh;
    const sent = await ctx.reply(confirmScreen(ctx, kind, tx, warning, hideCost, shownBalance(cost, balance)), {
      reply_markup: buyAgainKeyboard(ctx, tx.refId),
    });
    await ctx.deps.ledger.update(tx.refId, { messageId: sent.message_id, ...(sale ? { sale } : {}), ...(wallet ? { wallet } : {}) });
    return;
  }
  // Money-out without a PIN: said once a day (docs/pin.md).
  const nag = tx.kind === "transfer" && ctx.role.kind === "owner" && (await ctx.deps.pins.nagDue(ctx.chat!.id)) ? `\n${ctx.t("pin-nag")}` : "";
  const sent = await ctx.reply(confirmScreen(ctx, kind, tx, `${ctx.t("confirm-title")}${nag}${fresh}`, hideCost, shownBalance(cost, balance)), { reply_markup: confirmKeyboard(ctx, tx.refId) });
  await ctx.deps.ledger.update(tx.refId, { messageId: sent.message_id, ...(sale ? { sale } : {}), ...(wallet ? { wallet } : {}) });
}

/**
 * Too little balance for this screen. Staff sell from the owner's balance and cannot deposit: they are
 * sent to the owner, and a cashier the owner shows no cost to reads no figures.
 */
async function refuseLowBalance(ctx: BaseContext, cost: number, balance: number): Promise<void> {
  const role = ctx.role;
  if (role.kind === "downline") {
    // Its wallet is untouched; the owner's balance and cost are the owner's: no figures, the owner told.
    await refuseUplineShort(ctx, role.owner, cost, balance);
    return;
  }
  const figures = { total: rupiah(cost, ctx.lang), balance: rupiah(balance, ctx.lang), missing: rupiah(cost - balance, ctx.lang) };
  const staff = ctx.role.kind === "staff";
  const text = !staff ? ctx.t("confirm-low-balance", figures) : (await hidesCost(ctx)) ? ctx.t("confirm-low-balance-hidden") : ctx.t("confirm-low-balance-staff", figures);
  await ctx.reply(moneyText(ctx, text), { reply_markup: lowBalanceKeyboard(ctx, !staff) });
}

/** A provider's message with its rupiah figures left out (they are the owner's cost or balance). */
function withoutRupiah(message: string): string {
  return message.replace(/\s*Rp\.?\s?[\d.,]+/gi, "").trim();
}

export async function saveAndConfirm(ctx: BaseContext, kind: MoneyKind, fields: DraftFields): Promise<TxRecord> {
  const tx = await saveDraft(ctx, kind, fields);
  await showConfirm(ctx, kind, tx);
  return tx;
}

/**
 * What a Confirm needs of the PIN gate (docs/pin.md): a transfer is money-out; a purchase asks only above
 * the owner's threshold (below it, no extra tap); a screen already confirmed needs nothing.
 */
async function pinNeeded(ctx: BaseContext, refId: string, byKind: ReadonlyMap<string, MoneyKind>): Promise<GateOptions | undefined> {
  const tx = await ctx.deps.ledger.get(refId);
  if (!tx || tx.status !== "draft" || ctx.role.kind !== "owner") return undefined;
  const kind = byKind.get(tx.kind);
  if (tx.kind === "transfer") {
    return { what: "pin-for-transfer", moneyOut: true, amount: tx.amount, ...(kind ? { overLimit: (over) => overLimitScreen(ctx, kind, tx, over) } : {}) };
  }
  if (tx.kind === "deposit") return undefined;
  // A store that cannot be read: the handler's own storage check answers (a purchase is no money-out).
  const above = (await ctx.deps.pins.state(ctx.chat!.id).catch(() => undefined))?.purchaseAbove;
  return above !== undefined && tx.amount > above ? { what: "pin-for-purchase", amount: tx.amount } : undefined;
}

/**
 * Over the daily money-out limit: the screen itself says so, what is left today and what to do, its
 * Confirm gone (pressing again would only refuse again). The owner's own transfer is cancelled; a
 * downline's payout keeps Cancel (which declines it), or is opened again from its request another day.
 */
async function overLimitScreen(ctx: BaseContext, kind: MoneyKind, tx: TxRecord, over: { limit: number; left: number }): Promise<void> {
  const payout = isPayout(tx);
  if (!payout && !(await ctx.deps.ledger.cancelDraft(tx.refId, "over the daily money-out limit"))) return;
  const figures = { limit: rupiah(over.limit, ctx.lang), left: rupiah(over.left, ctx.lang) };
  const title = `${ctx.t("pin-refused-limit", figures)}\n${ctx.t("confirm-over-limit-next", { ...figures, none: over.left > 0 ? "no" : "yes" })}`;
  const screen = confirmScreen(ctx, kind, tx, title, await hidesCost(ctx));
  await ctx.editMessageText(screen, payout ? { reply_markup: cancelOnlyKeyboard(ctx, tx.refId) } : {}).catch(() => undefined);
}

export function confirmFeature(kinds: readonly MoneyKind[]): Composer<BotContext> {
  const byKind = new Map(kinds.map((k) => [k.kind, k]));
  const c = new Composer<BotContext>();

  onCallback(c, cb.confirm, withPin(cb.confirm, (ctx, { refId }) => pinNeeded(ctx, refId, byKind), async (ctx, { refId }) => {
    const ledger = ctx.deps.ledger;
    const tx = await ledger.get(refId);
    const kind = tx && byKind.get(tx.kind);
    if (!tx || !kind || !actsOnTx(ctx, tx)) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    // A downline's payout is the owner's to confirm (its own Confirm would pay itself from the owner's balance).
    if (isPayout(tx) && ctx.role.kind !== "owner") {
      await ctx.answerCallbackQuery({ text: ctx.t("payout-confirm-only-owner"), show_alert: true });
      return;
    }
    if (isPayout(tx) && payoutExpired(tx, ctx.deps.clock.now())) {
      await ctx.deps.payouts.expire(tx);
      await ctx.answerCallbackQuery({ text: ctx.t("payout-gone"), show_alert: true });
      await ctx.editMessageReplyMarkup().catch(() => undefined);
      return;
    }
    if (tx.status === "draft" && !isPayout(tx) && ctx.deps.clock.now() - tx.createdAt > DRAFT_TTL_MS) {
      await ledger.cancelDraft(refId, "confirm screen expired");
      await ctx.answerCallbackQuery({ text: ctx.t("confirm-expired"), show_alert: true });
      await ctx.editMessageReplyMarkup().catch(() => undefined);
      return;
    }
    const apiKey = await ctx.deps.providerLink.keyOf(tx.chatId);
    if (!apiKey) {
      await ctx.answerCallbackQuery({ text: notLinkedText(ctx), show_alert: true });
      return;
    }
    // A suspended downline sells nothing, also from a screen made before; and nothing of a downline's
    // is sent without its wallet part (the hold is made by the claim from it).
    if (ctx.role.kind === "downline" && tx.status === "draft" && (ctx.role.suspended || tx.wallet?.chat !== ctx.chat?.id)) {
      await ctx.answerCallbackQuery({ text: ctx.t(ctx.role.suspended ? "wallet-suspended" : "button-expired"), show_alert: true });
      return;
    }
    // A store write already failing: refuse before marking anything (nothing may be sent unsaved).
    if (tx.status === "draft" && !(await requireStorage(ctx))) return;
    const claim = await ctx.deps.money.claim(refId);
    if (!claim.claimed) {
      if (claim.reason === "not-saved") await ctx.answerCallbackQuery({ text: ctx.t("confirm-not-saved"), show_alert: true }).catch(() => undefined);
      else if (claim.reason === "short") {
        const figures = { price: rupiah(claim.current.wallet?.price ?? 0, ctx.lang), available: rupiah(claim.available, ctx.lang) };
        await ctx.answerCallbackQuery({ text: ctx.t("wallet-short", figures), show_alert: true }).catch(() => undefined);
      }
      else await ctx.answerCallbackQuery({ text: ctx.t(claim.current?.status === "cancel" ? "confirm-was-cancelled" : "confirm-already") });
      return;
    }
    const sending = claim.tx;
    // A Telegram hiccup here must not strand a confirmed, persisted action before its one create call.
    await ctx.answerCallbackQuery({ text: ctx.t("confirm-sending") }).catch(() => undefined);
    // The screen itself says it is on its way (a slow provider takes many seconds), details kept.
    const hideCost = await hidesCost(ctx);
    await ctx.editMessageText(confirmScreen(ctx, kind, sending, ctx.t("confirm-sending-title"), hideCost)).catch(() => undefined);
    const sentScreen = () => ctx.editMessageText(confirmScreen(ctx, kind, sending, ctx.t("confirm-sent-title"), hideCost)).catch(() => undefined);
    // Money leaving or coming in by the owner's own hand goes to the audit log (sales are in the ledger).
    if (tx.kind === "transfer" || tx.kind === "deposit") await logAct(ctx, tx.kind === "transfer" ? "transfer" : "deposit_created", sending);
    if (tx.kind === "transfer") await announceSecurity(ctx, "pin-told-transfer", { amount: rupiah(tx.amount, ctx.lang), bank: html(tx.title ?? tx.code ?? ""), number: html(tx.target ?? "") });

    const create = () =>
      whileAskingProvider(ctx, () => kind.create(ctx, apiKey, sending), (line) => keepProgressLine(ctx, refId, line)).finally(() => ctx.deps.lists.forgetProfile(apiKey));
    const outcome = await ctx.deps.money.send(sending, create);
    await sentScreen();
    switch (outcome.kind) {
      case "elsewhere":
        // A status check elsewhere (a /status on the other process) found and told it first.
        return;
      case "unsaved": {
        // The provider answered but the store cannot take it just now: the record stays "sending", so the
        // watcher looks it up by our reference later. Not "try again".
        const text = moneyText(ctx, `${receiptText(ctx.translate, ctx.lang, await shownTx(ctx, sending))}\n\n${ctx.t(tx.kind === "deposit" ? "deposit-unsaved" : "money-unsaved", { ref: refId })}`);
        await ctx.reply(text, { reply_markup: statusKeyboard(ctx, refId) });
        return;
      }
      case "rejected": {
        // Refused for the owner's balance: the hold came back with the failure; said as up front.
        if (ctx.role.kind === "downline" && (isLowBalanceRefusal(outcome.error) || kind.lowBalance?.(outcome.error))) {
          await refuseUplineShort(ctx, ctx.role.owner, await kind.cost?.(sending, ctx), await knownBalance(ctx).catch(() => undefined));
          return;
        }
        const extra = await kind.explainRejection?.(ctx, apiKey, sending, outcome.error).catch(() => undefined);
        const said = hideCost ? withoutRupiah(outcome.error.providerMessage) : outcome.error.providerMessage;
        // A downline reads that its hold is back (released in the failure's own write).
        const back = outcome.tx.wallet ? await ctx.deps.wallets.leftAfter(refId, "failed") : undefined;
        const wallet = back === undefined ? "" : `\n${ctx.t("wallet-receipt-back", { price: rupiah(outcome.tx.wallet!.price, ctx.lang), left: rupiah(back, ctx.lang) })}`;
        await ctx.reply(moneyText(ctx, `${ctx.t("money-rejected", { message: html(said) })}${extra ? `\n${extra}` : ""}${wallet}`), {
          reply_markup: rejectedKeyboard(ctx, refId),
        });
        return;
      }
      case "answered":
      case "unknown":
        if (await kind.announce?.(ctx.deps, replierOf(ctx), outcome.tx)) return;
        await announceOutcome(ctx, outcome.tx);
    }
  }));

  // "Buy again" under a repeated-purchase warning: the same draft, now as an ordinary confirm screen.
  onCallback(c, cb.confirmAgain, async (ctx, { refId }) => {
    const tx = await ctx.deps.ledger.get(refId);
    const kind = tx && byKind.get(tx.kind);
    if (!tx || !kind || !actsOnTx(ctx, tx) || tx.status !== "draft") {
      await ctx.answerCallbackQuery({ text: ctx.t(tx && actsOnTx(ctx, tx) ? "confirm-already" : "button-expired") });
      return;
    }
    await ctx.answerCallbackQuery();
    const screen = confirmScreen(ctx, kind, tx, ctx.t("confirm-title"), await hidesCost(ctx), await knownBalance(ctx));
    await ctx.editMessageText(screen, { reply_markup: confirmKeyboard(ctx, refId) });
  });

  onCallback(c, cb.cancelDraft, async (ctx, { refId }) => {
    const tx = await ctx.deps.ledger.get(refId);
    if (!tx || !actsOnTx(ctx, tx)) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    const cancelled = await ctx.deps.ledger.cancelDraft(refId);
    await ctx.answerCallbackQuery({ text: ctx.t(cancelled || tx.status === "cancel" ? "cancelled" : "confirm-already") });
    // The screen itself says it is cancelled: "check before you confirm" above a dead draft misleads.
    const kind = byKind.get(tx.kind);
    const retitled = cancelled && kind && ctx.editMessageText(confirmScreen(ctx, kind, tx, ctx.t("confirm-cancelled-title"), await hidesCost(ctx))).then(() => true, () => false);
    if (!(await retitled)) await ctx.editMessageReplyMarkup().catch(() => undefined);
    if (cancelled) await ctx.reply(ctx.t("cancelled"));
    // The owner's Cancel on a downline's payout declines it: the hold came back with the cancel.
    if (cancelled && isPayout(cancelled)) await ctx.deps.payouts.declined(cancelled);
  });

  // Try again after a refusal: a fresh draft with a new reference id, confirmed again.
  onCallback(c, cb.retry, async (ctx, { refId }) => {
    const apiKey = ctx.chat && await ctx.deps.providerLink.keyOf(ledgerChat(ctx));
    const tx = await ctx.deps.ledger.get(refId);
    const kind = tx && byKind.get(tx.kind);
    if (!tx || !kind || !actsOnTx(ctx, tx) || !apiKey) {
      await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
      return;
    }
    // Compare-and-set in the store: of a double tap (on one process or two behind the load
    // balancer) only one marks `retriedAs` and makes the new draft.
    const newRef = newRefId(kind.kind, ctx.deps.clock.now());
    const unmarked = (c: Readonly<TxRecord>) => c.retriedAs === undefined;
    if (tx.retriedAs || !(await ctx.deps.ledger.transition(refId, [tx.status], { retriedAs: newRef }, unmarked))) {
      await ctx.answerCallbackQuery({ text: ctx.t("retry-already") });
      return;
    }
    await ctx.answerCallbackQuery();
    await ctx.editMessageReplyMarkup().catch(() => undefined);
    let made = false;
    try {
      const fields = await kind.retryDraft?.(ctx, apiKey, tx);
      if (!fields) {
        await ctx.reply(ctx.t("retry-start-again"));
        return;
      }
      // A kind that needed the id earlier (a bill inquiry) brings its own.
      const draft = await saveAndConfirm(ctx, kind, { ...fields, refId: fields.refId ?? newRef });
      await ctx.deps.ledger.update(refId, { retriedAs: draft.refId });
      made = true;
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      await ctx.reply(upstreamErrorText(ctx, err));
    } finally {
      // No new draft came of it: the button may be pressed again.
      if (!made) await ctx.deps.ledger.transition(refId, [tx.status], { retriedAs: undefined }, (c) => c.retriedAs === newRef);
    }
  });
  return c;
}

/** The record as this chat reads it: a downline's with what its wallet has left (ReceiptTx). */
async function ownView(ctx: BaseContext, tx: TxRecord): Promise<ReceiptTx> {
  const shown = await shownTx(ctx, tx);
  if (ctx.role.kind !== "downline" || tx.wallet?.chat !== ctx.chat?.id) return shown;
  return { ...shown, walletLeft: await ctx.deps.wallets.leftAfter(tx.refId, tx.status) };
}

/** The generic message after a create: receipt plus what happens next. */
export async function announceOutcome(ctx: BaseContext, tx: TxRecord): Promise<void> {
  const next =
    tx.status === "unknown"
      ? ctx.t(tx.kind === "deposit" ? "deposit-unknown" : "money-unknown", { ref: tx.refId })
      : tx.status === "pending" || tx.status === "processing"
        ? ctx.t("money-pending")
        : "";
  const text = moneyText(ctx, `${receiptText(ctx.translate, ctx.lang, await ownView(ctx, tx))}${next ? `\n\n${next}` : ""}`);
  const open = tx.status !== "success" && tx.status !== "failed";
  // A sale that succeeded at once gets its shop actions here (no status notice will follow).
  const shop = saleActionRows(ctx.translate, ctx.lang, tx);
  const markup = open ? statusKeyboard(ctx, tx.refId) : shop.length > 0 ? { inline_keyboard: shop } : undefined;
  const sent = await ctx.reply(text, { reply_markup: markup });
  // Recorded only while the record still shows what this message says and no notice is under way: a
  // reply a slow Telegram held can land after the watcher told the outcome with a notice of its own.
  const current = (c: Readonly<TxRecord>) => c.status === tx.status && c.watch?.announcing === undefined;
  if (await ctx.deps.ledger.transition(tx.refId, [tx.status], { messageId: sent.message_id }, current)) return;
  await ctx.api.deleteMessage(sent.chat.id, sent.message_id).catch((err: unknown) => ctx.deps.logger.warn({ err, refId: tx.refId }, "could not take back an outdated receipt"));
}

/** The confirm screen's buttons, for every money kind of the list. */
export const confirmModule: FeatureModule = {
  name: "confirm",
  composer: (modules) => confirmFeature(modules.flatMap((m) => m.kinds ?? [])),
  buttons: { confirm: "cashier", cancelDraft: "cashier", confirmAgain: "cashier", retry: "cashier" },
};

/**
 * The "checking" line's id on the record still sending, durably: after a crash the watcher deletes the line.
 * The write moves updatedAt, so the watcher's grace for it counts from the line (1.5 s later), harmless.
 */
async function keepProgressLine(ctx: BotContext, refId: string, messageId: number): Promise<void> {
  const cur = await ctx.deps.ledger.get(refId);
  if (cur?.status !== "sending") return;
  const saved = await ctx.deps.ledger.transition(refId, ["sending"], { detail: { ...cur.detail, progressId: messageId } }, (c) => c.updatedAt === cur.updatedAt);
  if (saved) await ctx.deps.ledger.flushTx(refId);
}
