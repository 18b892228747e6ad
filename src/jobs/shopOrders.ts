/**
 * Shop orders after the QR: payment, expiry, the purchase, its outcome, the notices, refunds
 * (docs/shop-orders.md). One room over 350 lines because every step is the same loop: read the order,
 * look at the transaction its state waits on, make the one compare-and-set that follows, then the
 * provider call or the notice it leads to; split by state, each part would need the others' moves.
 *
 * Triggers: the watcher saved a change of an order's transaction (`txChanged`, its named listener),
 * a create answered (`created` event), the customer's "Cek pembayaran", and a sweep every `sweepMs`
 * over the orders still working (so a restart, a lost callback or an expiry is picked up). Steps of
 * one order run one at a time here; across processes the compare-and-sets decide.
 *
 * Notices: each has a name in the order's `notices`, saved "sending" before it goes out and "sent"
 * after, so a restart neither repeats a sent one nor loses an unsent one (a crash in between sends it
 * once more: never lost).
 */
import { InlineKeyboard, InputFile, type Api } from "grammy";
import type { Clock, TimerHandle } from "../tools/clock.js";
import type { Logger } from "../logging/logger.js";
import type { Store, TxRecord } from "../store/index.js";
import { detailOf, DuplicateTxError } from "../store/index.js";
import type { UpstreamClient } from "../upstream/client.js";
import { UpstreamError, UpstreamRejected } from "../upstream/errors.js";
import type { Ledger } from "../domain/ledger.js";
import type { MoneyEngine } from "../money/createOnce.js";
import type { TxEvents } from "../domain/events.js";
import type { Translate } from "../render/i18n.js";
import type { Pacer } from "../telegram/pacer.js";
import { deliver, type Delivery } from "../telegram/delivery.js";
import { html, rupiah, wibTime } from "../render/format.js";
import { withSandboxBanner } from "../render/money.js";
import { customerReceipt, receiptCaption, receiptSvg, RECEIPT_WIDTH } from "../render/receiptImage.js";
import { qrisPng, svgToPngOffThread } from "../render/orderImages.js";
import { DEFAULT_DEPOSIT_LATE_MS, refreshTx } from "../domain/refresh.js";
import {
  CLOSED_UNPAID_STATES,
  MAX_ATTEMPTS,
  PAID_STATES,
  orderRefOfTx,
  purchaseRefOf,
  saleOf,
  WORKING_STATES,
  type Order,
  type OrderDoc,
  type OrderState,
  type ShopOrders,
} from "../domain/shop/orders.js";
import { orderButton } from "../domain/shop/orderButtons.js";
import { cb } from "../telegram/buttonData.js";
import { orderSettingsOf, type ShopSettingsReader } from "../domain/shop/orderSettings.js";

export interface ShopOrderJobOptions {
  /** How often the working orders are looked at (expiry, lost callbacks, a balance topped up). */
  sweepMs: number;
  /** An unpaid order's deposit is cancelled this long after the QR's expiry at the latest. */
  draftLostMs: number;
  /** How long an unconfirmed refund transfer draft stays offered before the order asks again. */
  refundDraftMs: number;
}

export const DEFAULT_SHOP_ORDER_OPTIONS: ShopOrderJobOptions = { sweepMs: 10_000, draftLostMs: 60_000, refundDraftMs: 15 * 60_000 };

const BALANCE_FRESH_MS = 30_000;
/** How long a closed unpaid order is looked at for a late payment (the watcher keeps its deposit open 30 min past expiry). */
const CLOSED_WATCH_MS = 2 * 3_600_000;
/** A notice marked "sending" this long ago was cut by a stop: it is sent again. */
const SENDING_STALE_MS = 60_000;
/** The notices an ended order owes (tellDone, the refunded notice): the sweep looks again while one is not sent. */
const ENDED_NOTICES: Partial<Record<OrderState, readonly string[]>> = { done: ["c:done", "o:done"], refunded: ["c:refunded"] };

/** A notice's "sending" mark refused at its slot: another path sent it or is sending it. */
class TakenMeanwhile extends Error {}

/**
 * A purchase left unknown is asked by our reference at most this often by the order job itself; three
 * "not found" answers, the last at least ABSENT_WINDOW_MS after the create, make it "not at the provider".
 */
const ABSENT_ASK_MS = 15 * 60_000;
const ABSENT_ANSWERS = 3;
const ABSENT_WINDOW_MS = 30 * 60_000;

/** After a purchase's create answered pending: its status is asked at these delays (ms), until it ends. */
const PURCHASE_CHECKS_MS = [1_500, 3_000, 6_000, 12_000];

export interface ShopOrderJobDeps {
  store: Store;
  orders: ShopOrders;
  ledger: Ledger;
  /** The money engine: the purchase's one create. */
  money: MoneyEngine;
  upstream: UpstreamClient;
  api: Api;
  pacer?: Pacer | undefined;
  translate: Translate;
  clock: Clock;
  logger: Logger;
  events: TxEvents;
  sandbox: boolean;
  /**
   * Asks the watcher to check a transaction soon, under its per-key cap. A shop's burst of orders makes
   * more provider callbacks than one chat may send in a minute: the job does not wait for those.
   */
  hurry?: (refId: string) => void;
  /** False while another process leads: the sweep is the leader's (a standby still takes its own users' steps). */
  leading?: () => boolean;
  /** The shop settings service (ctx.deps.shop) once there is one; the defaults otherwise. */
  shop?: () => ShopSettingsReader | undefined;
  options?: Partial<ShopOrderJobOptions>;
}

const PAID_DEPOSIT = new Set(["processing", "success"]);
const CLOSED_DEPOSIT = new Set(["cancel", "failed", "expired"]);

export class ShopOrderJob {
  readonly options: ShopOrderJobOptions;
  private readonly chains = new Map<string, Promise<void>>();
  private readonly balances = new Map<number, { balance: number; at: number }>();
  /** The profile read under way per owner (balanceOf). */
  private readonly balanceReads = new Map<number, Promise<number | null>>();
  private readonly running = new Set<Promise<unknown>>();
  /** Orders whose QR edit runs beside their steps now. */
  private readonly besideRunning = new Set<string>();
  /** Receipt images render one at a time (below). */
  private receiptTurn: Promise<unknown> = Promise.resolve();
  private timer: TimerHandle | undefined;
  private stopped = false;
  /** Aborted by stop(): notices still waiting for a slot in Telegram's pace give it up (unmarked, so the sweep sends them after a restart). */
  private readonly stopping = new AbortController();

  constructor(private readonly deps: ShopOrderJobDeps) {
    this.options = { ...DEFAULT_SHOP_ORDER_OPTIONS, ...deps.options };
    deps.events.on("created", (tx) => this.txChanged(tx));
  }

  /** Looks at every working order now (a restart resumes here), then every `sweepMs`. */
  start(): void {
    if (this.stopped || this.timer) return;
    this.sweep();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    this.stopping.abort();
    await this.idle();
  }

  /** Resolves once no step is running (tests and the benchmark). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** The watcher's named listener: a transaction changed; its order (if any) takes its next step. */
  txChanged(tx: Readonly<TxRecord>): void {
    const orderRef = orderRefOfTx(tx.refId);
    if (orderRef) void this.advance(orderRef);
  }

  /** Takes the order as far as it can go now; steps of one order never overlap in this process. */
  advance(orderRef: string): Promise<void> {
    const before = this.chains.get(orderRef) ?? Promise.resolve();
    const next = before
      .then(() => (this.stopped ? undefined : this.walk(orderRef)))
      .catch((err: unknown) => this.deps.logger.error({ err, orderRef }, "a shop order step failed; the sweep tries again"));
    this.chains.set(orderRef, next);
    this.running.add(next);
    void next.finally(() => {
      this.running.delete(next);
      if (this.chains.get(orderRef) === next) this.chains.delete(orderRef);
    });
    return next;
  }

  private sweep(): void {
    const run = (async () => {
      if (this.deps.leading && !this.deps.leading()) return;
      const now = this.deps.clock.now();
      const docs = [
        ...(await this.deps.orders.inStates([...WORKING_STATES, "failed", "refund_requested"])),
        // Closed within the late window (a late payment), or ended lately with a notice a stop left "sending"
        // or left unsent before its slot.
        ...(await this.deps.orders.inStates([...CLOSED_UNPAID_STATES, "done", "refunded"], now - 86_400_000)).filter(
          (d) =>
            (CLOSED_UNPAID_STATES.includes(d.state as OrderState) && now - d.updatedAt < CLOSED_WATCH_MS) ||
            Object.values(d.value.notices).includes("sending") ||
            (ENDED_NOTICES[d.state as OrderState]?.some((n) => d.value.notices[n] !== "sent") ?? false),
        ),
      ];
      await Promise.all(docs.map((d) => this.advance(d.id)));
    })()
      .catch((err: unknown) => this.deps.logger.error({ err }, "the shop order sweep failed"))
      .finally(() => {
        if (!this.stopped) this.timer = this.deps.clock.setTimeout(() => this.sweep(), this.options.sweepMs);
      });
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  // ---- the walk -------------------------------------------------------------------------------

  private async walk(orderRef: string): Promise<void> {
    for (let moves = 0; moves < 12; moves++) {
      const doc = await this.deps.orders.get(orderRef);
      if (!doc || !(await this.step(doc))) return;
    }
  }

  /**
   * One step: true when the order moved (look again), false when it waits for something. Once a paid
   * order waits, its QR message is shown paid beside the order's steps, not in them: in a burst the
   * edit waits for Telegram's pace behind every other message, and the purchase's outcome must not.
   */
  private async step(doc: OrderDoc): Promise<boolean> {
    if (await this.stepState(doc)) return true;
    if (PAID_STATES.includes(doc.state as OrderState)) this.beside(doc.id, () => this.showPaidOnQr(doc));
    return false;
  }

  /** Runs `work` outside the order's chain (once at a time per order), tracked for idle() and stop(). */
  private beside(orderRef: string, work: () => Promise<void>): void {
    if (this.besideRunning.has(orderRef)) return;
    this.besideRunning.add(orderRef);
    const run = work()
      .catch((err: unknown) => this.deps.logger.error({ err, orderRef }, "a shop order's QR edit failed; the sweep tries again"))
      .finally(() => this.besideRunning.delete(orderRef));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  private async stepState(doc: OrderDoc): Promise<boolean> {
    const o = doc.value;
    const state = doc.state as OrderState;
    const deposit = await this.deps.ledger.get(o.depositRef);
    switch (state) {
      case "draft":
        return this.fromDraft(doc, deposit);
      case "awaiting_payment":
        if (deposit && PAID_DEPOSIT.has(deposit.status)) return this.paid(doc);
        if (o.expiresAt !== undefined && this.deps.clock.now() >= o.expiresAt) return this.close(doc, "expiry");
        if (deposit && CLOSED_DEPOSIT.has(deposit.status)) return this.close(doc, "expiry");
        // startPayment sends the QR right after the move; one a stop left unsent goes out from here.
        if (o.notices["c:qr"] !== "sent" && this.deps.clock.now() - doc.updatedAt > this.options.draftLostMs) await this.sendQr(doc, deposit);
        return false;
      case "cancelling":
        return this.cancelAtProvider(doc, deposit);
      case "expired":
      case "cancelled":
        // Paid after all (a late QRIS, a cancel that crossed the payment): fulfilled all the same.
        if (deposit && PAID_DEPOSIT.has(deposit.status)) return this.paid(doc);
        await this.tellCustomer(doc, `closed:${state}`, (t) => ({ text: t(`shop-order-${state}`, { ref: doc.id, product: html(o.productName) }) }));
        return false;
      case "paid":
        return this.buy(doc, deposit);
      case "buying":
      case "unknown":
        return this.settle(doc);
      case "done":
        await this.tellDone(doc);
        return false;
      case "failed":
        if (await this.foundAfterAll(doc)) return true;
        await this.tellFailed(doc);
        return false;
      case "refund_requested":
        if (await this.foundAfterAll(doc)) return true;
        await this.tellRefundRequested(doc);
        return false;
      case "refunding":
        await this.foundAfterAll(doc);
        return this.refundOutcome(doc);
      case "refunded":
        await this.foundAfterAll(doc);
        await this.tellCustomer(doc, "refunded", (t) => ({ text: t("shop-order-refunded", { ref: doc.id, amount: rupiah(o.price, o.lang) }) }));
        return false;
    }
  }

  private async fromDraft(doc: OrderDoc, deposit: Readonly<TxRecord> | undefined): Promise<boolean> {
    const age = this.deps.clock.now() - doc.createdAt;
    if (deposit?.status === "pending" && !detailOf(deposit, "deposit").qrString) {
      // The create's answer was lost and the status has no QR to show: nobody can pay it. Closed at the provider.
      const key = await this.keyOf(doc.owner);
      if (key) await this.deps.upstream.cancelDeposit(key, deposit.upstreamId ?? deposit.refId).catch(() => undefined);
      await this.deps.ledger.transition(deposit.refId, ["pending"], { status: "cancel" });
      return !!(await this.deps.orders.move(doc.id, "cancelled", (v) => ({ ...v, cancelAsked: true })));
    }
    if (deposit && (deposit.status === "pending" || PAID_DEPOSIT.has(deposit.status))) {
      const expiresAt = detailOf(deposit, "deposit").expiresAt ?? undefined;
      const moved = await this.deps.orders.move(doc.id, "awaiting_payment", (v) => ({ ...v, ...(expiresAt ? { expiresAt } : {}) }));
      // The create's answer was not known at once and the deposit was found later: its QR goes out from here.
      if (moved && deposit.status === "pending") await this.sendQr(moved, deposit);
      return !!moved;
    }
    // Refused, or never sent (the process stopped before the create): nothing to pay.
    const neverSent = deposit?.status === "draft" || (deposit === undefined && age > this.options.draftLostMs);
    if ((deposit && CLOSED_DEPOSIT.has(deposit.status)) || neverSent) {
      if (deposit?.status === "draft") await this.deps.ledger.cancelDraft(deposit.refId, "shop order not sent");
      return !!(await this.deps.orders.move(doc.id, "cancelled"));
    }
    return false; // "sending"/"unknown": the watcher looks the deposit up by its reference
  }

  /** Unpaid at expiry (or the customer cancels): the QR is cancelled at the provider, once. */
  async close(doc: OrderDoc, why: "expiry" | "customer"): Promise<boolean> {
    return !!(await this.deps.orders.move(doc.id, "cancelling", (v) => ({ ...v, closing: why }), ["awaiting_payment"]));
  }

  private async cancelAtProvider(doc: OrderDoc, deposit: Readonly<TxRecord> | undefined): Promise<boolean> {
    const key = await this.keyOf(doc.owner);
    if (!deposit || !key) return !!(await this.deps.orders.move(doc.id, doc.value.closing === "customer" ? "cancelled" : "expired"));
    const id = deposit.upstreamId ?? deposit.refId;
    let cancelled = false;
    // Asked once: marked (durable) before the call; a later look only asks the status.
    const asking = doc.value.cancelAsked ? undefined : await this.deps.orders.amend(doc, (v) => ({ ...v, cancelAsked: true }));
    if (asking) {
      try {
        cancelled = (await this.deps.upstream.cancelDeposit(key, id)).status === "cancel";
      } catch (err) {
        // Refused (already expired or paid) or no answer: the status below says which.
        if (!(err instanceof UpstreamError)) throw err;
      }
    }
    let status: string;
    try {
      status = (await this.deps.upstream.depositStatus(key, id)).status;
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      return false; // asked again at the next sweep
    }
    if (PAID_DEPOSIT.has(status)) {
      await this.deps.ledger.transition(deposit.refId, ["pending", "expired", "cancel"], { status: status as "processing" | "success" });
      await this.deps.ledger.flush();
      return this.paid(doc);
    }
    // A QR cancelled at the provider cannot be paid late: its record ends now. An expired one stays
    // watched a while (the watcher's late window), so a late payment is still found.
    if (cancelled || status === "cancel") await this.deps.ledger.transition(deposit.refId, ["pending", "sending", "unknown"], { status: "cancel" });
    return !!(await this.deps.orders.move(doc.id, doc.value.closing === "customer" ? "cancelled" : "expired"));
  }

  /**
   * Not flushed on its own: every way on from `paid` writes this same order durably before its provider
   * call or notice (buying, a release's mark, a notice's mark), and a move lost in a crash is made
   * again from the deposit's status. A paid customer waits for one disk write less.
   */
  private async paid(doc: OrderDoc): Promise<boolean> {
    return !!(await this.deps.orders.move(doc.id, "paid", (v) => ({ ...v, paidAt: this.deps.clock.now() }), undefined, false));
  }

  // ---- buying -----------------------------------------------------------------------------------

  /** paid -> buying: enough balance (or a release), then the attempt's reference saved, then the create. */
  private async buy(doc: OrderDoc, deposit: Readonly<TxRecord> | undefined): Promise<boolean> {
    const o = doc.value;
    const key = await this.keyOf(doc.owner);
    if (!key) return false;
    if (!(await this.balanceCovers(doc, key, deposit))) return false;
    if (o.purchaseRefs.length >= MAX_ATTEMPTS) return false;
    const purchaseRef = purchaseRefOf(doc.id, o.purchaseRefs.length + 1);
    const buying = await this.deps.orders.move(doc.id, "buying", (v) => ({ ...v, purchaseRefs: [...v.purchaseRefs, purchaseRef] }), ["paid"]);
    if (!buying) return true; // another path moved it: look again
    await this.purchase(buying, key);
    return true;
  }

  private async balanceCovers(doc: OrderDoc, key: string, deposit: Readonly<TxRecord> | undefined): Promise<boolean> {
    let balance: number | null;
    try {
      balance = await this.balanceOf(doc.owner, key, doc.value.cost);
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      return false;
    }
    // An unreadable balance: the purchase's own answer says whether it was enough.
    if (balance === null || balance >= doc.value.cost) return true;
    const settings = await orderSettingsOf(this.deps.shop?.(), doc.owner);
    if (settings.instantRelease && doc.value.release === undefined && deposit?.status === "processing" && deposit.upstreamId) {
      const marked = await this.deps.orders.amend(doc, (v) => ({ ...v, release: "sending" }));
      if (!marked) return false;
      let release: "done" | "refused" = "done";
      try {
        await this.deps.upstream.instantDeposit(key, { id: deposit.upstreamId, action: true });
        await this.deps.ledger.update(deposit.refId, { detail: { ...detailOf(deposit, "deposit"), instant: "done" } });
      } catch (err) {
        if (!(err instanceof UpstreamError)) throw err;
        release = err instanceof UpstreamRejected ? "refused" : "done"; // no answer: never asked twice
      }
      const latest = await this.deps.orders.get(doc.id);
      if (latest) await this.deps.orders.amend(latest, (v) => ({ ...v, release }));
      return release === "done";
    }
    if (!doc.value.waitingBalance) {
      const waiting = await this.deps.orders.amend(doc, (v) => ({ ...v, waitingBalance: true }));
      if (waiting) {
        await this.tellCustomer(waiting, "waiting", (t) => ({ text: t("shop-order-processing", { ref: doc.id }) }));
        const missing = doc.value.cost - balance;
        await this.tellOwner(waiting, "topup", (t, lang) => ({
          text: t("shop-order-owner-topup", { ref: doc.id, product: html(doc.value.productName), cost: rupiah(doc.value.cost, lang), balance: rupiah(balance, lang), missing: rupiah(missing, lang) }),
          markup: new InlineKeyboard().text(t("menu-deposit"), cb.menu.encode({ name: "deposit" })),
        }));
      }
    }
    return false;
  }

  /**
   * The purchase of the latest attempt: its record saved ("draft") and durable, moved to "sending" by a
   * compare-and-set made durable, then one create call. A "sending" mark the disk refused means the create
   * is known never to have left: the order fails at once (rule 8).
   */
  private async purchase(doc: OrderDoc, key: string): Promise<void> {
    const o = doc.value;
    const refId = o.purchaseRefs[o.purchaseRefs.length - 1]!;
    // Stopping: no record is made, so the next process buys it (rule 2) instead of finding a draft (rule 8).
    if (this.stopped) return;
    try {
      // Made durable with its sending mark by the claim: one disk write before the create, not two.
      await this.deps.money.reserve(
        { refId, chatId: doc.owner, kind: "prepaid", status: "draft", code: o.productCode, title: o.productName, target: o.target, amount: o.cost, sale: saleOf(o) },
        false,
      );
    } catch (err) {
      if (err instanceof DuplicateTxError) return; // made before (another process): its outcome settles it
      throw err;
    }
    const claim = await this.deps.money.claim(refId);
    if (!claim.claimed) {
      // Not saved: the create is known never to have left, so the order fails now (or, if the disk refuses
      // that too, at the next look, from the draft). Taken: cancelled meanwhile by a path that found it never sent.
      if (claim.reason === "not-saved") await this.notSent(doc.id, refId);
      return;
    }
    // Refused: nothing was bought. No answer: the money may have moved; never sent again.
    const outcome = await this.deps.money.send(claim.tx, async () => {
      const a = await this.deps.upstream.createTransaction(key, { code: o.productCode, reffId: refId, target: o.target, limitPrice: o.cost });
      return { upstreamId: a.id, status: a.status, sn: a.sn, amount: a.price > 0 ? a.price : o.cost };
    });
    if (outcome.kind === "answered" && outcome.tx.status === "pending") this.checkSoon(refId, 0);
  }

  /** The purchase's own early checks (a lost or refused callback costs no more than a few seconds). */
  private checkSoon(refId: string, attempt: number): void {
    const wait = PURCHASE_CHECKS_MS[attempt];
    if (wait === undefined || !this.deps.hurry || this.stopped) return;
    this.deps.clock.setTimeout(() => {
      if (this.stopped) return;
      const run = this.deps.ledger.get(refId).then((tx) => {
        if (tx?.status !== "pending") return;
        this.deps.hurry!(refId);
        this.checkSoon(refId, attempt + 1);
      });
      this.running.add(run);
      void run.catch(() => undefined).finally(() => this.running.delete(run));
    }, wait);
  }

  /** buying/unknown: the outcome is the purchase record's, as the watcher (or the create) left it. */
  private async settle(doc: OrderDoc): Promise<boolean> {
    const o = doc.value;
    const refId = o.purchaseRefs[o.purchaseRefs.length - 1];
    if (!refId) return false;
    const tx = await this.deps.ledger.get(refId);
    if (!tx) {
      // Saved as buying, stopped before the purchase record: nothing was sent, so it is sent now.
      const key = await this.keyOf(doc.owner);
      if (key && doc.state === "buying") await this.purchase(doc, key);
      return !!key && doc.state === "buying";
    }
    const open: OrderState[] = ["buying", "unknown"];
    if (tx.status === "draft" && doc.state === "buying") return this.notSent(doc.id, refId);
    if (tx.status === "success") return !!(await this.deps.orders.move(doc.id, "done", (v) => ({ ...v, sn: tx.sn ?? null }), open));
    if (tx.status === "failed") return !!(await this.deps.orders.move(doc.id, "failed", (v) => ({ ...v, message: (tx.message ?? "").slice(0, 500) }), open));
    if (tx.status === "unknown" && doc.state === "buying") return !!(await this.deps.orders.move(doc.id, "unknown", (v) => v, ["buying"]));
    if (doc.state !== "unknown") return false;
    await this.tellUnknown(doc);
    return this.askIfAbsent(doc, tx);
  }

  /** The attempt's record never got past "draft": its create never left, so the order fails at once (rule 8). */
  private async notSent(orderRef: string, refId: string): Promise<boolean> {
    await this.deps.ledger.cancelDraft(refId, "shop purchase not sent");
    return !!(await this.deps.orders.move(orderRef, "failed", (v) => ({ ...v, reason: "not_sent" }), ["buying"]));
  }

  /**
   * Rule 9: an unknown purchase the provider keeps answering "not found by our reference" for. Asked by
   * the job itself (at most every ABSENT_ASK_MS), each answer counted on the order; an answer that finds
   * it ends the count for good (and is saved, as any status check's). The ledger record stays unknown;
   * only the order moves to failed, "not_at_provider".
   */
  private async askIfAbsent(doc: OrderDoc, tx: Readonly<TxRecord>): Promise<boolean> {
    const o = doc.value;
    // The provider's id or any other status: the provider holds it (or said so); not "absent".
    if (tx.status !== "unknown" || tx.upstreamId !== undefined) return false;
    const counted = o.absent?.ref === tx.refId ? o.absent : undefined;
    const now = this.deps.clock.now();
    if (counted?.found || (counted && now - counted.lastAt < ABSENT_ASK_MS)) return false;
    const key = await this.keyOf(doc.owner);
    if (!key) return false;
    const asked = await refreshTx({ store: this.deps.store, upstream: this.deps.upstream, clock: this.deps.clock }, key, tx, { depositLateMs: DEFAULT_DEPOSIT_LATE_MS });
    const kind = asked.lookup.kind;
    const absent = {
      ref: tx.refId,
      answers: (counted?.answers ?? 0) + (kind === "not-found" ? 1 : 0),
      lastAt: now,
      ...(kind === "found" ? { found: true } : {}),
    };
    const amended = await this.deps.orders.amend(doc, (v) => ({ ...v, absent }));
    if (kind === "found") return true;
    if (!amended || absent.answers < ABSENT_ANSWERS || now - tx.createdAt < ABSENT_WINDOW_MS) return false;
    // A refused or unreachable key also reads as "not found": only a key that still answers makes
    // the provider's "not found" evidence about the purchase.
    if (!(await this.keyAnswers(key))) return false;
    return !!(await this.deps.orders.move(doc.id, "failed", (v) => ({ ...v, reason: "not_at_provider" }), ["unknown"]));
  }

  private async keyAnswers(key: string): Promise<boolean> {
    try {
      await this.deps.upstream.getProfile(key);
      return true;
    } catch (err) {
      if (err instanceof UpstreamError) return false;
      throw err;
    }
  }

  /**
   * An order failed as not at the provider whose purchase turned out successful after all: done, unless
   * a refund started (refunding, refunded); then the owner is told plainly that both happened.
   */
  private async foundAfterAll(doc: OrderDoc): Promise<boolean> {
    const o = doc.value;
    if (o.reason !== "not_at_provider") return false;
    const tx = await this.deps.ledger.get(o.purchaseRefs[o.purchaseRefs.length - 1] ?? "");
    if (tx?.status !== "success") return false;
    if (doc.state === "failed" || doc.state === "refund_requested") {
      return !!(await this.deps.orders.move(doc.id, "done", (v) => ({ ...v, sn: tx.sn ?? null }), ["failed", "refund_requested"]));
    }
    await this.tellOwner(doc, `both:${o.purchaseRefs.length}`, (t, lang) => ({ text: t("shop-order-owner-both", { ...this.ownerVars(doc, lang, tx), purchase: tx.refId }) }));
    return false;
  }

  // ---- refunds ----------------------------------------------------------------------------------

  private async refundOutcome(doc: OrderDoc): Promise<boolean> {
    const ref = doc.value.refundRef;
    const tx = ref ? await this.deps.ledger.get(ref) : undefined;
    if (tx?.status === "success") return !!(await this.deps.orders.move(doc.id, "refunded"));
    const stale = tx?.status === "draft" && this.deps.clock.now() - tx.createdAt > this.options.refundDraftMs;
    if (stale) await this.deps.ledger.cancelDraft(tx.refId, "refund not confirmed");
    if (!tx || tx.status === "failed" || tx.status === "cancel" || stale) {
      return !!(await this.deps.orders.move(doc.id, "refund_requested"));
    }
    return false;
  }

  // ---- notices ----------------------------------------------------------------------------------

  private async tellDone(doc: OrderDoc): Promise<void> {
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

  private async sendQr(doc: OrderDoc, deposit: Readonly<TxRecord> | undefined): Promise<void> {
    const qrString = deposit ? detailOf(deposit, "deposit").qrString : undefined;
    if (!qrString) return;
    await this.tellCustomer(doc, "qr", async () => {
      const { caption, keyboard } = qrNotice(this.deps.translate, this.deps.sandbox, doc);
      return { text: caption, photo: new InputFile(await qrisPng(qrString), `qris-${doc.id}.png`), markup: keyboard };
    });
  }

  /**
   * The QR photo's message once the order is paid: "payment received" under its caption, its buttons
   * gone. Marked like a notice; an edit Telegram refuses (too old, deleted, any 400) is given up, and
   * nothing of the order waits on it.
   */
  private async showPaidOnQr(doc: OrderDoc): Promise<void> {
    const o = doc.value;
    const name = "c:qr-paid";
    if (o.qrMessageId === undefined || !this.mayTell(doc, name)) return;
    const { caption } = qrNotice(this.deps.translate, this.deps.sandbox, doc);
    const line = this.deps.translate(o.lang, "shop-order-qr-paid", { time: wibTime(o.paidAt ?? this.deps.clock.now(), o.lang) });
    const api = this.deps.api;
    const edited = await this.deliverMarked(
      doc.id,
      name,
      () => api.editMessageCaption(o.customer, o.qrMessageId!, { caption: `${caption}\n\n${line}`.slice(0, 1024), parse_mode: "HTML", reply_markup: { inline_keyboard: [] } }),
      () => Promise.resolve(),
    );
    if (!edited) return;
    // Refused (too old, deleted, unchanged) or blocked: given up. Uncertain: left "sending", tried again once stale.
    if (edited.outcome === "sent" || edited.outcome === "blocked" || edited.outcome === "refused") await this.mark(doc.id, name, "sent");
  }

  private ownerVars(doc: OrderDoc, lang: string, tx?: Readonly<TxRecord>): Record<string, string> {
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

  private async tellFailed(doc: OrderDoc): Promise<void> {
    const o = doc.value;
    const n = o.purchaseRefs.length;
    if (o.reason === "not_at_provider") {
      // No other product: should the provider hold the first purchase after all, a second would buy twice.
      await this.tellCustomer(doc, `failed:${n}`, (t) => ({
        text: t("shop-order-failed-absent", { ref: doc.id, product: html(o.productName), amount: rupiah(o.price, o.lang) }),
        markup: new InlineKeyboard().text(t("shop-order-button-refund"), orderButton({ act: "refund", orderRef: doc.id })),
      }));
      await this.tellOwner(doc, `failed:${n}`, (t, lang) => ({ text: `${t("shop-order-owner-failed-absent", this.ownerVars(doc, lang))}\n${this.absentLine(doc, t)}` }));
      return;
    }
    const alternatives = await this.alternatives(doc).catch(() => []);
    // The words match the buttons: another product only when one is offered.
    const offered = alternatives.length > 0 ? "" : "-refund-only";
    const reason = this.customerReason(o.message);
    await this.tellCustomer(doc, `failed:${n}`, (t) => {
      const kb = new InlineKeyboard();
      for (const p of alternatives) kb.text(t("shop-order-button-alt", { product: p.name }), orderButton({ act: "alt", orderRef: doc.id, code: p.code })).row();
      kb.text(t("shop-order-button-refund"), orderButton({ act: "refund", orderRef: doc.id }));
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
    const key = await this.keyOf(doc.owner);
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

  private async tellUnknown(doc: OrderDoc): Promise<void> {
    const n = doc.value.purchaseRefs.length;
    await this.tellCustomer(doc, `unknown:${n}`, (t) => ({ text: t("shop-order-unknown", { ref: doc.id }) }));
    await this.tellOwner(doc, `unknown:${n}`, (t, lang) => ({ text: t("shop-order-owner-unknown", this.ownerVars(doc, lang)) }));
  }

  private async tellRefundRequested(doc: OrderDoc): Promise<void> {
    const o = doc.value;
    const n = `${o.refundRef ?? "0"}`;
    await this.tellOwner(doc, `refund:${n}`, (t, lang) => ({
      text: [t("shop-order-owner-refund", { ...this.ownerVars(doc, lang), bank: html(o.refundAccount?.bank ?? ""), account: html(o.refundAccount?.number ?? "") }), this.absentLine(doc, t)]
        .filter(Boolean)
        .join("\n"),
      markup: new InlineKeyboard().text(t("shop-order-button-payout"), orderButton({ act: "payout", orderRef: doc.id })),
    }));
  }

  private tellCustomer(doc: OrderDoc, name: string, make: Compose): Promise<void> {
    return this.tell(doc.id, `c:${name}`, doc.value.customer, doc.value.lang, make);
  }

  private async tellOwner(doc: OrderDoc, name: string, make: Compose): Promise<void> {
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
        signal: this.stopping.signal,
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

  /**
   * The owner's balance as far as this job knows: read from the provider, then lowered by each purchase
   * it starts, read again when it would not cover `cost` or after BALANCE_FRESH_MS (a burst of orders
   * costs one profile call, not one each). A purchase the balance did not cover still fails at the
   * provider, so the estimate can only delay an order, never overspend.
   */
  private async balanceOf(owner: number, key: string, cost: number): Promise<number | null> {
    const known = this.takeFromKnown(owner, cost);
    if (known !== undefined) return known;
    // One profile read per owner at a time: a burst of paid orders waits for the same one (before,
    // each order of the burst read its own: ~0.85 profile calls per order), then each takes its cost.
    let reading = this.balanceReads.get(owner);
    if (!reading) {
      const at = this.deps.clock.now();
      reading = this.deps.upstream.getProfile(key).then(({ balance }) => {
        if (balance === null) this.balances.delete(owner);
        else this.balances.set(owner, { balance, at });
        return balance;
      });
      this.balanceReads.set(owner, reading);
      void reading.catch(() => undefined).finally(() => this.balanceReads.delete(owner));
    }
    const balance = await reading;
    if (balance === null) return null;
    // Not covered by what is left of this read: that is the answer (no second read for the same burst).
    return this.takeFromKnown(owner, cost) ?? this.balances.get(owner)?.balance ?? balance;
  }

  /** The known balance before `cost` is taken from it, when it is fresh and covers `cost`; else undefined. */
  private takeFromKnown(owner: number, cost: number): number | undefined {
    const known = this.balances.get(owner);
    if (!known || known.balance < cost || this.deps.clock.now() - known.at >= BALANCE_FRESH_MS) return undefined;
    known.balance -= cost;
    return known.balance + cost;
  }

  private async keyOf(owner: number): Promise<string | undefined> {
    try {
      return await this.deps.store.getApiKey(owner);
    } catch {
      return undefined; // a wrong STORE_SECRET: nothing can be bought for this shop now
    }
  }
}

/** The QR photo's caption and buttons (HTML), in the customer's language: startPayment and the job send the same. */
export function qrNotice(translate: Translate, sandbox: boolean, doc: OrderDoc): { caption: string; keyboard: InlineKeyboard } {
  const o = doc.value;
  const t = (key: string, vars?: Record<string, string | number>) => translate(o.lang, key, vars);
  const caption = withSandboxBanner(
    translate,
    o.lang,
    sandbox,
    t("shop-order-qr", { product: html(o.productName), target: html(o.target), amount: rupiah(o.price, o.lang), expires: o.expiresAt ? wibTime(o.expiresAt, o.lang) : "-", ref: doc.id }),
  );
  const keyboard = new InlineKeyboard()
    .text(t("shop-order-button-check"), orderButton({ act: "check", orderRef: doc.id }))
    .text(t("shop-order-button-cancel"), orderButton({ act: "cancel", orderRef: doc.id }));
  return { caption, keyboard };
}

type Compose = (
  t: (key: string, vars?: Record<string, string | number>) => string,
  lang: string,
) => { text: string; photo?: InputFile; markup?: InlineKeyboard } | Promise<{ text: string; photo?: InputFile; markup?: InlineKeyboard }>;

export type { Order };
