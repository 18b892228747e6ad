/**
 * Every feature of the bot, one ordered list: an update meets the modules of a stage in this order
 * (module.ts Stage says where createBot installs each stage). A new feature is a FeatureModule added
 * here, declaring its commands, button families and who may use them (test/bot/featureModules.test.ts).
 */
import { Composer } from "grammy";
import { createConversation } from "@grammyjs/conversations";
import type { BotContext, ConvContext } from "../context.js";
import type { FeatureModule, Stage } from "../module.js";
import { confirmModule } from "../money/confirm.js";
import { adminModule } from "./admin.js";
import { alertsModule } from "./alerts.js";
import { auditModule } from "./audit.js";
import { balanceModule } from "./balance.js";
import { billModule } from "./bill.js";
import { callbackUrlModule } from "./callbackUrl.js";
import { cancelModule } from "./cancel.js";
import { correctionModule } from "./correction.js";
import { customersModule } from "./savedCustomers.js";
import { depositModule } from "./deposit.js";
import { downlineJoinModule, downlineModule } from "./downline.js";
import { h2hModule } from "./h2h.js";
import { payoutModule } from "./payout.js";
import { historyModule } from "./history.js";
import { languageModule } from "./language.js";
import { linkModule } from "./link.js";
import { markupModule } from "./markup.js";
import { menuModule } from "./menu.js";
import { ordersModule } from "./orders.js";
import { pinModule } from "./pin.js";
import { reportModule } from "./report.js";
import { shopModule } from "../shop/shop.js";
import { shopfrontModule } from "../shop/shopfront.js";
import { shopPayModule } from "../shop/shopPay.js";
import { staffModule } from "./staff.js";
import { statusModule } from "./status.js";
import { topupModule } from "./topup.js";
import { transferModule } from "./transfer.js";
import { unhandledModule } from "./unhandled.js";

/** Every module's guided flows, registered once (each flow's own buttons, `f:…`, are read by the flow). */
const flowsModule: FeatureModule = {
  name: "flows",
  stage: "flows",
  composer: (modules) =>
    new Composer<BotContext>(...modules.flatMap((m) => (m.flows ?? []).map((flow) => createConversation<BotContext, ConvContext>(flow.builder, flow.id)))),
  buttons: { flowChoice: "anyone", flowPage: "anyone", flowButton: "anyone", flowSuggestion: "anyone" },
};

export const featureModules: readonly FeatureModule[] = [
  shopfrontModule,
  staffModule,
  downlineJoinModule,
  auditModule,
  cancelModule,
  flowsModule,
  // First of the features: a shop customer's answer (a reply to the refund prompt) is not an api key to link.
  shopPayModule,
  ordersModule,
  linkModule,
  pinModule,
  downlineModule,
  h2hModule,
  payoutModule,
  balanceModule,
  callbackUrlModule,
  languageModule,
  menuModule,
  confirmModule,
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
  // Last of the features: only text nothing else took (and no flow waited for) reaches it.
  correctionModule,
  unhandledModule,
];

/** The composers of one stage's modules, in the list's order. */
export function stageComposers(stage: Stage, modules: readonly FeatureModule[] = featureModules): Composer<BotContext>[] {
  return modules
    .filter((m) => (m.stage ?? "main") === stage)
    .map((m) => (typeof m.composer === "function" ? m.composer(modules) : m.composer));
}
