/** Every feature and guided flow, in the order they get an update; each behind the error handler. */
import { Composer, type ErrorHandler } from "grammy";
import { createConversation } from "@grammyjs/conversations";
import type { MenuName } from "../buttons.js";
import type { BotContext, ConvContext } from "../context.js";
import type { FeatureModule, MenuAction } from "../module.js";
import { confirmFeature } from "../money/confirm.js";
import { adminModule } from "./admin.js";
import { alertsModule } from "./alerts.js";
import { balanceFeature, showBalance } from "./balance.js";
import { billModule } from "./bill.js";
import { correctionFeature } from "./correction.js";
import { customersModule } from "./savedCustomers.js";
import { depositModule } from "./deposit.js";
import { historyModule } from "./history.js";
import { askLanguage, languageFeature } from "./language.js";
import { linkFeature } from "./link.js";
import { markupModule } from "./markup.js";
import { menuFeature } from "./menu.js";
import { reportModule } from "./report.js";
import { shopModule } from "../shop/shop.js";
import { shopPayFeature } from "../shop/shopPay.js";
import { ordersFeature } from "./orders.js";
import { statusModule } from "./status.js";
import { topupModule } from "./topup.js";
import { transferModule } from "./transfer.js";
import { callbackUrlFeature } from "./callbackUrl.js";

const modules: FeatureModule[] = [
  topupModule,
  billModule,
  transferModule,
  depositModule,
  statusModule,
  historyModule,
  shopModule,
  reportModule,
  alertsModule,
  adminModule,
  customersModule,
  markupModule,
];

export function features(onError: ErrorHandler<BotContext>): Composer<BotContext> {
  const c = new Composer<BotContext>();
  // One boundary for all flows: a throwing flow still ends its update there.
  c.errorBoundary(onError, ...modules.flatMap((m) => (m.flows ?? []).map((flow) => createConversation<BotContext, ConvContext>(flow.builder, flow.id))));
  const actions = new Map<MenuName, MenuAction>([
    ["balance", showBalance],
    ["language", askLanguage],
    ["help", (ctx) => ctx.reply(ctx.t("help"))],
  ]);
  for (const m of modules) {
    for (const [name, action] of Object.entries(m.menu ?? {}) as [MenuName, MenuAction][]) actions.set(name, action);
  }
  c.errorBoundary(
    onError,
    // First: a shop customer's answer (a reply to the refund prompt) is not an api key to link.
    shopPayFeature,
    ordersFeature,
    linkFeature,
    balanceFeature,
    callbackUrlFeature,
    languageFeature,
    menuFeature(actions),
    confirmFeature(modules.flatMap((m) => m.kinds ?? [])),
    ...modules.map((m) => m.composer),
    // Last: only text nothing else took (and no flow waited for) reaches it.
    correctionFeature,
  );
  return c;
}
