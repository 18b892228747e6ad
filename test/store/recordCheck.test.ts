import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { OrderSchema, type Order } from "../../src/domain/shop/orders.js";
import { exactCheck } from "../../src/store/recordCheck.js";
import { TxRecordSchema, type TxRecord } from "../../src/store/records.js";
import * as z from "../../src/tools/zod.js";

/** What a write must hold to: the quick check says yes only where zod passes the value and gives it back unchanged (keys in any order). */
function agreesWithZod(schema: z.core.$ZodType, value: unknown): { quick: boolean; zodAsIs: boolean } {
  const check = exactCheck(schema);
  if (!check) throw new Error("no quick check for this schema");
  const parsed = z.safeParse(schema, value);
  return { quick: check(value), zodAsIs: parsed.success && isDeepStrictEqual(parsed.data, value) };
}

const order: Order = {
  customer: 2001,
  customerName: "Sari",
  productCode: "PLN20",
  productName: "PLN 20.000",
  target: "12345678901",
  price: 21_500,
  cost: 20_200,
  fee: 150,
  feePayer: "customer",
  lang: "id",
  depositRef: "SQ260115ABCDEFGH",
  purchaseRefs: ["SP260115ABCDEFGH"],
  sn: null,
  refundAccount: { bank: "DANA", number: "081234567890" },
  notices: { paid: "sent", receipt: "sending" },
};

const tx: TxRecord = {
  refId: "SP260115ABCDEFGH",
  chatId: 1001,
  kind: "prepaid",
  status: "pending",
  code: "PLN20",
  target: "12345678901",
  amount: 20_200,
  createdAt: 1,
  updatedAt: 2,
};

describe("the store's quick check of written values", () => {
  it("says yes to a shop order and a transaction that zod gives back as they are", () => {
    expect(agreesWithZod(OrderSchema, order)).toEqual({ quick: true, zodAsIs: true });
    expect(agreesWithZod(TxRecordSchema, tx)).toEqual({ quick: true, zodAsIs: true });
  });

  it("says no wherever zod refuses or changes the value", () => {
    const orders: unknown[] = [
      { ...order, customerName: "x".repeat(201) }, // max length
      { ...order, productCode: "" }, // min length
      { ...order, price: 1.5 }, // not an int
      { ...order, feePayer: "nobody" }, // enum
      { ...order, extra: 1 }, // a key zod drops
      { ...order, notices: { paid: "read" } }, // a record's value
      { ...order, notices: JSON.parse('{"__proto__":"sent"}') as unknown }, // a key zod's record skips
      { ...order, notices: [] }, // not a record
      { ...order, refundAccount: { bank: "DANA" } }, // a required key missing
      { ...order, sn: 5 },
    ];
    for (const value of orders) expect(agreesWithZod(OrderSchema, value)).toEqual({ quick: false, zodAsIs: false });
    const txs: unknown[] = [{ ...tx, kind: "gift" }, { ...tx, status: "lost" }, { ...tx, chatId: 1.5 }, { ...tx, amount: "20200" }, { ...tx, refId: undefined }];
    for (const value of txs) expect(agreesWithZod(TxRecordSchema, value)).toEqual({ quick: false, zodAsIs: false });
  });

  it("is not made for a schema with a part it would leave to zod (it would parse twice)", () => {
    expect(exactCheck(z.object({ at: z.pipe(z.string(), z.transform((s) => s.length)) }))).toBeUndefined();
    expect(exactCheck(z.object({ tags: z.record(z.enum(["a", "b"]), z.string()) }))).toBeUndefined();
  });
});
