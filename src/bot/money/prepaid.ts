/**
 * Prepaid purchases (pulsa, data, PLN tokens, game vouchers, e-money) on the shared confirm screen.
 * The confirmed price goes out as `limit_price`: if the provider's price rose in the meantime the
 * purchase is refused instead of costing more, and the user is told the new price.
 */
import { detailOf, type TxRecord } from "../../store/index.js";
import type { PrepaidProduct } from "../../upstream/types.js";
import type { BaseContext } from "../context.js";
import { html, rupiah } from "../../render/format.js";
import type { DraftFields, MoneyKind } from "./kinds.js";
import { recost } from "../../domain/pricing.js";
import { chatRules, chatSeller, quoteProduct } from "../pricing.js";
import { hidesCost } from "../middlewares/roleGate.js";

/**
 * The draft of a purchase of `product` for `target` at the product's listed price; `listAt`: the list
 * is the last one known, fetched then (the provider was slow), and the confirm screen says so.
 */
export function prepaidDraft(product: PrepaidProduct, target: string, listAt?: number): DraftFields {
  return {
    code: product.code,
    title: product.name,
    target,
    amount: product.price,
    detail: { category: product.category, provider: product.provider, ...(listAt !== undefined ? { listAt } : {}) },
  };
}

/** Why `product` must not be sold now (a fixed price a cost rise put below the cost), or undefined. */
export async function belowCostText(ctx: BaseContext, product: PrepaidProduct): Promise<string | undefined> {
  const sell = (await chatSeller(ctx))(product);
  if (sell.ok) return undefined;
  // A cashier the owner shows no cost to learns only that the owner must fix the price.
  if (await hidesCost(ctx)) return ctx.t("staff-below-cost", { name: html(product.name), code: html(product.code) });
  return ctx.t("prices-below-cost", { name: html(product.name), code: html(product.code), fixed: rupiah(sell.fixed, ctx.lang), cost: rupiah(sell.cost, ctx.lang) });
}

/** The product as the provider lists it right now (never the cached list). */
async function currentProduct(ctx: BaseContext, apiKey: string, code: string): Promise<PrepaidProduct | undefined> {
  const list = await ctx.deps.upstream.prepaidPriceList(apiKey, code);
  return list.find((p) => p.code === code) ?? list.find((p) => p.code.toLowerCase() === code.toLowerCase());
}

export const prepaidKind: MoneyKind = {
  kind: "prepaid",

  confirmText(ctx, tx, view) {
    // A cashier the owner shows no cost to sees the selling price alone.
    const price = view?.hideCost
      ? [`${ctx.t("topup-confirm-sale")}: <b>${rupiah(tx.sale?.price ?? tx.amount, ctx.lang)}</b>`]
      : tx.sale
      ? [
          `${ctx.t("topup-confirm-cost")}: ${rupiah(tx.amount, ctx.lang)}`,
          `${ctx.t("topup-confirm-sale")}: <b>${rupiah(tx.sale.price, ctx.lang)}</b>`,
          `${ctx.t("topup-confirm-profit")}: <b>${rupiah(tx.sale.profit, ctx.lang)}</b>`,
        ]
      : [`${ctx.t("topup-confirm-price")}: <b>${rupiah(tx.amount, ctx.lang)}</b>`];
    const listAt = detailOf(tx, "prepaid").listAt;
    const minutes = listAt === undefined ? undefined : Math.max(1, Math.floor((ctx.deps.clock.now() - listAt) / 60_000));
    return [
      `${ctx.t("topup-confirm-product")}: <b>${html(tx.title ?? tx.code ?? "")}</b>`,
      `${ctx.t("topup-confirm-code")}: <code>${html(tx.code ?? "")}</code>`,
      `${ctx.t("topup-confirm-target")}: <code>${html(tx.target ?? "")}</code>`,
      ...price,
      ...(minutes !== undefined ? [ctx.t("topup-confirm-old-list", { minutes })] : []),
    ].join("\n");
  },

  cost: (tx) => tx.amount,

  async sale(ctx, tx) {
    const { price, profit } = quoteProduct(await chatRules(ctx, tx.chatId), { code: tx.code ?? "", category: detailOf(tx, "prepaid").category ?? "", price: tx.amount });
    return { price, profit };
  },

  async create(ctx, apiKey, tx) {
    const answer = await ctx.deps.upstream.createTransaction(apiKey, {
      code: tx.code!,
      reffId: tx.refId,
      target: tx.target!,
      limitPrice: tx.amount,
    });
    return {
      upstreamId: answer.id,
      status: answer.status,
      sn: answer.sn,
      // What the provider charged (never above the confirmed price thanks to limit_price).
      amount: answer.price > 0 ? answer.price : tx.amount,
      ...(answer.price > 0 && answer.price !== tx.amount
        ? { detail: { ...detailOf(tx, "prepaid"), quotedPrice: tx.amount }, sale: recost(tx.sale, answer.price) }
        : {}),
    } satisfies Partial<TxRecord>;
  },

  async explainRejection(ctx, apiKey, tx) {
    const product = await currentProduct(ctx, apiKey, tx.code!);
    if (!product) return undefined;
    if (product.price > tx.amount) {
      // The cached list is stale: the next browse should show the new price.
      ctx.deps.lists.invalidate(apiKey);
      if (await hidesCost(ctx)) return ctx.t("topup-price-changed-hidden");
      return ctx.t("topup-price-changed", { old: rupiah(tx.amount, ctx.lang), price: rupiah(product.price, ctx.lang) });
    }
    if (!product.available) return ctx.t("topup-now-empty", { name: html(product.name) });
    return undefined;
  },

  async retryDraft(ctx, apiKey, tx) {
    const product = await currentProduct(ctx, apiKey, tx.code!);
    if (!product || !product.available || !tx.target) return undefined;
    // Never at a loss: said here, and the engine asks to start again.
    const refusal = await belowCostText(ctx, product);
    if (refusal) {
      await ctx.reply(refusal);
      return undefined;
    }
    // At today's price: the user confirms the new price explicitly on the new confirm screen.
    return prepaidDraft(product, tx.target);
  },
};
