/**
 * A shop order's purchase: enough balance (or the paid deposit's instant release), the attempt's
 * reference saved with the order, the one create through the money engine, then its outcome read from
 * the purchase record (rules 2, 8 and 9 of docs/shop-orders.md).
 */
import type { TxRecord } from "../../store/index.js";
import { detailOf, DuplicateTxError } from "../../store/index.js";
import { UpstreamError, UpstreamRejected } from "../../upstream/errors.js";
import { html, rupiah } from "../../render/format.js";
import { DEFAULT_DEPOSIT_LATE_MS, refreshTx } from "../../domain/refresh.js";
import { MAX_ATTEMPTS, purchaseRefOf, saleOf, type OrderDoc, type OrderState } from "../../domain/shop/orders.js";
import { orderSettingsOf } from "../../domain/shop/orderSettings.js";
import { ownerKey, type JobLife, type ShopOrderJobDeps } from "./orderJobDeps.js";
import type { OrderNotices } from "./orderNotices.js";
import { topUpKeyboard } from "./orderKeyboards.js";

/** A balance read this recently is trusted, lowered by each purchase started since (balanceOf). */
const BALANCE_FRESH_MS = 30_000;

/**
 * A purchase left unknown is asked by our reference at most this often by the order job itself; three
 * "not found" answers, the last at least ABSENT_WINDOW_MS after the create, make it "not at the provider".
 */
const ABSENT_ASK_MS = 15 * 60_000;
const ABSENT_ANSWERS = 3;
const ABSENT_WINDOW_MS = 30 * 60_000;

/** After a purchase's create answered pending: its status is asked at these delays (ms), until it ends. */
const PURCHASE_CHECKS_MS = [1_500, 3_000, 6_000, 12_000];

export class OrderPurchases {
  private readonly balances = new Map<number, { balance: number; at: number }>();
  /** The profile read under way per owner (balanceOf). */
  private readonly balanceReads = new Map<number, Promise<number | null>>();

  constructor(
    private readonly deps: ShopOrderJobDeps,
    private readonly notices: OrderNotices,
    private readonly life: JobLife,
  ) {}

  /** paid -> buying: enough balance (or a release), then the attempt's reference saved, then the create. */
  async buy(doc: OrderDoc, deposit: Readonly<TxRecord> | undefined): Promise<boolean> {
    const o = doc.value;
    const key = await ownerKey(this.deps.store, doc.owner);
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
        await this.notices.tellCustomer(waiting, "waiting", (t) => ({ text: t("shop-order-processing", { ref: doc.id }) }));
        const missing = doc.value.cost - balance;
        await this.notices.tellOwner(waiting, "topup", (t, lang) => ({
          text: t("shop-order-owner-topup", { ref: doc.id, product: html(doc.value.productName), cost: rupiah(doc.value.cost, lang), balance: rupiah(balance, lang), missing: rupiah(missing, lang) }),
          markup: topUpKeyboard(t),
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
    if (this.life.stopped()) return;
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
    if (wait === undefined || !this.deps.hurry || this.life.stopped()) return;
    this.deps.clock.setTimeout(() => {
      if (this.life.stopped()) return;
      const run = this.deps.ledger.get(refId).then((tx) => {
        if (tx?.status !== "pending") return;
        this.deps.hurry!(refId);
        this.checkSoon(refId, attempt + 1);
      });
      this.life.track(run.catch(() => undefined));
    }, wait);
  }

  /** buying/unknown: the outcome is the purchase record's, as the watcher (or the create) left it. */
  async settle(doc: OrderDoc): Promise<boolean> {
    const o = doc.value;
    const refId = o.purchaseRefs[o.purchaseRefs.length - 1];
    if (!refId) return false;
    const tx = await this.deps.ledger.get(refId);
    if (!tx) {
      // Saved as buying, stopped before the purchase record: nothing was sent, so it is sent now.
      const key = await ownerKey(this.deps.store, doc.owner);
      if (key && doc.state === "buying") await this.purchase(doc, key);
      return !!key && doc.state === "buying";
    }
    const open: OrderState[] = ["buying", "unknown"];
    if (tx.status === "draft" && doc.state === "buying") return this.notSent(doc.id, refId);
    if (tx.status === "success") return !!(await this.deps.orders.move(doc.id, "done", (v) => ({ ...v, sn: tx.sn ?? null }), open));
    if (tx.status === "failed") return !!(await this.deps.orders.move(doc.id, "failed", (v) => ({ ...v, message: (tx.message ?? "").slice(0, 500) }), open));
    if (tx.status === "unknown" && doc.state === "buying") return !!(await this.deps.orders.move(doc.id, "unknown", (v) => v, ["buying"]));
    if (doc.state !== "unknown") return false;
    await this.notices.tellUnknown(doc);
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
    const key = await ownerKey(this.deps.store, doc.owner);
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
  async foundAfterAll(doc: OrderDoc): Promise<boolean> {
    const o = doc.value;
    if (o.reason !== "not_at_provider") return false;
    const tx = await this.deps.ledger.get(o.purchaseRefs[o.purchaseRefs.length - 1] ?? "");
    if (tx?.status !== "success") return false;
    if (doc.state === "failed" || doc.state === "refund_requested") {
      return !!(await this.deps.orders.move(doc.id, "done", (v) => ({ ...v, sn: tx.sn ?? null }), ["failed", "refund_requested"]));
    }
    await this.notices.tellOwner(doc, `both:${o.purchaseRefs.length}`, (t, lang) => ({ text: t("shop-order-owner-both", { ...this.notices.ownerVars(doc, lang, tx), purchase: tx.refId }) }));
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
}
