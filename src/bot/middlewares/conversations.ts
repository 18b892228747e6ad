/**
 * Guided flows (@grammyjs/conversations), kept in the store so a restart resumes them. A flow's
 * context is rebuilt on every replay: the plugins give it the chat record, the role, the extras and a
 * replay-safe retry.
 */
import type { Middleware, MiddlewareFn } from "grammy";
import type { Update } from "grammy/types";
import { conversations, type ConversationControls } from "@grammyjs/conversations";
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
  const adapter = passWhenUnreadable(deps.store, flowStorage(deps.store, deps.logger));
  // The plugin's own read of an update is the one made below (handed over, not read twice).
  const readFirst = new WeakMap<BotContext, Saved | undefined>();
  const plugin = conversations<BotContext, ConvContext>({
    plugins: (conversation) => [opts.chatRecords.inFlow, role, withExtras, retryInside(conversation)],
    storage: {
      type: "context",
      version: FLOW_STATE_VERSION,
      adapter: {
        read: (ctx) => (readFirst.has(ctx) ? takeRead(readFirst, ctx) : adapter.read(ctx)),
        write: (ctx, state) => adapter.write(ctx, state),
        delete: (ctx) => adapter.delete(ctx),
      },
    },
  });
  return async (ctx, next) => {
    const saved = await adapter.read(ctx); // where and when the plugin read it: its errors as the plugin's
    if (saved !== undefined) {
      readFirst.set(ctx, saved);
      return plugin(ctx, next);
    }
    const idle = new IdleFlows(() => {
      readFirst.set(ctx, undefined);
      return plugin;
    }, ctx);
    ctx.conversation = idle;
    let failed = false;
    let error: unknown;
    try {
      await next();
    } catch (err) {
      failed = true;
      error = err;
    }
    await idle.finish(failed, error);
  };
}

type Saved = Awaited<ReturnType<ReturnType<typeof flowStorage>["read"]>>;

function takeRead(reads: WeakMap<BotContext, Saved | undefined>, ctx: BotContext): Saved | undefined {
  const saved = reads.get(ctx);
  reads.delete(ctx);
  return saved;
}

const registerOnly = (): Promise<void> => Promise.resolve();

/**
 * `ctx.conversation` of an update whose chat had no flow saved: the plugin, given no state, only
 * answers "none active" and saves nothing, so it is not run until a handler enters a flow. Then
 * it runs from there, around the rest of the update, as if from the start: it gets the state read
 * at the start of the update (and so the version its save must find: a flow another writer saved
 * meanwhile is not saved over), the flows are registered (registerOnEnter), and it saves when the
 * update is done, where it would have. Until then, the exits have nothing to end and `active` is
 * empty, as the plugin's would be; after the update, the plugin's errors for a late call.
 */
export class IdleFlows implements ConversationControls {
  private controls: ConversationControls | undefined;
  private entering: Promise<ConversationControls> | undefined;
  private run: Promise<void> | undefined;
  private settle: ((failed: boolean, error: unknown) => void) | undefined;
  private done = false;
  private flowMiddlewares: readonly MiddlewareFn<BotContext>[] = [];

  constructor(
    private readonly plugin: () => MiddlewareFn<BotContext>,
    private readonly ctx: BotContext,
  ) {}

  /** The flows' middlewares (createConversation) to register before a flow is entered. */
  registerOnEnter(flowMiddlewares: readonly MiddlewareFn<BotContext>[]): void {
    this.flowMiddlewares = flowMiddlewares;
  }

  async enter(name: string, ...args: unknown[]): Promise<void> {
    if (this.controls === undefined && this.done) throw new Error("The middleware has already completed so it is no longer possible to enter a conversation");
    await (await (this.entering ??= this.start())).enter(name, ...args);
  }

  async exit(name: string): Promise<void> {
    if (this.controls !== undefined) return this.controls.exit(name);
    if (this.done) throw new Error(`The middleware has already completed so it is no longer possible to exit any conversations named '${name}'`);
  }

  async exitOne(name: string, index: number): Promise<void> {
    if (this.controls !== undefined) return this.controls.exitOne(name, index);
    if (this.done) throw new Error(`The middleware has already completed so it is no longer possible to exit the conversation '${name}'`);
  }

  async exitAll(): Promise<void> {
    if (this.controls !== undefined) return this.controls.exitAll();
    if (this.done) throw new Error("The middleware has already completed so it is no longer possible to exit all conversations");
  }

  active(): Record<string, number>;
  active(name: string): number;
  active(name?: string): Record<string, number> | number {
    if (this.controls !== undefined) return name === undefined ? this.controls.active() : this.controls.active(name);
    return name === undefined ? {} : 0;
  }

  /** Runs the plugin up to its `next`, which waits for the rest of this update (finish). */
  private async start(): Promise<ConversationControls> {
    const { ctx } = this;
    let reached!: () => void;
    const atNext = new Promise<void>((resolve) => (reached = resolve));
    const rest = new Promise<void>((resolve, reject) => (this.settle = (failed, error) => (failed ? reject(error) : resolve())));
    const plugin = this.plugin();
    this.run = (async () => {
      await plugin(ctx, () => (reached(), rest));
    })();
    await Promise.race([atNext, this.run]);
    for (const flow of this.flowMiddlewares) await flow(ctx, registerOnly);
    this.controls = ctx.conversation;
    return this.controls;
  }

  /** The update is done (or failed): the plugin, if it ran, saves now and ends as it would have. */
  async finish(failed: boolean, error: unknown): Promise<void> {
    this.done = true;
    if (this.run === undefined) {
      if (failed) throw error;
      return;
    }
    this.settle!(failed, error);
    await this.run;
  }
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
