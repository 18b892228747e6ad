/**
 * A shop order: what a customer bought from a reseller's online shop, paid by a QRIS deposit made
 * with the reseller's key and fulfilled by a purchase with the same key (docs/shop-orders.md holds
 * the money rules). The order is a document of kind `shop_order` whose state is the state machine's
 * state; every move is a compare-and-set on that state through the store, made durable before the
 * provider call it leads to, so of two racing paths exactly one goes on.
 */
import * as z from "../../tools/zod.js";
import { randomBytes } from "node:crypto";
import { formatWib } from "../../tools/time.js";
import type { Doc, DocKind, DocStore } from "./shopDocs.js";

export const ORDER_STATES = [
  "draft",
  "awaiting_payment",
  "paid",
  "buying",
  "done",
  "failed",
  "unknown",
  "cancelling",
  "cancelled",
  "expired",
  "refund_requested",
  "refunding",
  "refunded",
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** Every move the machine allows: from -> the states it may go to. Nothing else is ever written. */
export const TRANSITIONS: Readonly<Record<OrderState, readonly OrderState[]>> = {
  // The deposit's create answered (or, after an unknown answer, a lookup by depositRef found it / found nothing).
  draft: ["awaiting_payment", "cancelled"],
  awaiting_payment: ["paid", "cancelling"],
  // The cancel was sent once; the status then says which end it came to (paid after all included).
  cancelling: ["cancelled", "expired", "paid"],
  // Paid shortly after it showed expired (or cancelled): still found, still fulfilled.
  expired: ["paid"],
  cancelled: ["paid"],
  // Only paid -> buying starts a purchase.
  paid: ["buying"],
  buying: ["done", "failed", "unknown"],
  unknown: ["done", "failed"],
  // Another product for the same amount, or the refund the customer asked for; done when a purchase the
  // provider had no record of is found successful after all, before any refund started.
  failed: ["buying", "refund_requested", "done"],
  refund_requested: ["refunding", "done"],
  // The owner confirmed the transfer: its success makes the order refunded, its failure asks again.
  refunding: ["refunded", "refund_requested"],
  done: [],
  refunded: [],
};

export function mayMove(from: OrderState, to: OrderState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The states a move to `to` may start from (the compare-and-set's `expect.states`). */
export function sourcesOf(to: OrderState): OrderState[] {
  return ORDER_STATES.filter((from) => mayMove(from, to));
}

/** Not paid yet: counted by the per-customer and per-shop limits. */
export const UNPAID_STATES: readonly OrderState[] = ["draft", "awaiting_payment"];
/** Money taken and something still to do: the job looks at these until they end. */
export const WORKING_STATES: readonly OrderState[] = ["draft", "awaiting_payment", "cancelling", "paid", "buying", "unknown", "refunding"];
/** Paid (or later): the QR's message no longer offers "Cek pembayaran" or cancel. */
export const PAID_STATES: readonly OrderState[] = ["paid", "buying", "done", "failed", "unknown", "refund_requested", "refunding", "refunded"];
/** Closed unpaid, but a late payment may still show up (the deposit is asked again a while). */
export const CLOSED_UNPAID_STATES: readonly OrderState[] = ["expired", "cancelled"];

/** A notice the order owes someone: "sending" is saved before it goes out, "sent" after. */
export const NoticeMarkSchema = z.enum(["sending", "sent"]);

export const OrderSchema = z.object({
  customer: z.int(),
  customerName: z.string().check(z.maxLength(200)),
  productCode: z.string().check(z.minLength(1), z.maxLength(100)),
  productName: z.string().check(z.maxLength(300)),
  target: z.string().check(z.minLength(1), z.maxLength(100)),
  /** What the customer pays (the QRIS fee included when the customer carries it). */
  price: z.int(),
  /** The cost the order was priced at: the purchase's limit_price. */
  cost: z.int(),
  /** The QRIS fee (estimated at order time, the provider's figure once known). */
  fee: z.int(),
  feePayer: z.enum(["customer", "reseller"]),
  lang: z.string(),
  /** The deposit's reference, saved with the order before the create call. */
  depositRef: z.string(),
  /** One reference per purchase attempt, the newest last; each saved before its create call. */
  purchaseRefs: z.array(z.string()),
  /** Epoch ms the QR stops being payable (the provider's expired_at). */
  expiresAt: z.optional(z.number()),
  /** The QR photo's message in the customer's chat. */
  qrMessageId: z.optional(z.int()),
  paidAt: z.optional(z.number()),
  /** What the provider said last: SN/token on success, the reason on failure. */
  sn: z.optional(z.nullable(z.string())),
  message: z.optional(z.string().check(z.maxLength(500))),
  /** /deposit/cancel was asked (once, marked before the call). */
  cancelAsked: z.optional(z.boolean()),
  /** Why the QR was closed: its expiry, or the customer's cancel. */
  closing: z.optional(z.enum(["expiry", "customer"])),
  /** Instant release of the deposit (low balance): asked once. */
  release: z.optional(z.enum(["sending", "done", "refused"])),
  /** The owner was told the balance is too low for this order (once). */
  waitingBalance: z.optional(z.boolean()),
  /** Where the customer wants a refund: bank or e-wallet code and account number. */
  refundAccount: z.optional(z.object({ bank: z.string().check(z.maxLength(30)), number: z.string().check(z.maxLength(40)) })),
  /** The message asking the customer which account the refund goes to (its reply carries the answer). */
  refundPromptId: z.optional(z.int()),
  /**
   * Why the order failed when the bot knows more than the provider said: the purchase's create never
   * left (`not_sent`), or the provider kept answering "not found" for it (`not_at_provider`).
   */
  reason: z.optional(z.enum(["not_sent", "not_at_provider"])),
  /**
   * The job's own status asks for the unknown purchase `ref` by our reference: how many answered "not
   * found", when it asked last, and whether an answer ever found it (then it is never "not at the provider").
   */
  absent: z.optional(z.object({ ref: z.string(), answers: z.int(), lastAt: z.number(), found: z.optional(z.boolean()) })),
  /** The refund transfer's reference (the owner's ledger), saved before its confirm screen. */
  refundRef: z.optional(z.string()),
  /** Notices by name (see `noticeKeys`): recorded as sent so a restart neither repeats nor loses one. */
  notices: z.record(z.string(), NoticeMarkSchema),
});
export type Order = z.infer<typeof OrderSchema>;
export type OrderDoc = Doc<Order>;

export const OrderKind: DocKind<Order> = { name: "shop_order", schema: OrderSchema };

// ---- references -----------------------------------------------------------------------------------
// The order, its deposit, its purchase attempts and its refund share one random core, so any of their
// transactions leads back to the order by its reference alone (the ledger's rows carry no order field).

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const CORE = /^(SO|SQ|SP|SR)(\d{6}[A-Z2-9]{8})(\d?)$/;

export function newOrderRef(now: number): string {
  const date = formatWib(now).slice(2, 10).replace(/-/g, "");
  let rand = "";
  for (const b of randomBytes(8)) rand += ALPHABET[b % ALPHABET.length];
  return `SO${date}${rand}`;
}

const coreOf = (orderRef: string) => orderRef.slice(2);
export const depositRefOf = (orderRef: string) => `SQ${coreOf(orderRef)}`;
/** Attempt 1, 2, ...: a single digit (a shop order gets at most 9 purchase attempts). */
export const purchaseRefOf = (orderRef: string, attempt: number) => `SP${coreOf(orderRef)}${attempt}`;
export const refundRefOf = (orderRef: string, attempt: number) => `SR${coreOf(orderRef)}${attempt}`;
export const MAX_ATTEMPTS = 9;

/** The order a transaction belongs to, from its reference; undefined for the reseller's own. */
export function orderRefOfTx(refId: string): string | undefined {
  const m = CORE.exec(refId);
  return m ? `SO${m[2]}` : undefined;
}

/** The deposit and purchases of an order are told by the order's own notices, not the watcher's (the refund is an ordinary transfer). */
export function toldByOrder(refId: string): boolean {
  return orderRefOfTx(refId) !== undefined && !refId.startsWith("SR");
}

/** What the purchase of a shop order is to the owner's reports: a sale at the paid price less the QRIS fee. */
export function saleOf(order: Order): { price: number; profit: number } {
  const price = order.price - order.fee;
  return { price, profit: price - order.cost };
}

const DAY = 86_400_000;
const WIB = 7 * 3_600_000;
/** 00:00 WIB of the day containing `at` (the shop's daily cap counts from there). */
export function wibDayStart(at: number): number {
  return Math.floor((at + WIB) / DAY) * DAY - WIB;
}

// ---- the service ----------------------------------------------------------------------------------

export type OrderStore = DocStore;

/**
 * Orders over the store: every write a compare-and-set on the state, durable before it returns. Each
 * waits for its own document only (flushDoc): in a burst of orders a whole-store flush waited for a
 * pass over every file the other orders' steps had changed.
 */
export class ShopOrders {
  constructor(private readonly store: OrderStore) {}

  async create(orderRef: string, owner: number, value: Order): Promise<OrderDoc> {
    const doc = await this.store.createDoc<Order>(OrderKind, { id: orderRef, owner, state: "draft", value });
    await this.store.flushDoc(OrderKind, orderRef);
    return doc;
  }

  get(orderRef: string): Promise<OrderDoc | undefined> {
    return this.store.getDoc(OrderKind, orderRef);
  }

  /**
   * Moves the order to `to` only if it is still in one of the states that may lead there (and in
   * `from`, when given); undefined when another path moved it first. Durable when it resolves, unless
   * `durable` is false: then the caller's next write of this same order is flushed before any provider
   * call or notice (the document's latest version carries this move too).
   */
  async move(orderRef: string, to: OrderState, change: (value: Order) => Order = (v) => v, from?: readonly OrderState[], durable = true): Promise<OrderDoc | undefined> {
    const states = sourcesOf(to).filter((s) => from === undefined || from.includes(s));
    // The state is the compare-and-set; a version moved by a value-only change (a notice's mark) is
    // read again and the change applied to it, so a QR edit's mark never makes a money step wait.
    for (let tries = 0; tries < 5; tries++) {
      const current = await this.get(orderRef);
      if (!current || !states.includes(current.state as OrderState)) return undefined;
      const moved = await this.store.updateDoc(OrderKind, orderRef, { states, version: current.version }, { state: to, value: change(current.value) });
      if (moved) {
        if (durable) await this.store.flushDoc(OrderKind, orderRef);
        return moved;
      }
    }
    return undefined;
  }

  /** Changes the value only, if the document is still the version read (notices, message ids). */
  async amend(doc: OrderDoc, change: (value: Order) => Order): Promise<OrderDoc | undefined> {
    const amended = await this.store.updateDoc(OrderKind, doc.id, { version: doc.version }, { value: change(doc.value) });
    if (amended) await this.store.flushDoc(OrderKind, doc.id);
    return amended;
  }

  listByCustomer(owner: number, customer: number): Promise<OrderDoc[]> {
    return this.store.listDocs(OrderKind, { owner }).then((docs) => docs.filter((d) => d.value.customer === customer));
  }

  listByOwner(owner: number, states?: readonly OrderState[], createdSince?: number): Promise<OrderDoc[]> {
    return this.store.listDocs(OrderKind, { owner, ...(states ? { states } : {}), ...(createdSince !== undefined ? { createdSince } : {}) });
  }

  /** Every shop's orders in `states` (the job's sweep). */
  inStates(states: readonly OrderState[], createdSince?: number): Promise<OrderDoc[]> {
    return this.store.listDocs(OrderKind, { states, ...(createdSince !== undefined ? { createdSince } : {}) });
  }
}
