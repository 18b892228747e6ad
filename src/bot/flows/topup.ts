/**
 * The purchase flow: asks for the target of one product (unless it came with the command),
 * validates it, and ends on the confirm screen. Entered with
 * `ctx.conversation.enter(TOPUP_FLOW, code, target?)`.
 */
import type { PrepaidProduct } from "../../upstream/types.js";
import { findByCode } from "../catalog.js";
import type { BaseContext, BotContext, BotConversation, ConvContext } from "../context.js";
import { html, rupiah } from "../../render/format.js";
import { hideKeys } from "../../domain/keyShape.js";
import { saveAndConfirm } from "../money/confirm.js";
import { prepaidDraft, prepaidKind } from "../money/prepaid.js";
import { failureText, withApiKey } from "../provider.js";
import { needsServer, targetKind, validateTarget } from "../targets.js";
import { suggestionsFor, wantedForProduct } from "../customers.js";
import { askText } from "./steps.js";
import { chatRules, quoteProduct } from "../pricing.js";
import { ledgerChat } from "../middlewares/roleGate.js";

export const TOPUP_FLOW = "topup";

/** A plain (JSON) answer, so it can cross `conversation.external`. */
export type PurchaseLookup =
  | { ok: true; product: PrepaidProduct }
  | { ok: false; text: string };

/** The product to buy from the (cached) price list, or the message that explains why not. */
export async function lookupForPurchase(ctx: BaseContext, code: string): Promise<PurchaseLookup> {
  const list = await withApiKey(ctx, (key) => ctx.deps.lists.prepaid(key));
  if (!list.ok) return { ok: false, text: failureText(ctx, list.failure) };
  const product = findByCode(list.value, code);
  if (!product) return { ok: false, text: ctx.t("topup-unknown-code", { code: html(hideKeys(code)) }) };
  if (!product.available) return { ok: false, text: ctx.t("topup-empty", { name: html(product.name), code: html(product.code) }) };
  return { ok: true, product };
}

/** Product, price and note, then what to type. */
export async function targetPrompt(ctx: BaseContext, product: PrepaidProduct): Promise<string> {
  const kind = targetKind(product);
  const ask = kind === "game" && needsServer(product) ? "target-ask-game-server" : `target-ask-${kind}`;
  // The price the list's button showed: the selling price, with the cost below when a rule applies (as /harga).
  const quote = quoteProduct(await chatRules(ctx), product);
  const sells = quote.source !== "none";
  const lines = [
    ctx.t("topup-product-line", { name: html(product.name), code: html(product.code), price: rupiah(sells ? quote.price : product.price) }),
    ...(sells ? [`<i>${ctx.t("prices-cost-line", { cost: rupiah(quote.cost) })}</i>`] : []),
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
): Promise<void> {
  if (typeof code !== "string") return;
  const found = await conversation.external(() => lookupForPurchase(ctx, code));
  if (!found.ok) {
    await ctx.reply(found.text);
    return;
  }
  const product = found.product;

  let target: string | undefined;
  let last = ctx;
  if (typeof presetTarget === "string" && presetTarget.trim()) {
    const checked = validateTarget(product, presetTarget);
    if (checked.ok) target = checked.value;
    else await ctx.reply(ctx.t(checked.error, checked.vars));
  }
  if (target === undefined) {
    const chatId = ledgerChat(ctx);
    const suggestions = await conversation.external(async () =>
      await suggestionsFor(ctx.deps, chatId, wantedForProduct(product, (t) => validateTarget(product, t).ok)),
    );
    const answer = await askText(conversation, ctx, await targetPrompt(ctx, product), {
      parse: (text) => validateTarget(product, text),
      suggestions,
    });
    if (!("value" in answer)) return;
    target = answer.value;
    last = answer.ctx;
  }

  // Price and stock as of now: the user may have taken a while to answer.
  const latest = await conversation.external(() => lookupForPurchase(last, product.code));
  if (!latest.ok) {
    await last.reply(latest.text);
    return;
  }
  const fields = prepaidDraft(latest.product, target);
  // Saving the draft writes the store: once, outside the replayed code, with the outside context.
  await conversation.external(async (outer: BotContext) => (await saveAndConfirm(outer, prepaidKind, fields)).refId);
}
