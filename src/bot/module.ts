/**
 * How a feature plugs into createBot: where in the chain it runs, what it answers (commands, button
 * families) and who may use each, its handlers, its guided flows, its money kinds, its menu entries.
 * The list of every module, in order, is features/index.ts; test/bot/featureModules.test.ts checks the
 * declarations against telegram/commands.ts and the role gate.
 */
import type { Composer } from "grammy";
import type { CallbackName, MenuName } from "./buttons.js";
import type { BotContext, BotConversation, ConvContext } from "./context.js";
import type { MoneyKind } from "./money/kinds.js";
import type { Access, CommandId } from "../telegram/commands.js";

export type MenuAction = (ctx: BotContext) => Promise<unknown>;
export type FlowBuilder = (conversation: BotConversation, ctx: ConvContext) => Promise<unknown>;

/**
 * Where createBot installs a module (bot/index.ts), in the order an update meets them:
 * - `shopfront`: a shop customer's chat (and a shop link) reaches these modules only (customerGate);
 * - `beforeKey`: after the role gate, before the own-key guard (staff joining and leaving, the audit log);
 * - `wayOut`: after the conversations plugin, before any flow waits (/batal must end a waiting flow);
 * - `flows`: the guided flows, behind the error handler (a waiting flow takes its chat's updates);
 * - `main` (the default): the features, behind the error handler;
 * - `last`: what nothing else took.
 */
export type Stage = "shopfront" | "beforeKey" | "wayOut" | "flows" | "main" | "last";

export interface FeatureModule {
  /** Named in test failures. */
  name: string;
  stage?: Stage;
  /** Commands and callbacks of the feature (outside conversations); some are built from the whole list. */
  composer: Composer<BotContext> | ((modules: readonly FeatureModule[]) => Composer<BotContext>);
  /** The commands it answers, with who may use each (as telegram/commands.ts declares: the role gate enforces that). */
  commands?: Readonly<Partial<Record<CommandId, Access>>>;
  /** The button shapes (telegram/buttonData.ts `cb`) it answers, with who may press each. */
  buttons?: Readonly<Partial<Record<CallbackName, Access>>>;
  /** Other families of the registry (buttonFamilies: the shop's, the orders') it answers, by first segment. */
  families?: readonly string[];
  /**
   * Commands and buttons another module answers that this one looks at first, for its own case, and
   * passes on otherwise (an invitation's /start, a shop customer's /menu).
   */
  shares?: { commands?: readonly CommandId[]; buttons?: readonly CallbackName[]; families?: readonly string[] };
  /** Guided flows, entered with `ctx.conversation.enter(id)`. */
  flows?: readonly { id: string; builder: FlowBuilder }[];
  /** Money actions confirmed through the shared confirm screen. */
  kinds?: readonly MoneyKind[];
  /** Main-menu buttons this feature answers (`menu:<name>`). */
  menu?: Readonly<Partial<Record<MenuName, MenuAction>>>;
}
