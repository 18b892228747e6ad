/**
 * Guided flows (@grammyjs/conversations), kept in the store so a restart resumes them. A flow's
 * context is rebuilt on every replay: the plugins give it the chat record, the extras and a
 * replay-safe retry.
 */
import type { Middleware } from "grammy";
import { conversations } from "@grammyjs/conversations";
import type { BaseContext, BotContext, BotConversation, BotDeps, ConvContext } from "../context.js";
import { replaySafeRetry } from "../flows/retry.js";
import { htmlByDefault } from "../../telegram/parseMode.js";
import { FLOW_STATE_VERSION, flowStorage } from "../flowStorage.js";
import type { ChatRecords } from "./chatRecord.js";
import { extras } from "./extras.js";
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
    plugins: (conversation) => [opts.chatRecords.inFlow, withExtras, retryInside(conversation)],
    storage: { type: "context", version: FLOW_STATE_VERSION, adapter: flowStorage(deps.store, deps.logger) },
  });
}
