/**
 * The runner processes updates concurrently; one chat's updates still run one after another, except
 * the ways out (/batal, /menu, Cancel): they must get through while a slow read holds the chat.
 *
 * One promise chain per chat with updates in flight (the runner's `sequentialize` does the same with
 * arrays and a Promise.all per update; this is on every update's path, so it is kept lean): an
 * update of an idle chat runs at once, a later one waits for the chat's previous update to settle,
 * whatever its outcome.
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
