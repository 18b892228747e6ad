/**
 * Prices and top-up: /harga (/prices) browses or searches the price list (an arrow on a cost that
 * moved today; `/harga ringkasan` sets the daily price digest), /beli (/topup) buys; an empty product,
 * or a create refused as out of order, offers the products of the same face value.
 *
 * The parts: the browser's screens (priceScreens.ts) and buttons (priceBrowser.ts), /beli
 * (buyCommand.ts), the digest setting (priceDigestSetting.ts), the purchase's start and money kind
 * (prepaidPurchase.ts). Categories and providers are named by short slugs and products by code
 * (catalog.ts), so the callback data stays under Telegram's 64 bytes.
 */
import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import { topupFlow, TOPUP_FLOW } from "../flows/topup.js";
import { requireKey, requireMoneyKey } from "../guards.js";
import type { FeatureModule } from "../module.js";
import { commands } from "../../telegram/commands.js";
import { refusalText } from "../middlewares/roleGate.js";
import { addBrowserButtons, showRoot, showSearch } from "./priceBrowser.js";
import type { Mode } from "./priceScreens.js";
import { addBuyCommand } from "./buyCommand.js";
import { digestSetting } from "./priceDigestSetting.js";
import { prepaidPurchases } from "./prepaidPurchase.js";

const composer = new Composer<BotContext>();

composer.command(commands.harga, async (ctx) => {
  const key = await requireKey(ctx);
  if (!key) return;
  const args = ctx.match.trim();
  if (/^(refresh|perbarui|segarkan)$/i.test(args)) {
    if (ctx.from && ctx.deps.adminIds.includes(ctx.from.id)) {
      ctx.deps.lists.invalidate();
      await ctx.reply(ctx.t("prices-refreshed-all"));
      return;
    }
    ctx.deps.lists.invalidate(key);
    await ctx.reply(ctx.t("prices-refreshed"));
    await showRoot(ctx, "h", key);
    return;
  }
  const digest = /^(ringkasan|digest)(?:\s+(.*))?$/i.exec(args);
  if (digest) {
    // The digest is the owner's own daily message about costs: staff neither get it nor set it.
    if (ctx.role.kind === "staff") {
      await ctx.reply(refusalText(ctx, "owner", `/${commands.harga[0]} ${digest[1]!.toLowerCase()}`));
      return;
    }
    await digestSetting(ctx, digest[2]?.trim() ?? "");
    return;
  }
  if (!args) await showRoot(ctx, "h", key);
  else await showSearch(ctx, "h", key, args);
});

addBuyCommand(composer);
addBrowserButtons(composer);

async function menuAction(ctx: BotContext, mode: Mode): Promise<void> {
  const key = await (mode === "b" ? requireMoneyKey(ctx) : requireKey(ctx));
  if (key) await showRoot(ctx, mode, key);
}

export const topupModule: FeatureModule = {
  name: "topup",
  composer,
  commands: { harga: "cashier", beli: "cashier" },
  buttons: {
    pricesRoot: "cashier",
    pricesRootRefresh: "cashier",
    pricesProviders: "cashier",
    pricesProducts: "cashier",
    pricesProductsRefresh: "cashier",
    pricesProduct: "cashier",
    pricesBills: "cashier",
    pricesSearch: "cashier",
  },
  flows: [{ id: TOPUP_FLOW, builder: topupFlow }],
  kinds: [prepaidPurchases],
  menu: { prices: (ctx) => menuAction(ctx, "h"), topup: (ctx) => menuAction(ctx, "b") },
};
