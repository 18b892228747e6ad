/**
 * The ways out (/batal, /menu, the Cancel button) get through while a slow update holds the chat, and
 * they overtake what is in flight: an overtaken update adds no "did not understand", and a flow
 * overtaken by one stops at its next message (middlewares/conversations.ts) instead of talking on.
 */
import type { MiddlewareFn } from "grammy";
import type { Update } from "grammy/types";
import { cb } from "../buttons.js";
import { commandPattern } from "../../telegram/commands.js";
import type { BotContext } from "../context.js";

const WAY_OUT = commandPattern("batal", "menu");
const CANCEL_DATA = cb.cancel.encode({});

/** /batal, /cancel, /menu or the Cancel button: handled outside the per-chat sequence. */
export function isWayOut(update: Update): boolean {
  const text = update.message?.text;
  if (text !== undefined) return WAY_OUT.test(text);
  return update.callback_query?.data === CANCEL_DATA;
}

interface UpdateLike {
  chat?: { id: number } | undefined;
  update: Update;
}

/** Thrown into a flow that a way out overtook: it ends the flow without an apology. */
export class Overtaken extends Error {
  constructor() {
    super("flow overtaken by /batal, /menu or Cancel");
  }
}

/**
 * Counts the ways out per chat. A chat is known only while one of its updates is in flight: the
 * count matters only against updates that started before it, so memory follows the updates in
 * flight, not every chat ever seen.
 */
export class WayOuts {
  /** chat id -> ways out seen while its updates were in flight, and how many are in flight. */
  private readonly chats = new Map<number, { wayOuts: number; inFlight: number }>();
  /** update_id -> its chat's count when it started. */
  private readonly started = new Map<number, number>();

  readonly count: MiddlewareFn<BotContext> = async (ctx, next) => {
    const id = ctx.chat?.id;
    if (id === undefined) return next();
    const chat = this.chats.get(id) ?? { wayOuts: 0, inFlight: 0 };
    this.chats.set(id, chat);
    chat.inFlight++;
    if (isWayOut(ctx.update)) chat.wayOuts++;
    this.started.set(ctx.update.update_id, chat.wayOuts);
    try {
      await next();
    } finally {
      this.started.delete(ctx.update.update_id);
      if (--chat.inFlight === 0) this.chats.delete(id);
    }
  };

  /** True once a way out of the same chat arrived after this update started. */
  overtaken(ctx: UpdateLike): boolean {
    const at = this.started.get(ctx.update.update_id);
    return ctx.chat !== undefined && at !== undefined && (this.chats.get(ctx.chat.id)?.wayOuts ?? 0) !== at;
  }

  /** How many chats are remembered (those with an update in flight). */
  get chatsTracked(): number {
    return this.chats.size;
  }
}
