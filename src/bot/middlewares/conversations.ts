/**
 * Guided flows (@grammyjs/conversations), kept in the store so a restart resumes them. A flow's
 * context is rebuilt on every replay: the plugins give it the chat record, the role, the extras and a
 * replay-safe retry.
 */
import type { Middleware } from "grammy";
import type { Update } from "grammy/types";
import { conversations } from "@grammyjs/conversations";
import type { BaseContext, BotContext, BotConversation, BotDeps, ConvContext } from "../context.js";
import { cb } from "../buttons.js";
import type { Store } from "../../store/index.js";
import { replaySafeRetry } from "../flows/retry.js";
import { htmlByDefault } from "../../telegram/parseMode.js";
import { FLOW_STATE_VERSION, flowStorage } from "../flowStorage.js";
import type { ChatRecords } from "./chatRecord.js";
import { extras } from "./extras.js";
import { role } from "./role.js";
import { Overtaken, type WayOuts } from "./wayOuts.js";

const FLOW_SENDS: ReadonlySet<string> = new Set(["sendMessage", "sendPhoto", "editMessageText"]);

export interface FlowsOptions {
  chatRecords: ChatRecords;
  wayOuts: WayOuts;
  /** How long auto-retry may wait on a 429 inside a flow. */
  maxRetryDelaySeconds: number;
}

export function flows(deps: BotDeps, opts: FlowsOptions): Middleware<BotContext> {
  // Inside a flow every API answer is in the replay log: the retry waits are logged too (through
  // `external`), so a later replay of the flow does not wait out an old 429 again.
  const retryInside = (conversation: BotConversation): Middleware<BaseContext> => (ctx, next) => {
    ctx.api.config.use(replaySafeRetry(conversation, { maxRetryAttempts: 3, maxDelaySeconds: opts.maxRetryDelaySeconds, clock: deps.clock }));
    ctx.api.config.use(htmlByDefault);
    // The user left (/batal, /menu, Cancel) while this flow waited on the provider: end it quietly.
    ctx.api.config.use((prev, method, payload, signal) => {
      if (FLOW_SENDS.has(method) && opts.wayOuts.overtaken(ctx)) throw new Overtaken();
      return prev(method, payload, signal);
    });
    return next();
  };
  const withExtras = extras(deps);
  return conversations<BotContext, ConvContext>({
    plugins: (conversation) => [opts.chatRecords.inFlow, role, withExtras, retryInside(conversation)],
    storage: { type: "context", version: FLOW_STATE_VERSION, adapter: passWhenUnreadable(deps.store, flowStorage(deps.store, deps.logger)) },
  });
}

/** A command or a menu button: it leaves any waiting flow (flows/steps.ts waitStep) and runs on its own. */
function leavesFlows(update: Update): boolean {
  const data = update.callback_query?.data;
  return (update.message?.text?.startsWith("/") ?? false) || (data !== undefined && cb.menu.decode(data) !== undefined);
}

/**
 * While the store cannot be reached, an update that would leave any flow anyway (a command, a menu
 * button) runs as if no flow waited: help, the menu and the language picker still answer. Nothing
 * of its flows is saved over the state it could not read: a save fails with the read's error. Any
 * other update (an answer to a flow's question) fails with it at once, as storeUnavailable.ts answers.
 */
function passWhenUnreadable(store: Pick<Store, "canPersist">, adapter: ReturnType<typeof flowStorage>): ReturnType<typeof flowStorage> {
  const unread = new WeakMap<BotContext, unknown>();
  const refuseUnread = (ctx: BotContext) => {
    if (unread.has(ctx)) throw unread.get(ctx);
  };
  return {
    async read(ctx) {
      try {
        return await adapter.read(ctx);
      } catch (err) {
        if (store.canPersist() || !leavesFlows(ctx.update)) throw err;
        unread.set(ctx, err);
        return undefined;
      }
    },
    async write(ctx, state) {
      refuseUnread(ctx);
      await adapter.write(ctx, state);
    },
    async delete(ctx) {
      refuseUnread(ctx);
      await adapter.delete(ctx);
    },
  };
}
