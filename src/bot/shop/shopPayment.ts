/**
 * The one place the shop front meets the orders: it hands a checked order to `startPayment`
 * (features/shopPay.ts) and lists a customer's own orders (ShopOrders.listByCustomer).
 */
import type { BotContext } from "../context.js";

export { startPayment, type OrderInput } from "./shopPay.js";

/** An order as the customer's "Pesanan saya" lists it. */
export interface CustomerOrder {
  productName: string;
  target: string;
  state: string;
  createdAt: number;
}

/** The customer's orders in the owner's shop, newest first. */
export async function customerOrders(ctx: BotContext, owner: number, customer: number): Promise<CustomerOrder[]> {
  const docs = await ctx.deps.shopOrders.listByCustomer(owner, customer);
  return docs
    .map((d) => ({ productName: d.value.productName, target: d.value.target, state: d.state, createdAt: d.createdAt }))
    .sort((a, b) => b.createdAt - a.createdAt);
}
