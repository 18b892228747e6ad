/**
 * /beli (/topup): without words, the price browser in buy mode; with a product code (and a target),
 * the purchase; with other words, a search to buy from.
 */
import { findByCode, searchProducts } from "../catalog.js";
import type { Composer } from "grammy";
import type { BotContext } from "../context.js";
import { html } from "../../render/format.js";
import { hideKeys } from "../../domain/keyShape.js";
import { requireMoneyKey } from "../guards.js";
import { buttonsShown } from "../middlewares/buttonWait.js";
import { whileAskingProvider } from "../slowAnswer.js";
import { commands } from "../../telegram/commands.js";
import { sameValueAlternatives } from "../../domain/alternatives.js";
import { loadOrExplain, show, showRoot } from "./priceBrowser.js";
import { emptyScreen, searchScreen } from "./priceScreens.js";
import { startPurchase } from "./prepaidPurchase.js";

/** Registers /beli on the topup feature's composer. */
export function addBuyCommand(composer: Composer<BotContext>): void {
  composer.command(commands.beli, async (ctx) => {
    const key = await requireMoneyKey(ctx);
    if (!key) return;
    const args = ctx.match.trim();
    if (!args) {
      await showRoot(ctx, "b", key);
      buttonsShown(ctx, "beli");
      return;
    }
    await whileAskingProvider(ctx, () => buyByCode(ctx, key, args));
  });
}

/** /beli CODE TARGET (or words to search): the confirm screen, or what is missing. */
async function buyByCode(ctx: BotContext, key: string, args: string): Promise<void> {
  // A slow provider: the last list known (the confirm screen says its age; the limit price guards the cost).
  const list = (await loadOrExplain(ctx, () => ctx.deps.lists.prepaidOrLast(key)))?.list;
  if (!list) return;
  const [first = "", ...rest] = args.split(/\s+/);
  const product = findByCode(list, first);
  if (product) {
    // Empty with nothing of the same face value to offer: said at once with the nearest, no flow.
    if (!product.available && sameValueAlternatives(list, product).length === 0) {
      await show(ctx, await emptyScreen(ctx, list, product));
      return;
    }
    await startPurchase(ctx, product.code, rest.join(" "));
    return;
  }
  // Not a code: words to search ("/beli tsel 10"), or a mistyped code.
  if (searchProducts(list, args).length > 0) await show(ctx, await searchScreen(ctx, "b", list, args, 0));
  else await ctx.reply(ctx.t("topup-unknown-code", { code: html(hideKeys(first)) }));
}
