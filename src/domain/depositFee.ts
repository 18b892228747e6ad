/** The provider's deposit fee: one formula for a reseller's own deposit and a shop customer's QRIS. */

/** A payment method's published fee: fixed rupiah plus a percentage. */
export interface FeeRule {
  fee: number;
  feePercent: number;
}

/** Fixed fee plus percentage of `amount`, rounded up as payment gateways do (hundredths of a percent, exact). */
export function depositFee(rule: FeeRule, amount: number): number {
  const bp = Math.round(rule.feePercent * 100);
  return rule.fee + Math.ceil((amount * bp) / 10_000);
}

/** The smallest amount whose credit after the fee covers `price` (Infinity when the fee takes everything). */
export function grossUp(rule: FeeRule, price: number): number {
  const bp = Math.round(rule.feePercent * 100);
  if (bp >= 10_000) return Number.POSITIVE_INFINITY;
  let pay = Math.max(price, Math.ceil(((price + rule.fee) * 10_000) / (10_000 - bp)));
  while (pay - depositFee(rule, pay) < price) pay++;
  while (pay > price && pay - 1 - depositFee(rule, pay - 1) >= price) pay--;
  return pay;
}
