/**
 * /pesanan (/orders): the owner's shop orders, newest first, with their state. Staff see their
 * owner's. Customers and guests are not answered here (a customer has "Pesanan saya" in the shop).
 */
import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import { html, rupiah, wibTime } from "../../render/format.js";
import { commands } from "../../telegram/commands.js";
import type { FeatureModule } from "../module.js";

export const ORDERS_SHOWN = 20;

export const ordersFeature = new Composer<BotContext>();

ordersFeature.command(commands.pesanan, async (ctx, next) => {
  const role = ctx.role;
  const owner = role.kind === "owner" ? ctx.chat.id : role.kind === "staff" ? role.owner : undefined;
  if (owner === undefined) return next();
  const docs = (await ctx.deps.shopOrders.listByOwner(owner)).slice(-ORDERS_SHOWN).reverse();
  if (docs.length === 0) {
    await ctx.reply(ctx.t("orders-empty"));
    return;
  }
  const lines = docs.map((d) =>
    ctx.t("orders-line", {
      time: wibTime(d.createdAt, ctx.lang),
      product: html(d.value.productName),
      target: html(d.value.target),
      paid: rupiah(d.value.price, ctx.lang),
      state: ctx.t(`shop-order-state-${d.state}`),
      ref: d.id,
    }),
  );
  await ctx.reply([ctx.t("orders-title"), "", ...lines].join("\n"));
});

export const ordersModule: FeatureModule = { name: "orders", composer: ordersFeature, commands: { pesanan: "cashier" } };
