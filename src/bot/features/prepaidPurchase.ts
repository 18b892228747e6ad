/**
 * Starting a prepaid purchase (the purchase flow), and the prepaid money kind: after a create the
 * provider refused as out of order, the flow offers the products of the same face value.
 */
import { findByCode } from "../catalog.js";
import type { BotContext } from "../context.js";
import { TOPUP_FLOW } from "../flows/topup.js";
import { requireStorage } from "../guards.js";
import { prepaidKind } from "../money/prepaid.js";
import type { MoneyKind } from "../money/kinds.js";
import { isOutOfOrderAnswer, sameValueAlternatives } from "../../domain/alternatives.js";

/**
 * Starts the purchase flow (leaving whatever flow was running). `outOfOrder`: the provider refused
 * `code` as out of order, so the flow offers the products of the same face value first.
 */
export async function startPurchase(ctx: BotContext, code: string, target?: string, outOfOrder = false): Promise<void> {
  if (!(await requireStorage(ctx))) return;
  await ctx.conversation.exitAll();
  await ctx.conversation.enter(TOPUP_FLOW, code, target ?? "", ...(outOfOrder ? [true] : []));
}

/**
 * Prepaid purchases, and after a create the provider refused as out of order: the products of the same
 * face value to buy for the same target instead (the purchase flow, so again through a confirm screen).
 */
export const prepaidPurchases: MoneyKind = {
  ...prepaidKind,
  async explainRejection(ctx, apiKey, tx, err) {
    const said = await prepaidKind.explainRejection?.(ctx, apiKey, tx, err);
    if (!tx.code || !tx.target || !("conversation" in ctx)) return said;
    const list = await ctx.deps.lists.prepaid(apiKey).catch(() => undefined);
    const product = list ? findByCode(list, tx.code) : undefined;
    if (!list || !product || (product.available && !isOutOfOrderAnswer(err.providerMessage))) return said;
    if (sameValueAlternatives(list, product).length === 0) return said;
    await startPurchase(ctx as BotContext, product.code, tx.target, true);
    return [said, ctx.t("prices-alt-above")].filter(Boolean).join("\n");
  },
};
