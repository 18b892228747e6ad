/**
 * grammY's Composer, with filters that decide without allocating. grammY's `branch` (behind every
 * `command`, `callbackQuery`, `on`, `hears`, `filter`) wraps the chosen side in a new Composer on
 * every update; the features' ~25 filters each did so for every update that passed by. Here each
 * side is composed once at registration and the predicate is awaited only when it returns a promise.
 * Same order, same `next` semantics: a side still sees middleware registered on it later.
 */
import { Composer as GrammyComposer, type Context, type Middleware, type MiddlewareFn } from "grammy";

type MaybePromise<T> = T | Promise<T>;
type MaybeArray<T> = T | T[];

function composedOnce<C extends Context>(middleware: MaybeArray<Middleware<C>>): MiddlewareFn<C> {
  return new GrammyComposer<C>(...(Array.isArray(middleware) ? middleware : [middleware])).middleware();
}

const pass = <C extends Context>(_ctx: C, next: () => Promise<void>): Promise<void> => next();

export class Composer<C extends Context> extends GrammyComposer<C> {
  override filter<D extends C>(predicate: (ctx: C) => ctx is D, ...middleware: Array<Middleware<D>>): Composer<D>;
  override filter(predicate: (ctx: C) => MaybePromise<boolean>, ...middleware: Array<Middleware<C>>): Composer<C>;
  override filter(predicate: (ctx: C) => MaybePromise<boolean>, ...middleware: Array<Middleware<C>>): Composer<C> {
    const composer = new Composer<C>(...middleware);
    this.branch(predicate, composer, pass);
    return composer;
  }

  override branch(
    predicate: (ctx: C) => MaybePromise<boolean>,
    trueMiddleware: MaybeArray<Middleware<C>>,
    falseMiddleware: MaybeArray<Middleware<C>>,
  ): GrammyComposer<C> {
    const onTrue = composedOnce(trueMiddleware);
    const onFalse = composedOnce(falseMiddleware);
    return this.use(async (ctx, next) => {
      const hit = predicate(ctx);
      await ((hit instanceof Promise ? await hit : hit) ? onTrue : onFalse)(ctx, next);
    });
  }
}
