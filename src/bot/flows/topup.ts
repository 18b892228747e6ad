/**
 * The purchase flow: asks for the target of one product (unless it came with the command),
 * validates it, and ends on the confirm screen. Entered with
 * `ctx.conversation.enter(TOPUP_FLOW, code, target?, outOfOrder?)`. A product that is out of order
 * (listed empty, or `outOfOrder`: the provider just refused it as such) first offers the products
 * of the same face value to pick from; whatever is picked goes on to the same confirm screen.
 */
import type { PrepaidProduct } from "../../upstream/types.js";
import { findByCode } from "../catalog.js";
import type { BaseContext, BotContext, BotConversation, ConvContext } from "../context.js";
import { html, productName, rupiah } from "../../render/format.js";
import { hideKeys } from "../../domain/keyShape.js";
import { saveAndConfirm } from "../money/confirm.js";
import { belowCostText, prepaidDraft, prepaidKind } from "../money/prepaid.js";
import { failureText, withApiKey } from "../provider.js";
import { needsServer, targetKind, validateTarget } from "../targets.js";
import { suggestionsFor, wantedForProduct, type OfferedFrom } from "../savedCustomers.js";
import { askChoice, askText } from "./steps.js";
import { chatSeller, quoteOf } from "../pricing.js";
import { customersChat, hidesCost, ledgerChat, seesTx } from "../middlewares/roleGate.js";
import { sameValueAlternatives } from "../../domain/alternatives.js";

export const TOPUP_FLOW = "topup";

/**
 * Another product of the same face value, with what it sells for under the chat's rules and what it
 * costs (left out for a cashier the owner shows no cost to).
 */
export interface Alternative {
  product: PrepaidProduct;
  cost?: number;
  price: number;
}

/** A plain (JSON) answer, so it can cross `conversation.external`. */
export type PurchaseLookup =
  /** `listAt`: the product is from the last list known, fetched then (the provider is slow). */
  | { ok: true; product: PrepaidProduct; listAt?: number }
  /** `text` says why; `alternatives` (under their own `title`) are what can be bought instead. */
  | { ok: false; text: string; alternatives?: { title: string; items: Alternative[] } };

/**
 * The product to buy from the (cached) price list, or the message that explains why not; for a
 * product out of order (`outOfOrder`: the provider refused it so, whatever the list says), the
 * products of the same face value that can be bought instead.
 */
export async function lookupForPurchase(ctx: BaseContext, code: string, outOfOrder = false): Promise<PurchaseLookup> {
  const read = await withApiKey(ctx, (key) => ctx.deps.lists.prepaidOrLast(key));
  if (!read.ok) return { ok: false, text: failureText(ctx, read.failure) };
  const list = { value: read.value.list };
  const product = findByCode(list.value, code);
  if (!product) return { ok: false, text: ctx.t("topup-unknown-code", { code: html(hideKeys(code)) }) };
  if (!product.available || outOfOrder) {
    const text = ctx.t("topup-empty", { name: html(product.name), code: html(product.code) });
    const others = sameValueAlternatives(list.value, product);
    if (others.length === 0) return { ok: false, text };
    const seller = await chatSeller(ctx);
    const showCost = !(await hidesCost(ctx));
    const alternatives = others
      .map((p) => ({ p, sell: seller(p) }))
      // One whose fixed price is below its cost is no way out: it cannot be sold either.
      .flatMap(({ p, sell }) => (sell.ok ? [{ product: p, price: sell.quote.price, ...(showCost ? { cost: p.price } : {}) }] : []));
    if (alternatives.length === 0) return { ok: false, text };
    return { ok: false, text, alternatives: { title: ctx.t("prices-alt-title", { name: html(product.name), code: html(product.code) }), items: alternatives } };
  }
  return { ok: true, product, ...(read.value.listAt !== undefined ? { listAt: read.value.listAt } : {}) };
}

/** The alternatives as a list (selling price, and cost when shown) above their buttons; the picked product, if any. */
async function pickAlternative(
  conversation: BotConversation,
  ctx: ConvContext,
  text: string,
  alternatives: readonly Alternative[],
): Promise<{ product: PrepaidProduct; ctx: ConvContext }> {
  const lines = alternatives.map((a) => {
    const named = { name: html(a.product.name), code: html(a.product.code), price: rupiah(a.price, ctx.lang) };
    return a.cost === undefined ? ctx.t("staff-alt-line", named) : ctx.t("prices-alt-line", { ...named, cost: rupiah(a.cost, ctx.lang) });
  });
  const choices = alternatives.map((a) => ({ label: `${productName(a.product.name, ctx.lang)} · ${rupiah(a.price, ctx.lang)}`, value: a.product.code }));
  const picked = await askChoice(conversation, ctx, [text, "", ...lines, "", ctx.t("prices-alt-pick")].join("\n"), choices);
  return { product: alternatives.find((a) => a.product.code === picked.value)!.product, ctx: picked.ctx };
}

/** Product, price and note, then what to type. */
export async function targetPrompt(ctx: BaseContext, product: PrepaidProduct): Promise<string> {
  const kind = targetKind(product);
  const ask = kind === "game" && needsServer(product) ? "target-ask-game-server" : `target-ask-${kind}`;
  // The price the list's button showed: the selling price, with the cost below when a rule applies and
  // this chat may see it (as /harga).
  const quote = quoteOf((await chatSeller(ctx))(product));
  const sells = quote.source !== "none";
  const showCost = sells && !(await hidesCost(ctx));
  const lines = [
    ctx.t("topup-product-line", { name: html(productName(product.name, ctx.lang)), code: html(product.code), price: rupiah(sells ? quote.price : product.price, ctx.lang) }),
    ...(showCost ? [`<i>${ctx.t("prices-cost-line", { cost: rupiah(quote.cost, ctx.lang) })}</i>`] : []),
    ...(product.note.trim() ? [ctx.t("topup-note-line", { note: html(product.note.trim()) })] : []),
    "",
    ctx.t(ask),
  ];
  return lines.join("\n");
}

export async function topupFlow(
  conversation: BotConversation,
  ctx: ConvContext,
  code?: unknown,
  presetTarget?: unknown,
  outOfOrder?: unknown,
): Promise<void> {
  if (typeof code !== "string") return;
  const found = await conversation.external((outside) => lookupForPurchase(outside, code, outOfOrder === true));
  let product: PrepaidProduct;
  let last = ctx;
  if (found.ok) product = found.product;
  else if (found.alternatives) ({ product, ctx: last } = await pickAlternative(conversation, ctx, found.alternatives.title, found.alternatives.items));
  else {
    await ctx.reply(found.text);
    return;
  }
  // A fixed price below the cost is refused before the target is asked for.
  const early = await conversation.external(() => belowCostText(last, product));
  if (early) {
    await last.reply(early);
    return;
  }

  let target: string | undefined;
  if (typeof presetTarget === "string" && presetTarget.trim()) {
    const checked = validateTarget(product, presetTarget);
    if (checked.ok) target = checked.value;
    else await last.reply(last.t(checked.error, checked.vars));
  }
  if (target === undefined) {
    const from: OfferedFrom = { ledger: ledgerChat(last), customers: customersChat(last), sees: (tx) => seesTx(last, tx) };
    const suggestions = await conversation.external(async () =>
      await suggestionsFor(last.deps, from, wantedForProduct(product, (t) => validateTarget(product, t).ok)),
    );
    const answer = await askText(conversation, last, await targetPrompt(last, product), {
      parse: (text) => validateTarget(product, text),
      suggestions,
    });
    if (!("value" in answer)) return;
    target = answer.value;
    last = answer.ctx;
  }

  // Price and stock as of now: the user may have taken a while to answer.
  const latest = await conversation.external((outside) => lookupForPurchase(outside, product.code));
  if (!latest.ok) {
    await last.reply(latest.text);
    return;
  }
  // The cost may have risen above a fixed price meanwhile: never sold at a loss.
  const refusal = await conversation.external(() => belowCostText(last, latest.product));
  if (refusal) {
    await last.reply(refusal);
    return;
  }
  const fields = prepaidDraft(latest.product, target, latest.listAt);
  // Saving the draft writes the store: once, outside the replayed code, with the outside context.
  await conversation.external(async (outer: BotContext) => (await saveAndConfirm(outer, prepaidKind, fields)).refId);
}
