/**
 * A shop customer pays: "Bayar dengan QRIS" saves the order (draft, with its own reference and the
 * deposit's) and the deposit record, both durable, then creates the QRIS with the owner's key and
 * sends its photo, amount and expiry with "Cek pembayaran". From there the order job
 * (jobs/shopOrders.ts) takes it on. Also the order's buttons: the customer's check, cancel, another
 * product and refund request, and the owner's one tap that opens the refund transfer's confirm screen.
 */
import { Composer, InputFile } from "grammy";
import type { BotContext } from "../context.js";
import type { Lang, TxPatch } from "../../store/index.js";
import { UpstreamError } from "../../upstream/errors.js";
import { depositKind } from "../money/deposit.js";
import { saveAndConfirm } from "../money/confirm.js";
import { bankTypeOf, transferDraft, transferKind } from "../money/transfer.js";
import { html } from "../../render/format.js";
import { qrNotice } from "../../jobs/shop/orderKeyboards.js";
import { qrisPng } from "../../render/orderImages.js";
import {
  depositRefOf,
  MAX_ATTEMPTS,
  newOrderRef,
  purchaseRefOf,
  refundRefOf,
  UNPAID_STATES,
  wibDayStart,
  type Order,
  type OrderDoc,
  type OrderState,
} from "../../domain/shop/orders.js";
import { readOrderButton } from "../../telegram/orderButtonData.js";
import { orderSettingsOf, type ShopSettingsReader } from "../../domain/shop/orderSettings.js";
import { knownRole } from "../middlewares/role.js";
import type { FeatureModule } from "../module.js";

export interface OrderInput {
  owner: number;
  customer: number;
  customerName: string;
  productCode: string;
  productName: string;
  target: string;
  /** What the customer pays, fee included. */
  price: number;
  /** What the product was priced at: the purchase's limit_price. */
  cost: number;
  fee: number;
  feePayer: "customer" | "reseller";
  lang: Lang;
}

/** Unpaid orders a customer may hold at once, and new orders per RATE_WINDOW_MS. */
export const MAX_UNPAID_PER_CUSTOMER = 3;
export const RATE_MAX = 5;
export const RATE_WINDOW_MS = 10 * 60_000;
/** States of an order whose QR was never paid (counted by the shop's daily cap). */
const NEVER_PAID: readonly OrderState[] = ["draft", "awaiting_payment", "cancelling", "expired", "cancelled"];

/** The shop settings service, once the bot has one (ctx.deps.shop). */
function shopReader(ctx: BotContext): ShopSettingsReader | undefined {
  return (ctx.deps as { shop?: ShopSettingsReader }).shop;
}

export async function startPayment(ctx: BotContext, input: OrderInput): Promise<void> {
  const { deps } = ctx;
  const now = deps.clock.now();
  const t = (key: string, vars?: Record<string, string | number>) => deps.translate(input.lang, key, vars);
  const say = (key: string, vars?: Record<string, string | number>) => ctx.reply(t(key, vars));

  const mine = await deps.shopOrders.listByCustomer(input.owner, input.customer);
  if (mine.filter((d) => UNPAID_STATES.includes(d.state as OrderState)).length >= MAX_UNPAID_PER_CUSTOMER) {
    await say("shop-order-limit-unpaid", { max: MAX_UNPAID_PER_CUSTOMER });
    return;
  }
  if (mine.filter((d) => now - d.createdAt < RATE_WINDOW_MS).length >= RATE_MAX) {
    await say("shop-order-limit-rate");
    return;
  }
  const settings = await orderSettingsOf(shopReader(ctx), input.owner);
  const today = await deps.shopOrders.listByOwner(input.owner, NEVER_PAID, wibDayStart(now));
  if (today.length >= settings.dailyUnpaidCap) {
    await say("shop-order-limit-daily");
    return;
  }
  const ownerChat = await deps.store.getChat(input.owner);
  let key: string | undefined;
  try {
    key = ownerChat && deps.store.apiKeyOf(ownerChat);
  } catch {
    key = undefined;
  }
  if (!key || !deps.store.canPersist()) {
    await say("shop-order-unavailable");
    return;
  }

  // The order and its deposit's reference are durable before the create call that uses them.
  const orderRef = newOrderRef(now);
  const depositRef = depositRefOf(orderRef);
  const order: Order = {
    customer: input.customer,
    customerName: input.customerName.slice(0, 200),
    productCode: input.productCode,
    productName: input.productName.slice(0, 300),
    target: input.target,
    price: input.price,
    cost: input.cost,
    fee: input.fee,
    feePayer: input.feePayer,
    lang: input.lang,
    depositRef,
    purchaseRefs: [],
    notices: {},
  };
  await deps.shopOrders.create(orderRef, input.owner, order);
  const reserved = { refId: depositRef, chatId: input.owner, kind: "deposit", status: "draft", code: "qris", title: "QRIS", amount: input.price } as const;
  await deps.money.reserve(
    { ...reserved, detail: { type: "ewallet", method: "qris", requested: input.price, estimatedFee: input.fee, estimatedCredited: input.price - input.fee } },
    false,
  );
  const claim = await deps.money.claim(depositRef);
  if (!claim.claimed && claim.reason === "taken") return; // another path holds this deposit: it answers the customer
  if (!claim.claimed) {
    // Nothing was sent: the order ends here and the customer may order again once the store saves.
    await deps.ledger.cancelDraft(depositRef, "shop deposit not sent");
    await deps.shopOrders.move(orderRef, "cancelled");
    await say("shop-order-unavailable");
    return;
  }
  const outcome = await deps.money.send(
    claim.tx,
    async (sending) => {
      const answer = await depositKind.create(ctx, key, sending);
      // The QR goes to the customer here, not to the owner's chat as a reseller's own deposit would.
      const { instructions: _due, ...detail } = (answer.detail ?? {}) as { instructions?: string } & Record<string, unknown>;
      return { ...answer, detail } as TxPatch;
    },
    // The watcher follows the deposit from its answer on; told after the QR so the job does not race this handler for it.
    { emit: false },
  );
  // Settled elsewhere first (a status check): the watcher has it already, and its QR may still go out here.
  const saved = outcome.tx;
  const tracked = () => outcome.kind !== "elsewhere" && deps.money.created(saved);
  if (saved?.status === "failed") {
    tracked();
    await deps.shopOrders.move(orderRef, "cancelled");
    await say("shop-order-qris-refused");
    return;
  }
  const qrString = saved?.detail && "qrString" in saved.detail ? saved.detail.qrString : undefined;
  if (saved?.status !== "pending" || !qrString) {
    tracked();
    await say("shop-order-qris-unknown", { ref: orderRef });
    return;
  }
  const expiresAt = saved.detail && "expiresAt" in saved.detail ? (saved.detail.expiresAt ?? undefined) : undefined;
  const awaiting = await deps.shopOrders.move(orderRef, "awaiting_payment", (v) => ({
    ...v,
    ...(expiresAt ? { expiresAt } : {}),
    ...(saved.fee !== undefined && saved.fee > 0 ? { fee: saved.fee } : {}),
  }));
  if (awaiting) await sendQr(ctx, awaiting, qrString).finally(tracked);
  else tracked(); // the job got there first and sends the QR
}

/** The QR photo with the amount, the expiry and the buttons; recorded as sent on the order. */
async function sendQr(ctx: BotContext, doc: OrderDoc, qrString: string): Promise<void> {
  const { deps } = ctx;
  const marked = await deps.shopOrders.amend(doc, (v) => ({ ...v, notices: { ...v.notices, "c:qr": "sending" } }));
  if (!marked) return;
  const { caption, keyboard } = qrNotice(deps.translate, deps.sandbox, marked);
  const png = await qrisPng(qrString);
  const sent = await ctx.replyWithPhoto(new InputFile(png, `qris-${doc.id}.png`), { caption, reply_markup: keyboard });
  for (let tries = 0; tries < 5; tries++) {
    const latest = await deps.shopOrders.get(doc.id);
    if (!latest) return;
    if (await deps.shopOrders.amend(latest, (v) => ({ ...v, qrMessageId: sent.message_id, notices: { ...v.notices, "c:qr": "sent" } }))) return;
  }
}

// ---- the order's buttons ------------------------------------------------------------------------

/** `account` as the customer writes it: "DANA 081234567890", "bca 123-456 7890" (separators as /beli takes them). */
const ACCOUNT = /^\s*([A-Za-z0-9_]{2,30})\s+(\d[\d\s.-]{3,40}\d)\s*$/;

function readAccount(text: string): { code: string; number: string } | undefined {
  const m = ACCOUNT.exec(text.slice(0, 100));
  const number = m?.[2]!.replace(/[\s.-]/g, "");
  return m && number && /^\d{5,30}$/.test(number) ? { code: m[1]!, number } : undefined;
}

export const shopPayFeature = new Composer<BotContext>();

shopPayFeature.on("callback_query:data", async (ctx, next) => {
  const button = readOrderButton(ctx.callbackQuery.data);
  if (!button) return next();
  const { deps } = ctx;
  const doc = await deps.shopOrders.get(button.orderRef);
  const chatId = ctx.chat?.id;
  const isCustomer = doc !== undefined && doc.value.customer === chatId;
  const isOwner = doc !== undefined && doc.owner === chatId;
  if (!doc || (button.act === "payout" ? !isOwner : !isCustomer)) {
    await ctx.answerCallbackQuery({ text: ctx.t("button-expired") });
    return;
  }
  const t = (key: string, vars?: Record<string, string | number>) => deps.translate(button.act === "payout" ? ctx.lang : doc.value.lang, key, vars);
  switch (button.act) {
    case "check": {
      // Asks the provider's deposit status now (never a callback alone); the job moves the order.
      await deps.statusChecker.checkNow(doc.value.depositRef, { shownByCaller: true });
      await deps.shopOrderJob.advance(doc.id);
      const state = (await deps.shopOrders.get(doc.id))?.state as OrderState | undefined;
      const paid = state !== undefined && !["draft", "awaiting_payment", "cancelling", "expired", "cancelled"].includes(state);
      await ctx.answerCallbackQuery({ text: t(paid ? "shop-order-check-paid" : "shop-order-check-unpaid"), show_alert: !paid });
      return;
    }
    case "cancel": {
      const closed = await deps.shopOrderJob.close(doc, "customer");
      await ctx.answerCallbackQuery({ text: t(closed ? "shop-order-cancelling" : "shop-order-cannot-cancel") });
      if (closed) await ctx.editMessageReplyMarkup().catch(() => undefined);
      await deps.shopOrderJob.advance(doc.id);
      return;
    }
    case "alt": {
      // Never for an order failed as not at the provider: the first purchase may still be held there.
      const offered = doc.state === "failed" && doc.value.reason !== "not_at_provider";
      const choice = offered ? (await deps.shopOrderJob.alternatives(doc)).find((p) => p.code === button.code) : undefined;
      const n = doc.value.purchaseRefs.length + 1;
      const moved =
        choice && n <= MAX_ATTEMPTS
          ? await deps.shopOrders.move(
              doc.id,
              "buying",
              (v) => ({ ...v, productCode: choice.code, productName: choice.name, cost: choice.cost, purchaseRefs: [...v.purchaseRefs, purchaseRefOf(doc.id, n)] }),
              ["failed"],
            )
          : undefined;
      await ctx.answerCallbackQuery({ text: t(moved ? "shop-order-alt-buying" : "shop-order-alt-gone") });
      if (moved) {
        await ctx.editMessageReplyMarkup().catch(() => undefined);
        await deps.shopOrderJob.advance(doc.id);
      }
      return;
    }
    case "refund": {
      if (doc.state !== "failed") {
        await ctx.answerCallbackQuery({ text: t("shop-order-alt-gone") });
        return;
      }
      await ctx.answerCallbackQuery();
      const prompt = await ctx.reply(t("shop-order-refund-ask", { ref: doc.id }), { reply_markup: { force_reply: true } });
      await deps.shopOrders.amend(doc, (v) => ({ ...v, refundPromptId: prompt.message_id }));
      return;
    }
    case "payout":
      await payout(ctx, doc);
      return;
  }
});

/**
 * The customer's answer to "which account": a reply to the prompt of one of its failed orders, or a
 * plain "BANK number" message while exactly one of its orders waits for an account (a plain message
 * that names no known bank goes on to the product search).
 */
shopPayFeature.on("message:text", (ctx, next) => {
  const replyTo = ctx.message.reply_to_message?.message_id;
  const account = readAccount(ctx.message.text);
  if (replyTo === undefined && !account) return next(); // most texts: no promise of this handler's own
  return refundAccountAnswer(ctx, next, replyTo, account);
});

async function refundAccountAnswer(
  ctx: BotContext & { message: { text: string }; chat: { id: number } },
  next: () => Promise<void>,
  replyTo: number | undefined,
  account: ReturnType<typeof readAccount>,
): Promise<void> {
  // Unknown while the store is unreachable: then this is no answer to a prompt of ours that could be kept.
  const role = knownRole(ctx);
  const owner = role?.kind === "customer" ? role.owner : undefined;
  if (owner === undefined) return next();
  const orders = await ctx.deps.shopOrders.listByCustomer(owner, ctx.chat.id);
  const waiting = orders.filter((d) => d.state === "failed" && d.value.refundPromptId !== undefined);
  const doc = replyTo !== undefined ? orders.find((d) => d.value.refundPromptId === replyTo) : waiting.length === 1 ? waiting[0] : undefined;
  if (!doc) return next();
  const t = (key: string, vars?: Record<string, string | number>) => ctx.deps.translate(doc.value.lang, key, vars);
  const key = await ctx.deps.providerLink.keyOf(doc.owner).catch(() => undefined);
  const bank = account && key ? (await ctx.deps.lists.banks(key).catch(() => [])).find((b) => b.code.toLowerCase() === account.code.toLowerCase()) : undefined;
  if (replyTo === undefined && !bank) return next();
  if (!account || !bank) {
    const prompt = await ctx.reply(t("shop-order-refund-ask-again"), { reply_markup: { force_reply: true } });
    await ctx.deps.shopOrders.amend(doc, (v) => ({ ...v, refundPromptId: prompt.message_id }));
    return;
  }
  const moved = await ctx.deps.shopOrders.move(doc.id, "refund_requested", (v) => ({ ...v, refundAccount: { bank: bank.code, number: account.number } }), ["failed"]);
  await ctx.reply(t(moved ? "shop-order-refund-noted" : "shop-order-alt-gone", { ref: doc.id }));
  if (moved) await ctx.deps.shopOrderJob.advance(doc.id);
}

/**
 * The owner's one tap: the account is checked, the refund's reference saved on the order
 * (refund_requested -> refunding), then the ordinary transfer confirm screen. Money moves only on
 * the owner's Confirm there; the order is refunded when that transfer succeeds (the job).
 */
async function payout(ctx: BotContext, doc: OrderDoc): Promise<void> {
  const { deps } = ctx;
  const acc = doc.value.refundAccount;
  const key = await deps.providerLink.keyOf(doc.owner);
  if (doc.state !== "refund_requested" || !acc || !key) {
    await ctx.answerCallbackQuery({ text: ctx.t(doc.state === "refunding" ? "shop-order-payout-open" : "button-expired") });
    return;
  }
  await ctx.answerCallbackQuery();
  let bank;
  let check;
  try {
    bank = (await deps.lists.banks(key)).find((b) => b.code === acc.bank);
    check = bank && (await deps.upstream.checkAccount(key, { bankCode: bank.code, accountNumber: acc.number }));
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
  }
  if (!bank || check?.status !== "valid") {
    await ctx.reply(ctx.t("shop-order-payout-account", { bank: html(acc.bank), account: html(acc.number) }));
    return;
  }
  const refundRef = refundRefOf(doc.id, Number(doc.value.refundRef?.slice(-1) ?? 0) + 1);
  const moved = await deps.shopOrders.move(doc.id, "refunding", (v) => ({ ...v, refundRef }), ["refund_requested"]);
  if (!moved) return;
  const dest = { bankCode: bank.code, bankName: bank.name, bankType: bankTypeOf(bank.type), accountNumber: acc.number, holderName: check.holderName };
  const fields = await transferDraft(deps.ledger, doc.owner, dest, doc.value.price, `Refund ${doc.id}`);
  await saveAndConfirm(ctx, transferKind, { ...fields, refId: refundRef });
}

export const shopPayModule: FeatureModule = { name: "shopPay", composer: shopPayFeature, families: ["so"] };
