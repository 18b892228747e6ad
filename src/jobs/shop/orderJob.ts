/**
 * Shop orders after the QR: payment, expiry, the purchase, its outcome, the notices, refunds
 * (docs/shop-orders.md). Every step is the same loop: read the order, look at the transaction its state
 * waits on, make the one compare-and-set that follows, then the provider call or the notice it leads to.
 * The walk over the states is here; the purchase (orderPurchases.ts) and the notices (orderNotices.ts)
 * are their own rooms.
 *
 * Triggers: the watcher saved a change of an order's transaction (`txChanged`, its named listener),
 * a create answered (`created` event), the customer's "Cek pembayaran", and a sweep every `sweepMs`
 * over the orders still working (so a restart, a lost callback or an expiry is picked up). Steps of
 * one order run one at a time here; across processes the compare-and-sets decide.

 */
import { PAID_DEPOSIT } from "../../store/index.js";
import type { TimerHandle } from "../../tools/clock.js";
import type { TxRecord } from "../../store/index.js";
import { detailOf } from "../../store/index.js";
import { UpstreamError } from "../../upstream/errors.js";
import { html, rupiah } from "../../render/format.js";
import { CLOSED_UNPAID_STATES, PAID_STATES, orderRefOfTx, WORKING_STATES, type OrderDoc, type OrderState } from "../../domain/shop/orders.js";
import { DEFAULT_SHOP_ORDER_OPTIONS, ownerKey, type ShopOrderJobDeps, type ShopOrderJobOptions } from "./orderJobDeps.js";
import { OrderNotices } from "./orderNotices.js";
import { OrderPurchases } from "./orderPurchases.js";

/** How long a closed unpaid order is looked at for a late payment (the watcher keeps its deposit open 30 min past expiry). */
const CLOSED_WATCH_MS = 2 * 3_600_000;
/** The notices an ended order owes (tellDone, the refunded notice): the sweep looks again while one is not sent. */
const ENDED_NOTICES: Partial<Record<OrderState, readonly string[]>> = { done: ["c:done", "o:done"], refunded: ["c:refunded"] };

const CLOSED_DEPOSIT = new Set(["cancel", "failed", "expired"]);

export class ShopOrderJob {
  readonly options: ShopOrderJobOptions;
  private readonly chains = new Map<string, Promise<void>>();
  private readonly running = new Set<Promise<unknown>>();
  /** Orders whose QR edit runs beside their steps now. */
  private readonly besideRunning = new Set<string>();
  /** Orders asked to be shown again while their QR edit ran. */
  private readonly besideAgain = new Set<string>();
  private timer: TimerHandle | undefined;
  private stopped = false;
  /** Aborted by stop(): notices still waiting for a slot in Telegram's pace give it up (unmarked, so the sweep sends them after a restart). */
  private readonly stopping = new AbortController();
  private readonly notices: OrderNotices;
  private readonly purchases: OrderPurchases;

  constructor(private readonly deps: ShopOrderJobDeps) {
    this.options = { ...DEFAULT_SHOP_ORDER_OPTIONS, ...deps.options };
    this.notices = new OrderNotices(deps, this.stopping.signal);
    const life = { stopped: () => this.stopped, track: (work: Promise<unknown>) => this.track(work) };
    this.purchases = new OrderPurchases(deps, this.notices, life);
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
      await this.deps.alsoSweep?.();
    })()
      .catch((err: unknown) => this.deps.logger.error({ err }, "the shop order sweep failed"))
      .finally(() => {
        if (!this.stopped) this.timer = this.deps.clock.setTimeout(() => this.sweep(), this.options.sweepMs);
      });
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  private async walk(orderRef: string): Promise<void> {
    for (let moves = 0; moves < 12; moves++) {
      const doc = await this.deps.orders.get(orderRef);
      if (!doc || !(await this.step(doc))) return;
    }
  }

  /**
   * One step: true when the order moved (look again), false when it waits for something. Once an order
   * waits paid or closed, its QR message is shown so beside the order's steps, not in them: in a burst
   * the edit waits for Telegram's pace behind every other message, and the purchase's outcome must not.
   */
  private async step(doc: OrderDoc): Promise<boolean> {
    if (await this.stepState(doc)) return true;
    const state = doc.state as OrderState;
    if (PAID_STATES.includes(state) || CLOSED_UNPAID_STATES.includes(state)) this.qrBeside(doc.id);
    return false;
  }

  /**
   * Shows the order's state on its QR message outside the order's chain, once at a time per order,
   * tracked for idle() and stop(). Asked while one runs (closed, then paid late): looked at again after.
   */
  private qrBeside(orderRef: string): void {
    if (this.besideRunning.has(orderRef)) {
      this.besideAgain.add(orderRef);
      return;
    }
    this.besideRunning.add(orderRef);
    const run = (async () => {
      do {
        this.besideAgain.delete(orderRef);
        const doc = await this.deps.orders.get(orderRef);
        if (doc) await this.notices.showOnQr(doc);
      } while (this.besideAgain.has(orderRef) && !this.stopped);
    })()
      .catch((err: unknown) => this.deps.logger.error({ err, orderRef }, "a shop order's QR edit failed; the sweep tries again"))
      .finally(() => {
        this.besideRunning.delete(orderRef);
        this.besideAgain.delete(orderRef);
      });
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
        if (o.notices["c:qr"] !== "sent" && this.deps.clock.now() - doc.updatedAt > this.options.draftLostMs) await this.notices.sendQr(doc, deposit);
        return false;
      case "cancelling":
        return this.cancelAtProvider(doc, deposit);
      case "expired":
      case "cancelled":
        // Paid after all (a late QRIS, a cancel that crossed the payment): fulfilled all the same.
        if (deposit && PAID_DEPOSIT.has(deposit.status)) return this.paid(doc);
        await this.notices.tellCustomer(doc, `closed:${state}`, (t) => ({ text: t(`shop-order-${state}`, { ref: doc.id, product: html(o.productName) }) }));
        return false;
      case "paid":
        return this.purchases.buy(doc, deposit);
      case "buying":
      case "unknown":
        return this.purchases.settle(doc);
      case "done":
        await this.notices.tellDone(doc);
        return false;
      case "failed":
        if (await this.purchases.foundAfterAll(doc)) return true;
        await this.notices.tellFailed(doc);
        return false;
      case "refund_requested":
        if (await this.purchases.foundAfterAll(doc)) return true;
        await this.notices.tellRefundRequested(doc);
        return false;
      case "refunding":
        await this.purchases.foundAfterAll(doc);
        return this.refundOutcome(doc);
      case "refunded":
        await this.purchases.foundAfterAll(doc);
        await this.notices.tellCustomer(doc, "refunded", (t) => ({ text: t("shop-order-refunded", { ref: doc.id, amount: rupiah(o.price, o.lang) }) }));
        return false;
    }
  }

  private async fromDraft(doc: OrderDoc, deposit: Readonly<TxRecord> | undefined): Promise<boolean> {
    const age = this.deps.clock.now() - doc.createdAt;
    if (deposit?.status === "pending" && !detailOf(deposit, "deposit").qrString) {
      // The create's answer was lost and the status has no QR to show: nobody can pay it. Closed at the provider.
      const key = await ownerKey(this.deps.store, doc.owner);
      if (key) await this.deps.upstream.cancelDeposit(key, deposit.upstreamId ?? deposit.refId).catch(() => undefined);
      await this.deps.ledger.transition(deposit.refId, ["pending"], { status: "cancel" });
      return !!(await this.deps.orders.move(doc.id, "cancelled", (v) => ({ ...v, cancelAsked: true })));
    }
    if (deposit && (deposit.status === "pending" || PAID_DEPOSIT.has(deposit.status))) {
      const expiresAt = detailOf(deposit, "deposit").expiresAt ?? undefined;
      const moved = await this.deps.orders.move(doc.id, "awaiting_payment", (v) => ({ ...v, ...(expiresAt ? { expiresAt } : {}) }));
      // The create's answer was not known at once and the deposit was found later: its QR goes out from here.
      if (moved && deposit.status === "pending") await this.notices.sendQr(moved, deposit);
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
    const key = await ownerKey(this.deps.store, doc.owner);
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

  /** Products of the same operator or biller the paid amount still covers with a margin, nearest in cost first. */
  alternatives(doc: OrderDoc): Promise<{ code: string; name: string; cost: number }[]> {
    return this.notices.alternatives(doc);
  }

  /** Background work stop() and idle() wait for. */
  private track(work: Promise<unknown>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }
}
