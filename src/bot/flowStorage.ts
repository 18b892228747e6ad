/**
 * Where running flows (conversations) are kept, so a restart resumes them.
 */
import type { ConversationData, VersionedState } from "@grammyjs/conversations";
import type { Store } from "../store/index.js";
import type { BotContext } from "./context.js";

/**
 * The version of the saved flow state. Raise it whenever a flow's steps change (order, questions,
 * `external` calls): a flow saved by older code is then dropped, and its user told, rather than
 * replayed against steps it was not recorded with.
 */
export const FLOW_STATE_VERSION = 2;

/**
 * Running flows are kept in the store (meta `conv:<chatId>`), so a restart resumes them. A flow
 * saved under another FLOW_STATE_VERSION is deleted and the update marked (`flowLost`), so the
 * user hears why their answer is not taken instead of "not understood".
 */
export function flowStorage(store: Store) {
  const key = (ctx: BotContext) => (ctx.chatId === undefined ? undefined : `conv:${ctx.chatId}`);
  type Saved = VersionedState<ConversationData>;
  return {
    async read(ctx: BotContext): Promise<Saved | undefined> {
      const k = key(ctx);
      const saved = k === undefined ? undefined : await store.getMeta<Saved>(k);
      if (!saved) return undefined;
      if (saved.version[1] !== FLOW_STATE_VERSION) {
        await store.setMeta(k!, undefined);
        ctx.flowLost = true;
        return undefined;
      }
      // The store hands out frozen values; the plugin appends to what it reads.
      return structuredClone(saved) as Saved;
    },
    async write(ctx: BotContext, state: Saved): Promise<void> {
      const k = key(ctx);
      // JSON round trip: the store keeps JSON only (absent fields instead of undefined ones).
      if (k !== undefined) await store.setMeta(k, JSON.parse(JSON.stringify(state)));
    },
    async delete(ctx: BotContext): Promise<void> {
      const k = key(ctx);
      if (k !== undefined && await store.getMeta(k) !== undefined) await store.setMeta(k, undefined);
    },
  };
}
