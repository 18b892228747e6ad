/**
 * Where running flows (conversations) are kept, so a restart resumes them.
 */
import type { ConversationData, VersionedState } from "@grammyjs/conversations";
import type { Logger } from "../logging/logger.js";
import type { FlowState, Store } from "../store/index.js";
import type { BotContext } from "./context.js";

/**
 * The version of the saved flow state. Raise it whenever a flow's steps change (order, questions,
 * `external` calls): a flow saved by older code is then dropped, and its user told, rather than
 * replayed against steps it was not recorded with.
 */
export const FLOW_STATE_VERSION = 2;

/** A property of the context, not a WeakMap entry: a WeakMap entry per update cost ~1 µs of garbage collection. */
const READ_VERSION = Symbol("flow version read");
interface Versioned {
  [READ_VERSION]?: number;
}

/**
 * Running flows are kept in the store's per-chat flow storage (getFlow/setFlow), so a restart resumes
 * them. Each update remembers the version it read and saves with a compare-and-set on it. A lost race
 * (a way out such as /batal ran beside this update, or another process saved first) leaves the newer
 * state standing and drops this update's step: the chat's next message replays against what stands. A
 * flow saved
 * under another FLOW_STATE_VERSION is deleted and the update marked (`flowLost`), so the user hears
 * why their answer is not taken instead of "not understood".
 */
export function flowStorage(store: Store, logger: Pick<Logger, "warn">) {
  type Saved = VersionedState<ConversationData>;
  /** The flow version each update read (on the update's context); its write must find it unchanged. */
  const readVersion = {
    get: (ctx: BotContext) => (ctx as Versioned)[READ_VERSION],
    set: (ctx: BotContext, version: number) => void ((ctx as Versioned)[READ_VERSION] = version),
  };

  const save = async (ctx: BotContext, chatId: number, state: FlowState | undefined) => {
    const version = readVersion.get(ctx) ?? 0;
    if (await store.setFlow(chatId, state, version)) {
      readVersion.set(ctx, version + 1);
      return;
    }
    // Not an error: the state that stands is newer than this update's (a way out, or another process).
    logger.warn({ chatId, update_id: ctx.update?.update_id }, "flow state changed during this update; its step was not saved over the newer one");
  };

  return {
    async read(ctx: BotContext): Promise<Saved | undefined> {
      const chatId = ctx.chatId;
      if (chatId === undefined) return undefined;
      const { state, version } = await store.getFlow(chatId);
      readVersion.set(ctx, version);
      const saved = state as Saved | undefined;
      if (!saved) return undefined;
      if (saved.version[1] !== FLOW_STATE_VERSION) {
        // Lost to another writer: that one saved newer state, which is not ours to drop.
        if (await store.setFlow(chatId, undefined, version)) readVersion.set(ctx, version + 1);
        ctx.flowLost = true;
        return undefined;
      }
      // The store hands out frozen values; the plugin appends to what it reads.
      return structuredClone(saved) as Saved;
    },
    async write(ctx: BotContext, state: Saved): Promise<void> {
      // JSON round trip: the store keeps JSON only (absent fields instead of undefined ones).
      if (ctx.chatId !== undefined) await save(ctx, ctx.chatId, JSON.parse(JSON.stringify(state)) as FlowState);
    },
    async delete(ctx: BotContext): Promise<void> {
      if (ctx.chatId !== undefined) await save(ctx, ctx.chatId, undefined);
    },
  };
}
