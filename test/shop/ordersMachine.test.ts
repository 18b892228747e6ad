/** The order's state machine as a table, and its moves as compare-and-sets (docs/shop-orders.md rules 1-2). */
import { describe, expect, it } from "vitest";
import {
  depositRefOf,
  mayMove,
  newOrderRef,
  ORDER_STATES,
  orderRefOfTx,
  purchaseRefOf,
  refundRefOf,
  ShopOrders,
  sourcesOf,
  TRANSITIONS,
  type Order,
  type OrderState,
} from "../../src/domain/shop/orders.js";
import type { Doc, DocStore } from "../../src/domain/shop/shopDocs.js";

/** A one-process document store with the contract's compare-and-set (the real ones are tested in test/store). */
function memoryDocs(): DocStore {
  const docs = new Map<string, Doc<unknown>>();
  let at = 0;
  return {
    async createDoc(kind, input) {
      const key = `${kind.name}/${input.id}`;
      if (docs.has(key)) throw new Error("duplicate");
      const doc = Object.freeze({ kind: kind.name, ...input, version: 1, createdAt: ++at, updatedAt: at });
      docs.set(key, doc as Doc<unknown>);
      return doc;
    },
    async getDoc(kind, id) {
      return docs.get(`${kind.name}/${id}`) as never;
    },
    async updateDoc(kind, id, expect, change) {
      await Promise.resolve();
      const cur = docs.get(`${kind.name}/${id}`);
      if (!cur) return undefined;
      if (expect.version !== undefined && cur.version !== expect.version) return undefined;
      if (expect.states && !expect.states.includes(cur.state)) return undefined;
      const next = Object.freeze({ ...cur, ...change, version: cur.version + 1, updatedAt: ++at });
      docs.set(`${kind.name}/${id}`, next as Doc<unknown>);
      return next as never;
    },
    async listDocs(kind, q) {
      return [...docs.values()].filter((d) => d.kind === kind.name && (q.owner === undefined || d.owner === q.owner) && (!q.states || q.states.includes(d.state))) as never;
    },
    async flush() {},
    async flushDoc() {},
  };
}

const order: Order = {
  customer: 2001,
  customerName: "Sari",
  productCode: "TSEL10",
  productName: "Telkomsel 10.000",
  target: "081234567890",
  price: 11_500,
  cost: 10_200,
  fee: 81,
  feePayer: "customer",
  lang: "id",
  depositRef: "SQ260115ABCDEFGH",
  purchaseRefs: [],
  notices: {},
};

describe("the order's state machine", () => {
  it("allows exactly the moves of docs/shop-orders.md", () => {
    const table: Record<OrderState, OrderState[]> = {
      draft: ["awaiting_payment", "cancelled"],
      awaiting_payment: ["paid", "cancelling"],
      cancelling: ["cancelled", "expired", "paid"],
      expired: ["paid"],
      cancelled: ["paid"],
      paid: ["buying"],
      buying: ["done", "failed", "unknown"],
      unknown: ["done", "failed"],
      failed: ["buying", "refund_requested", "done"],
      refund_requested: ["refunding", "done"],
      refunding: ["refunded", "refund_requested"],
      done: [],
      refunded: [],
    };
    for (const from of ORDER_STATES) {
      for (const to of ORDER_STATES) expect(mayMove(from, to), `${from} -> ${to}`).toBe(table[from].includes(to));
    }
    expect(TRANSITIONS).toEqual(table);
  });

  it("starts a purchase only from paid or, for another product, from failed", () => {
    expect(sourcesOf("buying").sort()).toEqual(["failed", "paid"]);
    expect(sourcesOf("paid").sort()).toEqual(["awaiting_payment", "cancelled", "cancelling", "expired"]);
    expect(sourcesOf("refunded")).toEqual(["refunding"]);
  });

  it("leads every transaction of an order back to it by its reference, and no one else's", () => {
    const ref = newOrderRef(Date.UTC(2026, 10, 25, 3));
    expect(ref).toMatch(/^SO261125[A-Z2-9]{8}$/);
    for (const tx of [depositRefOf(ref), purchaseRefOf(ref, 1), purchaseRefOf(ref, 2), refundRefOf(ref, 1)]) expect(orderRefOfTx(tx)).toBe(ref);
    expect(orderRefOfTx("TP261125ABCDEFGH")).toBeUndefined();
    expect(orderRefOfTx("DP261125ABCDEFGH")).toBeUndefined();
  });
});

describe("ShopOrders moves", () => {
  it("refuses a move the table does not allow, and leaves the order as it was", async () => {
    const orders = new ShopOrders(memoryDocs());
    await orders.create("SO260115ABCDEFGH", 1001, order);
    expect(await orders.move("SO260115ABCDEFGH", "buying")).toBeUndefined();
    expect((await orders.get("SO260115ABCDEFGH"))?.state).toBe("draft");
  });

  it("of two racing paths to paid -> buying, exactly one wins", async () => {
    const orders = new ShopOrders(memoryDocs());
    await orders.create("SO260115ABCDEFGH", 1001, order);
    await orders.move("SO260115ABCDEFGH", "awaiting_payment");
    const paid = await Promise.all([orders.move("SO260115ABCDEFGH", "paid"), orders.move("SO260115ABCDEFGH", "paid")]);
    expect(paid.filter(Boolean)).toHaveLength(1);
    const buying = await Promise.all([1, 2].map(() => orders.move("SO260115ABCDEFGH", "buying", (v) => ({ ...v, purchaseRefs: [...v.purchaseRefs, "x"] }))));
    expect(buying.filter(Boolean)).toHaveLength(1);
    expect((await orders.get("SO260115ABCDEFGH"))?.value.purchaseRefs).toEqual(["x"]);
  });
});
