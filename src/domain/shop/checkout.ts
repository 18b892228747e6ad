/**
 * What a customer pays for one product of a shop, pure. The QRIS fee (the provider's deposit method:
 * a fixed part plus hundredths of a percent, rounded up) is carried by whom the shop says: the
 * customer (added: the smallest amount whose credit after the fee still covers the selling price) or
 * the reseller (taken from the margin). A product the QRIS cannot carry (outside the method's limits)
 * or that would be sold below its cost has no quote: the shop does not offer it.
 */
import type { FeePayer } from "./settings.js";
import { depositFee, grossUp } from "../depositFee.js";

export interface QrisMethod {
  fee: number;
  feePercent: number;
  min: number;
  max: number;
}

export interface ShopQuote {
  /** The reseller's selling price of the product. */
  price: number;
  /** What the provider charges the reseller for it. */
  cost: number;
  /** The QRIS amount the customer pays (fee included when the customer carries it). */
  pay: number;
  /** The provider's QRIS fee on `pay`. */
  fee: number;
  /** What the reseller keeps: pay - fee - cost. */
  profit: number;
}

/**
 * `step`: what the customer pays is rounded up to it (the shop's choice, default Rp100: no Rp12.589), the
 * reseller's margin taking the rest.
 */
export function shopQuote(price: number, cost: number, method: QrisMethod, feePayer: FeePayer, step = 1): ShopQuote | undefined {
  const exact = feePayer === "customer" ? grossUp(method, price) : price;
  const pay = step > 1 ? Math.ceil(exact / step) * step : exact;
  if (!Number.isFinite(pay) || pay < method.min || pay > method.max) return undefined;
  const fee = depositFee(method, pay);
  const profit = pay - fee - cost;
  if (profit < 0) return undefined;
  return { price, cost, pay, fee, profit };
}
