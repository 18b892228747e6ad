/**
 * What a transfer's fee can be before the provider says it. The provider tells the fee only in its
 * answer to the create call: its bank list and its account check carry none (upstream-api-spec 2.4,
 * 2.5). So a chat's first transfer to a kind of destination shows the most such a transfer costs,
 * and the balance check holds that much back.
 */

export type DestinationType = "bank" | "ewallet";

/**
 * The most a transfer costs by destination: Rp6.500 is the interbank online-transfer fee (the
 * highest of the schemes; BI-FAST is Rp2.500), e-wallet top-ups cost at most Rp2.500. A fee above
 * it would still be charged and shown on the receipt: this bounds what the confirm screen promises.
 */
export const TRANSFER_FEE_MAX: Readonly<Record<DestinationType, number>> = { bank: 6_500, ewallet: 2_500 };
