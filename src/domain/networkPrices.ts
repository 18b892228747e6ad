/**
 * What each chat of a network's chain pays for one sale (docs/wallets.md "Prices" 4, "Commission" 5):
 * the top downline pays the owner's cost plus its level's markup; each downline below pays what its
 * upline pays plus that upline's markup for its own downlines. Pure: the chain is read elsewhere.
 */
import type { PricingRules } from "../store/index.js";
import { quotePrepaid } from "./pricing.js";
import { levelPrice, type Chain, type Network } from "./network.js";

/** What is sold: a prepaid product (markups by code and category) or a bill (the admin fee). */
export type ChainItem =
  | { readonly kind: "prepaid"; readonly code: string; readonly categoryKey: string; readonly cost: number }
  | { readonly kind: "bill"; readonly total: number; readonly cost: number };

/** One step down: never below the price above (a downline's markup has no fixed prices). */
function stepDown(rules: PricingRules, above: number, item: ChainItem): number {
  if (item.kind === "bill") return above + (rules.billFee ?? 0);
  const { fixed: _fixed, ...markups } = rules;
  return Math.max(above, quotePrepaid(markups, { code: item.code, categoryKey: item.categoryKey, cost: above }).price);
}

/** The prices from the top downline down to the buyer: `[top, ..., buyer]` (length = uplines + 1). */
export function chainPrices(chain: Chain, item: ChainItem): number[] {
  const top =
    item.kind === "bill" ? item.total + (chain.level.rules.billFee ?? 0) : levelPrice(chain.level, item.cost, item.code, item.categoryKey);
  const prices = [top];
  for (const up of chain.uplines) prices.push(stepDown(up.markup, prices.at(-1)!, item));
  return prices;
}

/** What each upline that is a downline earns on the buyer's purchase: the price below it less its own. */
export function commissionsOf(chain: Chain, prices: readonly number[]): { chat: number; amount: number }[] {
  return chain.uplines.map((up, i) => ({ chat: up.chat, amount: prices[i + 1]! - prices[i]! }));
}

/** What a chain priced one sale at: the top downline's price (the owner's sale), the buyer's, each upline's commission. */
export interface PricedDownChain {
  readonly top: number;
  readonly price: number;
  readonly commissions: { chat: number; amount: number }[];
}

/**
 * The one pricing down a chain, for the bot's confirm screen and for H2H alike: `chat`'s chain as its
 * record says now; undefined when it has none (not a downline) or nothing is sold down a chain.
 */
export async function priceDownChain(network: Pick<Network, "chain">, chat: number, item: ChainItem | undefined): Promise<PricedDownChain | undefined> {
  if (!item) return undefined;
  const chain = await network.chain(chat);
  if (!chain) return undefined;
  const prices = chainPrices(chain, item);
  return { top: prices[0]!, price: prices.at(-1)!, commissions: commissionsOf(chain, prices) };
}
