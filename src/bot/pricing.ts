/** The chat's selling-price rules as the bot reads them (the rules themselves: domain/pricing.ts). */
import { quotePrepaid, type Quote } from "../domain/pricing.js";
import type { PricingRules } from "../store/index.js";
import type { PrepaidProduct } from "../upstream/types.js";
import { groupKey } from "../domain/groupKey.js";
import type { BaseContext } from "./context.js";
import { ledgerChat } from "./middlewares/roleGate.js";

/** The rules of `chatId`, by default of the chat whose ledger this one sells on (staff: the owner's). */
export async function chatRules(ctx: BaseContext, chatId = ctx.chat && ledgerChat(ctx)): Promise<PricingRules> {
  return chatId === undefined ? {} : ctx.deps.settings.pricing(chatId);
}

/** A product's selling price under `rules`; category rules are kept by category key. */
export function quoteProduct(rules: PricingRules, product: Pick<PrepaidProduct, "code" | "category" | "price">): Quote {
  return quotePrepaid(rules, { code: product.code, categoryKey: groupKey(product.category), cost: product.price });
}
