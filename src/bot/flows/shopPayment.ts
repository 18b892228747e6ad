/**
 * The one place the shop hands a checked order to the payment (the orders' features/shopPay.ts,
 * `startPayment(ctx, input)`): the shopfront calls only this name with this input.
 */
import type { Lang } from "../../store/index.js";
import type { BotContext } from "../context.js";

export interface OrderInput {
  owner: number;
  customer: number;
  customerName: string;
  productCode: string;
  productName: string;
  target: string;
  /** What the customer pays, the QRIS fee included when the customer carries it. */
  price: number;
  /** The cost the order was priced at. */
  cost: number;
  fee: number;
  feePayer: "customer" | "reseller";
  lang: Lang;
}

export const payment = {
  /** Replaced by the orders' startPayment once it is on this branch. */
  startPayment(_ctx: BotContext, _input: OrderInput): Promise<void> {
    return Promise.reject(new Error("startPayment is not wired yet"));
  },
};

export function startPayment(ctx: BotContext, input: OrderInput): Promise<void> {
  return payment.startPayment(ctx, input);
}

/** An order as the customer's "Pesanan saya" lists it. */
export interface CustomerOrder {
  productName: string;
  target: string;
  state: string;
  createdAt: number;
}

/** The customer's orders in the owner's shop, newest first (the orders' ShopOrders.listByCustomer). */
export function customerOrders(_ctx: BotContext, _owner: number, _customer: number): Promise<CustomerOrder[]> {
  return Promise.resolve([]);
}
