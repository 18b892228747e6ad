/** The chat's selling-price rules as the bot reads them (the rules themselves: domain/pricing.ts). */
import { quotePrepaid, type Quote } from "../domain/pricing.js";
import type { PricingRules } from "../store/index.js";
import type { PrepaidProduct } from "../upstream/types.js";
import { groupKey } from "../domain/groupKey.js";
import type { BaseContext } from "./context.js";
import { ledgerChat } from "./middlewares/roleGate.js";

/**
 * The rules of `chatId`, by default of the chat whose ledger this one sells on (staff: the owner's). A
 * downline's prices on its owner's ledger are its level's: cost plus the level's markup (docs/wallets.md),
 * so every price it reads (lists, confirm screens, its wallet's debit) is its own.
 */
export async function chatRules(ctx: BaseContext, chatId = ctx.chat && ledgerChat(ctx)): Promise<PricingRules> {
  if (chatId === undefined) return {};
  const role = ctx.role;
  if (role.kind === "downline" && chatId === role.owner) {
    const levels = await ctx.deps.network.levels(role.owner);
    return (levels[role.level] ?? levels[0]!).rules;
  }
  return ctx.deps.settings.pricing(chatId);
}

/** A product's selling price under `rules`; category rules are kept by category key. */
export function quoteProduct(rules: PricingRules, product: Pick<PrepaidProduct, "code" | "category" | "price">): Quote {
  return quotePrepaid(rules, { code: product.code, categoryKey: groupKey(product.category), cost: product.price });
}
