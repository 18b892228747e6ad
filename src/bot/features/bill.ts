/** Bill inquiry and payment (/tagihan, /bill, menu "bill"): a guided flow ending on the confirm screen. */
import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import { BILL_FLOW, billFlow } from "../flows/bill.js";
import { requireMoneyKey } from "../guards.js";
import { postpaidKind } from "../money/postpaid.js";
import type { FeatureModule } from "../module.js";
import { commands } from "../../telegram/commands.js";

/** Private chat with a linked key only; the flow reads the key itself when it needs it. */
async function startBill(ctx: BotContext): Promise<void> {
  if (!(await requireMoneyKey(ctx))) return;
  await ctx.conversation.enter(BILL_FLOW);
}

const composer = new Composer<BotContext>();
composer.command(commands.tagihan, startBill);

export const billModule: FeatureModule = {
  name: "bill",
  composer,
  commands: { tagihan: "cashier" },
  flows: [{ id: BILL_FLOW, builder: billFlow }],
  kinds: [postpaidKind],
  menu: { bill: startBill },
};
