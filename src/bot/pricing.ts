/** The chat's selling-price rules as the bot reads them (the rules themselves: domain/pricing.ts). */
import { quotePrepaid, sellingPriceOrRefusal, type Quote, type SellingPrice } from "../domain/pricing.js";
import { chainPrices, priceDownChain, type ChainItem } from "../domain/networkPrices.js";
import { detailOf, type PricingRules, type TxRecord } from "../store/index.js";
import type { PrepaidProduct } from "../upstream/types.js";
import { groupKey } from "../domain/groupKey.js";
import type { BaseContext } from "./context.js";
import { ledgerChat } from "./middlewares/roleGate.js";

/**
 * The rules of `chatId`, by default of the chat whose ledger this one sells on (staff: the owner's). On
 * its owner's ledger a downline's rules are its top downline's level (cost plus the level's markup): the
 * sale the owner's reports count (docs/wallets.md). What the downline itself pays and reads: chatSeller.
 */
export async function chatRules(ctx: BaseContext, chatId = ctx.chat && ledgerChat(ctx)): Promise<PricingRules> {
  if (chatId === undefined) return {};
  const role = ctx.role;
  if (role.kind === "downline" && chatId === role.owner) {
    const chain = await ctx.deps.network.chain(ctx.chat!.id);
    if (chain) return chain.level.rules;
    const levels = await ctx.deps.network.levels(role.owner);
    return (levels[role.level] ?? levels[0]!).rules;
  }
  return ctx.deps.settings.pricing(chatId);
}

/** A product's selling price under `rules`; category rules are kept by category key. */
export function quoteProduct(rules: PricingRules, product: Pick<PrepaidProduct, "code" | "category" | "price">): Quote {
  return quotePrepaid(rules, { code: product.code, categoryKey: groupKey(product.category), cost: product.price });
}

type Product = Pick<PrepaidProduct, "code" | "category" | "price">;

/** The chat whose selling prices /markup and /hargajual set: a downline's own (on top of its price), else the ledger's. */
export function sellingChat(ctx: BaseContext): number {
  return ctx.role.kind === "downline" ? ctx.chat!.id : ledgerChat(ctx);
}

/** The selling rules /markup shows and edits: a downline's own for its customers, else chatRules. */
export async function sellingRules(ctx: BaseContext): Promise<PricingRules> {
  return ctx.role.kind === "downline" ? ctx.deps.settings.pricing(ctx.chat!.id) : chatRules(ctx);
}

/** A selling price as a quote, a refused one (a fixed price below the cost) at its fixed price. */
export function quoteOf(sold: SellingPrice): Quote {
  return sold.ok ? sold.quote : { cost: sold.cost, price: sold.fixed, profit: sold.fixed - sold.cost, source: "fixed" };
}

/**
 * What this chat's own screens sell a product at (lists, prompts, alternatives). A downline's "cost" is
 * its own price down its chain (never the owner's), its selling price its own rules on top of that.
 */
export async function chatSeller(ctx: BaseContext): Promise<(p: Product) => SellingPrice> {
  const rules = await chatRules(ctx);
  if (ctx.role.kind !== "downline") return (p) => sellingPriceOrRefusal(rules, { code: p.code, categoryKey: groupKey(p.category), cost: p.price });
  const [chain, own] = await Promise.all([ctx.deps.network.chain(ctx.chat!.id), sellingRules(ctx)]);
  return (p) => {
    const categoryKey = groupKey(p.category);
    const pays = chain ? chainPrices(chain, { kind: "prepaid", code: p.code, categoryKey, cost: p.price }).at(-1)! : quotePrepaid(rules, { code: p.code, categoryKey, cost: p.price }).price;
    const sold = sellingPriceOrRefusal(own, { code: p.code, categoryKey, cost: pays });
    // Always a price of its own ("all"): a screen showing the list's price would show the owner's cost.
    return sold.ok && sold.quote.source === "none" ? { ok: true, quote: { ...sold.quote, source: "all" } } : sold;
  };
}

/**
 * What a downline's wallet pays for the drafted sale, and what each upline that is a downline earns on
 * it; `salePrice` (the top level's price) when the chain cannot be read or the kind has no chain.
 */
export async function downlinePrice(ctx: BaseContext, tx: TxRecord, salePrice: number): Promise<{ price: number; commissions: { chat: number; amount: number }[]; resale?: number }> {
  const { price, commissions } = await chainPrice(ctx, tx, salePrice);
  // Its own selling price on top (its receipts), never what it pays.
  const own = await sellingRules(ctx);
  const resale =
    tx.kind === "prepaid"
      ? quoteOf(sellingPriceOrRefusal(own, { code: tx.code ?? "", categoryKey: groupKey(detailOf(tx, "prepaid").category ?? ""), cost: price })).price
      : tx.kind === "postpaid"
        ? price + (own.billFee ?? 0)
        : price;
  return { price, commissions, ...(resale !== price ? { resale } : {}) };
}

async function chainPrice(ctx: BaseContext, tx: TxRecord, salePrice: number): Promise<{ price: number; commissions: { chat: number; amount: number }[] }> {
  const item: ChainItem | undefined =
    tx.kind === "prepaid"
      ? { kind: "prepaid", code: tx.code ?? "", categoryKey: groupKey(detailOf(tx, "prepaid").category ?? ""), cost: tx.amount }
      : tx.kind === "postpaid"
        ? { kind: "bill", total: tx.amount, cost: detailOf(tx, "postpaid").cost ?? tx.amount }
        : undefined;
  const priced = await priceDownChain(ctx.deps.network, ctx.chat!.id, item);
  // A direct downline: its level's price (salePrice) earns no upline a commission.
  if (!priced || priced.commissions.length === 0) return { price: salePrice, commissions: [] };
  return { price: priced.price, commissions: priced.commissions };
}
