/** Account check and transfer to a bank or e-wallet (/transfer and the menu's Transfer button). */
import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import { requireMoneyKey } from "../guards.js";
import type { FeatureModule } from "../module.js";
import { TRANSFER_FLOW, transferFlow } from "../flows/transfer.js";
import { transferKind } from "../money/transfer.js";
import { commands } from "../../telegram/commands.js";

/** Money commands need a linked key in a private chat; the flow reads the key itself per call. */
async function startTransfer(ctx: BotContext): Promise<void> {
  if (!(await requireMoneyKey(ctx))) return;
  await ctx.conversation.enter(TRANSFER_FLOW);
}

const composer = new Composer<BotContext>();
composer.command(commands.transfer, startTransfer);

export const transferModule: FeatureModule = {
  name: "transfer",
  composer,
  commands: { transfer: "owner" },
  flows: [{ id: TRANSFER_FLOW, builder: transferFlow }],
  kinds: [transferKind],
  menu: { transfer: startTransfer },
};
