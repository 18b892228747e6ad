/** How a feature plugs into createBot: its handlers, its guided flows, its money kinds, its menu entries. */
import type { Composer } from "grammy";
import type { MenuName } from "./buttons.js";
import type { BotContext, BotConversation, ConvContext } from "./context.js";
import type { MoneyKind } from "./money/kinds.js";

export type MenuAction = (ctx: BotContext) => Promise<unknown>;
export type FlowBuilder = (conversation: BotConversation, ctx: ConvContext) => Promise<unknown>;

export interface FeatureModule {
  /** Commands and callbacks of the feature (outside conversations). */
  composer: Composer<BotContext>;
  /** Guided flows, entered with `ctx.conversation.enter(id)`. */
  flows?: readonly { id: string; builder: FlowBuilder }[];
  /** Money actions confirmed through the shared confirm screen. */
  kinds?: readonly MoneyKind[];
  /** Main-menu buttons this feature answers (`menu:<name>`). */
  menu?: Readonly<Partial<Record<MenuName, MenuAction>>>;
}
