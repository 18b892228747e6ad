/**
 * A fork of @grammyjs/runner 2.0's `sequentialize` (pinned in test/telegram/forkPins.test.ts): the
 * runner's starts every update after a Promise.all, so a /batal right behind its chat's /beli in one
 * batch ran first and the flow began after it; here an idle chat's update starts at once, in arrival
 * order (test/bot/middlewares.test.ts, "one chat's updates in order").
 *
 * The runner processes updates concurrently; one chat's updates still run one after another, except
 * the ways out (/batal, /menu, Cancel): they must get through while a slow read holds the chat. One
 * promise chain per chat with updates in flight: a later update waits for the chat's previous one to
 * settle, whatever its outcome.
 */
import type { MiddlewareFn, NextFunction } from "grammy";
import type { BotContext } from "../context.js";
import { isWayOut } from "./wayOuts.js";

interface Chain {
  /** The newest update of the chat, settled or not. */
  tail: Promise<void>;
  /** Updates of the chat in flight; the chain is dropped at 0. */
  inFlight: number;
}

export function sequentializeChats(): MiddlewareFn<BotContext> {
  const chains = new Map<number, Chain>();
  return async (ctx, next: NextFunction) => {
    // The chat's id (a user's when there is no chat): the number itself, no string made per update.
    const key = isWayOut(ctx.update) ? undefined : (ctx.chat?.id ?? ctx.from?.id);
    if (key === undefined) return next();
    let chain = chains.get(key);
    let run: Promise<void>;
    if (chain === undefined) {
      run = next();
      chain = { tail: run, inFlight: 0 };
      chains.set(key, chain);
    } else {
      run = chain.tail.then(
        () => next(),
        () => next(),
      );
      chain.tail = run;
    }
    chain.inFlight++;
    try {
      await run;
    } finally {
      if (--chain.inFlight === 0) chains.delete(key);
    }
  };
}
