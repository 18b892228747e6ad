/**
 * A shop order's notices to its customer and its owner. Each has a name in the order's `notices`, saved
 * "sending" before it goes out and "sent" after, so a restart neither repeats a sent one nor loses an
 * unsent one (a crash in between sends it once more: never lost).
 */
import { InputFile } from "grammy";
import type { InputMediaPhoto } from "grammy/types";
import type { Lang, TxRecord } from "../../store/index.js";
import { detailOf } from "../../store/index.js";
import { deliver, type Delivery } from "../../telegram/delivery.js";
import { html, rupiah, wibTime } from "../../render/format.js";
import { customerReceipt, receiptCaption, receiptSvg, RECEIPT_WIDTH } from "../../render/receiptImage.js";
import { qrisPng, svgToPngOffThread } from "../../render/orderImages.js";
import { qrCardMedia } from "../../render/voidImage.js";
import { CLOSED_UNPAID_STATES, PAID_STATES, type Order, type OrderDoc, type OrderState } from "../../domain/shop/orders.js";
import { ownerKey, type Compose, type ShopOrderJobDeps } from "./orderJobDeps.js";
import { failedOrderKeyboard, payoutKeyboard, qrCardCaption, qrNotice } from "./orderKeyboards.js";

/** A notice marked "sending" this long ago was cut by a stop: it is sent again. */
const SENDING_STALE_MS = 60_000;

/** A notice's "sending" mark refused at its slot: another path sent it or is sending it. */
class TakenMeanwhile extends Error {}

export class OrderNotices {
  /** Receipt images render one at a time (below). */
  private receiptTurn: Promise<unknown> = Promise.resolve();

  /** `signal`: aborted by the job's stop; notices still waiting for a slot in Telegram's pace give it up (unmarked, so the sweep sends them after a restart). */
  constructor(
    private readonly deps: ShopOrderJobDeps,
    private readonly signal: AbortSignal,
  ) {}

  async tellDone(doc: OrderDoc): Promise<void> {
    const o = doc.value;
    const tx = await this.deps.ledger.get(o.purchaseRefs[o.purchaseRefs.length - 1] ?? "");
    if (!tx) return;
    const shop = await this.deps.store.getChat(doc.owner);
    await this.tellCustomer(doc, "done", async (t, lang) => {
      const receipt = customerReceipt(this.deps.translate, lang, { ...tx, refId: doc.id, sale: { price: o.price, profit: 0 } }, { ...(shop?.shopName ? { shopName: shop.shopName } : {}), ...(shop?.shopFooter ? { shopFooter: shop.shopFooter } : {}) }, this.deps.sandbox);
      const png = await this.oneAtATime(() => svgToPngOffThread(receiptSvg(receipt), RECEIPT_WIDTH));
      return { text: `${t("shop-order-done")}\n\n${receiptCaption(receipt)}`, photo: new InputFile(png, `struk-${doc.id}.png`) };
    });
    await this.tellOwner(doc, "done", (t, lang) => ({ text: t("shop-order-owner-done", this.ownerVars(doc, lang, tx)) }));
  }

  /**
   * A receipt's PNG is encoded on the event loop (~20 ms): one at a time still makes ~50 a second,
   * more than Telegram lets out (29/s), and a burst of done orders leaves the loop to the money steps
   * of the orders behind them.
   */
  private oneAtATime<T>(render: () => Promise<T>): Promise<T> {
    const mine = this.receiptTurn.then(render, render);
    this.receiptTurn = mine.catch(() => undefined);
    return mine;
  }

  async sendQr(doc: OrderDoc, deposit: Readonly<TxRecord> | undefined): Promise<void> {
    const qrString = deposit ? detailOf(deposit, "deposit").qrString : undefined;
    if (!qrString) return;
    await this.tellCustomer(doc, "qr", async () => {
      const { caption, keyboard } = qrNotice(this.deps.translate, this.deps.sandbox, doc);
      return { text: caption, photo: new InputFile(await qrisPng(qrString), `qris-${doc.id}.png`), markup: keyboard };
    });
  }

  /**
   * The QR photo's message once its code must not be paid: paid (a "LUNAS" card, "payment received"),
   * expired or cancelled (a grey card, "do not pay"); its buttons go. Each is marked like a notice; an
   * edit Telegram refuses (too old, deleted, any 400) is given up, and nothing of the order waits on it.
   */
  async showOnQr(doc: OrderDoc): Promise<void> {
    const o = doc.value;
    const state = doc.state as OrderState;
    const paid = PAID_STATES.includes(state);
    if (!paid && !CLOSED_UNPAID_STATES.includes(state)) return;
    const name = paid ? "c:qr-paid" : "c:qr-closed";
    if (o.qrMessageId === undefined || !this.mayTell(doc, name)) return;
    const t = this.deps.translate;
    const head = paid
      ? t(o.lang, "shop-order-qr-paid", { time: wibTime(o.paidAt ?? this.deps.clock.now(), o.lang) })
      : t(o.lang, state === "expired" ? "watch-caption-expired" : "watch-caption-cancel");
    const caption = qrCardCaption(t, this.deps.sandbox, doc, head).slice(0, 1024);
    const api = this.deps.api;
    let media: InputMediaPhoto | undefined;
    const edited = await this.deliverMarked(
      doc.id,
      name,
      () => api.editMessageMedia(o.customer, o.qrMessageId!, media!, { reply_markup: { inline_keyboard: [] } }),
      async () => {
        media = await qrCardMedia(t, o.lang as Lang, paid ? "paid" : state === "expired" ? "expired" : "cancel", caption);
      },
    );
    if (!edited) return;
    if (edited.outcome === "refused" || edited.outcome === "blocked") this.deps.logger.info({ orderRef: doc.id, name }, "the shop order's QR message could not be edited (deleted or too old); given up");
    // Refused (too old, deleted, unchanged) or blocked: given up. Uncertain: left "sending", tried again once stale.
    if (edited.outcome === "sent" || edited.outcome === "blocked" || edited.outcome === "refused") await this.mark(doc.id, name, "sent");
  }

  ownerVars(doc: OrderDoc, lang: string, tx?: Readonly<TxRecord>): Record<string, string> {
    const o = doc.value;
    const cost = tx?.amount ?? o.cost;
    return {
      ref: doc.id,
      product: html(o.productName),
      target: html(o.target),
      paid: rupiah(o.price, lang),
      fee: rupiah(o.fee, lang),
      cost: rupiah(cost, lang),
      profit: rupiah(o.price - o.fee - cost, lang),
      customer: html(o.customerName),
      sn: html(tx?.sn ?? "-"),
      reason: html(o.message ?? ""),
    };
  }

  async tellFailed(doc: OrderDoc): Promise<void> {
    const o = doc.value;
    const n = o.purchaseRefs.length;
    if (o.reason === "not_at_provider") {
      // No other product: should the provider hold the first purchase after all, a second would buy twice.
      await this.tellCustomer(doc, `failed:${n}`, (t) => ({
        text: t("shop-order-failed-absent", { ref: doc.id, product: html(o.productName), amount: rupiah(o.price, o.lang) }),
        markup: failedOrderKeyboard(t, doc.id, []),
      }));
      await this.tellOwner(doc, `failed:${n}`, (t, lang) => ({ text: `${t("shop-order-owner-failed-absent", this.ownerVars(doc, lang))}\n${this.absentLine(doc, t)}` }));
      return;
    }
    const alternatives = await this.alternatives(doc).catch(() => []);
    // The words match the buttons: another product only when one is offered.
    const offered = alternatives.length > 0 ? "" : "-refund-only";
    const reason = this.customerReason(o.message);
    await this.tellCustomer(doc, `failed:${n}`, (t) => {
      const kb = failedOrderKeyboard(t, doc.id, alternatives);
      const text = t(`shop-order-failed${offered}`, { ref: doc.id, product: html(o.productName), amount: rupiah(o.price, o.lang) });
      return { text: reason ? `${text}\n${t("shop-order-failed-reason", { reason: html(reason) })}` : text, markup: kb };
    });
    await this.tellOwner(doc, `failed:${n}`, (t, lang) => ({
      text: t(`shop-order-owner-failed${offered}`, {
        ...this.ownerVars(doc, lang),
        ...(o.reason === "not_sent" ? { reason: t("shop-order-reason-not-sent") } : {}),
        alternatives: html(alternatives.map((p) => p.name).join(", ")),
      }),
    }));
  }

  /** The provider's failure note as the customer may read it: its "balance returned" remark is about the owner's balance. */
  private customerReason(message: string | undefined): string {
    return (message ?? "").replace(/[.,;]?\s*saldo dikembalikan\.?\s*$/i, "").trim();
  }

  /** The owner's warning on an order failed as not at the provider: check the provider's panel first. */
  private absentLine(doc: OrderDoc, t: (key: string, vars?: Record<string, string | number>) => string): string {
    return doc.value.reason === "not_at_provider" ? t("shop-order-owner-absent", { purchase: doc.value.purchaseRefs.at(-1) ?? "-" }) : "";
  }

  /** Products of the same operator or biller the paid amount still covers with a margin, nearest in cost first. */
  async alternatives(doc: OrderDoc): Promise<{ code: string; name: string; cost: number }[]> {
    const key = await ownerKey(this.deps.store, doc.owner);
    if (!key) return [];
    const list = await this.deps.upstream.prepaidPriceList(key);
    const failed = list.find((p) => p.code === doc.value.productCode);
    const budget = doc.value.price - doc.value.fee;
    return list
      .filter((p) => p.available && p.code !== doc.value.productCode && p.price <= budget && p.price >= doc.value.cost * 0.8)
      .filter((p) => !failed || p.provider === failed.provider)
      .sort((a, b) => Math.abs(a.price - doc.value.cost) - Math.abs(b.price - doc.value.cost))
      .slice(0, 3)
      .map((p) => ({ code: p.code, name: p.name, cost: p.price }));
  }

  async tellUnknown(doc: OrderDoc): Promise<void> {
    const n = doc.value.purchaseRefs.length;
    await this.tellCustomer(doc, `unknown:${n}`, (t) => ({ text: t("shop-order-unknown", { ref: doc.id }) }));
    await this.tellOwner(doc, `unknown:${n}`, (t, lang) => ({ text: t("shop-order-owner-unknown", this.ownerVars(doc, lang)) }));
  }

  async tellRefundRequested(doc: OrderDoc): Promise<void> {
    const o = doc.value;
    const n = `${o.refundRef ?? "0"}`;
    await this.tellOwner(doc, `refund:${n}`, (t, lang) => ({
      text: [t("shop-order-owner-refund", { ...this.ownerVars(doc, lang), bank: html(o.refundAccount?.bank ?? ""), account: html(o.refundAccount?.number ?? "") }), this.absentLine(doc, t)]
        .filter(Boolean)
        .join("\n"),
      markup: payoutKeyboard(t, doc.id),
    }));
  }

  tellCustomer(doc: OrderDoc, name: string, make: Compose): Promise<void> {
    return this.tell(doc.id, `c:${name}`, doc.value.customer, doc.value.lang, make);
  }

  async tellOwner(doc: OrderDoc, name: string, make: Compose): Promise<void> {
    const lang = (await this.deps.store.getChat(doc.owner))?.lang ?? "id";
    return this.tell(doc.id, `o:${name}`, doc.owner, lang, make);
  }

  /**
   * Exactly-once-or-repeated-never-lost: "sending" saved before the message, "sent" after. Both the
   * mark and the message are made when the pacer gives the message its slot, not when it queues: in
   * a burst of done orders the receipts would otherwise all render at once, and their marks take the
   * disk and the CPU, while the orders behind still need both for their money steps, and then wait
   * for Telegram's pace anyway (29/s). A stop before the slot leaves no mark: the sweep finds the
   * ended orders whose notices were not sent (ENDED_NOTICES) as it finds the ones left "sending".
   */
  private async tell(orderRef: string, name: string, chatId: number, lang: string, make: Compose): Promise<void> {
    if (!this.mayTell(await this.deps.orders.get(orderRef), name)) return;
    const t = (key: string, vars?: Record<string, string | number>) => this.deps.translate(lang, key, vars);
    let msg: Awaited<ReturnType<Compose>> | undefined;
    const api = this.deps.api;
    const sent = await this.deliverMarked(
      orderRef,
      name,
      () => {
        const { text, photo, markup: reply_markup } = msg!;
        return photo
          ? api.sendPhoto(chatId, photo, { caption: text.slice(0, 1024), parse_mode: "HTML", ...(reply_markup ? { reply_markup } : {}) })
          : api.sendMessage(chatId, text, { parse_mode: "HTML", ...(reply_markup ? { reply_markup } : {}) });
      },
      async () => {
        msg = await make(t, lang);
      },
    );
    if (!sent) return;
    // Delivered, refused for good or blocked: done. Anything else: left "sending", sent again later.
    // The QR's message is kept, so it can be shown paid later (as startPayment keeps the one it sends).
    const messageId = sent.outcome === "sent" ? (sent.result as { message_id?: number } | undefined)?.message_id : undefined;
    const keep = name === "c:qr" && messageId !== undefined ? { qrMessageId: messageId } : {};
    if (sent.outcome === "sent" || sent.outcome === "blocked" || sent.outcome === "refused") await this.mark(orderRef, name, "sent", keep);
  }

  /**
   * One notice through the pacer, its "sending" mark saved at its slot, before `prepare` makes it and
   * `send` sends it; undefined when the mark was refused there (sent or being sent by another path).
   */
  private async deliverMarked(orderRef: string, name: string, send: () => Promise<unknown>, prepare: () => Promise<void>): Promise<Delivery<unknown> | undefined> {
    let marked = false;
    try {
      return await deliver<unknown>(send, {
        pacer: this.deps.pacer,
        signal: this.signal,
        beforeSend: async () => {
          if (marked) return; // again after a 429: marked and made already
          if (!(await this.mark(orderRef, name, "sending"))) throw new TakenMeanwhile();
          marked = true;
          await prepare();
        },
      });
    } catch (err) {
      if (err instanceof TakenMeanwhile) return undefined;
      throw err;
    }
  }

  /** Whether a notice may go out now: not sent, and not "sending" lately by another path (taken over once stale: a stop). */
  private mayTell(doc: OrderDoc | undefined, name: string): doc is OrderDoc {
    if (!doc || doc.value.notices[name] === "sent") return false;
    return !(doc.value.notices[name] === "sending" && this.deps.clock.now() - doc.updatedAt < SENDING_STALE_MS);
  }

  /** Sets a notice's mark; false when it is already sent (or the order is gone), or "sending" by another path (mayTell). */
  private async mark(orderRef: string, name: string, mark: "sending" | "sent", keep: Partial<Order> = {}): Promise<boolean> {
    for (let tries = 0; tries < 10; tries++) {
      const doc = await this.deps.orders.get(orderRef);
      if (mark === "sending" ? !this.mayTell(doc, name) : !doc || doc.value.notices[name] === "sent") return false;
      if (await this.deps.orders.amend(doc!, (v) => ({ ...v, ...keep, notices: { ...v.notices, [name]: mark } }))) return true;
    }
    return false;
  }
}
