/**
 * grammY's Composer, run as one flat list instead of a chain of closures. grammY nests two async
 * closures per registered middleware (`concat`) and its `branch` (behind every `command`,
 * `callbackQuery`, `on`, `hears`, `filter`) builds a new Composer per filter per update; an update
 * walked ~25 such layers before its feature answered. Here a composer keeps its steps in order, the
 * composers registered inside are laid out in place (rebuilt after any registration), and a filter is
 * an entry with a test: a test that says no jumps past its range in the loop, with no call, closure or
 * promise, and is awaited only when it returns a promise. A command test parses the update's command
 * once per update for all of them. Same order, same `next` semantics as grammY: a composer still sees
 * middleware registered on it later, a second `next()` throws, errors reach the caller.
 */
import { BotError, Composer as GrammyComposer, type Context, type Middleware, type MiddlewareFn, type NextFunction } from "grammy";
import type { CommandContext } from "grammy";

type MaybePromise<T> = T | Promise<T>;
type MaybeArray<T> = T | T[];

/** One registered middleware; every step has all three fields (one shape for the loop). */
interface Step<C extends Context> {
  /** Undefined: the step runs for every update that reaches it. */
  readonly test: ((ctx: C) => MaybePromise<boolean>) | undefined;
  /** A middleware, or (undefined) the steps of a composer registered here, run in place (an empty one skipped). */
  readonly run: MiddlewareFn<C> | undefined;
  readonly steps: readonly Step<C>[] | undefined;
}

const step = <C extends Context>(test: Step<C>["test"], run: Step<C>["run"], steps: Step<C>["steps"]): Step<C> => ({ test, run, steps });

/** Bumped by every registration anywhere: a composer's flat list is rebuilt when it is stale. */
let registrations = 0;

function register<C extends Context>(steps: Step<C>[], s: Step<C>): void {
  steps.push(s);
  registrations++;
}

/**
 * A composer's steps with the composers registered inside laid out in place: an entry without `run`
 * opens a nested composer's range, `end` is the index after the entry's range (where a test that
 * says no goes on).
 */
interface Flat<C extends Context> {
  readonly test: Step<C>["test"];
  readonly run: MiddlewareFn<C> | undefined;
  end: number;
}

function flatten<C extends Context>(steps: readonly Step<C>[], out: Flat<C>[]): Flat<C>[] {
  for (const s of steps) {
    if (s.steps === undefined) {
      out.push({ test: s.test, run: s.run, end: out.length + 1 });
      continue;
    }
    if (s.steps.length === 0) continue;
    const opened: Flat<C> = { test: s.test, run: undefined, end: 0 };
    out.push(opened);
    flatten(s.steps, out);
    opened.end = out.length;
  }
  return out;
}

/**
 * One walk of a composer's flat list for one update. A class, not closures: the build keeps function
 * names (esbuild keepNames), which names every closure a call creates with a property write. Every
 * method returns a promise and never throws (a throw is the promise's rejection), as grammY's chain does.
 */
class Walk<C extends Context> {
  constructor(
    private readonly flat: readonly Flat<C>[],
    private readonly ctx: C,
    private readonly done: NextFunction,
  ) {}

  from(start: number): Promise<void> {
    try {
      const { flat, ctx } = this;
      for (let i = start; i < flat.length; ) {
        const f = flat[i]!;
        if (f.test !== undefined) {
          const hit = f.test(ctx);
          if (hit instanceof Promise) return hit.then((yes) => (!yes ? this.from(f.end) : f.run === undefined ? this.from(i + 1) : this.call(f.run, i)));
          if (!hit) {
            i = f.end;
            continue;
          }
        }
        if (f.run === undefined) {
          i++; // into the nested composer's range
          continue;
        }
        return this.call(f.run, i);
      }
      return this.done();
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private call(run: MiddlewareFn<C>, i: number): Promise<void> {
    let nextCalled = false;
    try {
      const out = run(this.ctx, () => {
        if (nextCalled) return Promise.reject(new Error("`next` already called before!"));
        nextCalled = true;
        return this.from(i + 1);
      });
      // Its value is never read (grammY ignores it too); a thenable is awaited as grammY does.
      return (out instanceof Promise ? out : Promise.resolve(out)) as Promise<void>;
    } catch (err) {
      return Promise.reject(err);
    }
  }
}

/** A composer of ours runs its steps in place (they stay its own: what it gets later is seen). */
function stepOf<C extends Context>(middleware: Middleware<C>): Step<C> {
  if (middleware instanceof Composer) return step<C>(undefined, undefined, (middleware as unknown as { steps: Step<C>[] }).steps);
  return step<C>(undefined, typeof middleware === "function" ? middleware : (ctx, next) => middleware.middleware()(ctx, next), undefined);
}

const COMMAND = Symbol("command of the update");

/** The update's command, parsed once per update: its name as typed, and without a suffix naming this bot. */
interface ParsedCommand {
  text: string;
  typed: string;
  /** `typed` without `@thisbot`; undefined when it names no bot or another one. */
  own: string | undefined;
}

function commandOf(ctx: Context): ParsedCommand | null {
  const memo = (ctx as unknown as { [COMMAND]?: ParsedCommand | null })[COMMAND];
  if (memo !== undefined) return memo;
  let parsed: ParsedCommand | null = null;
  // As grammY's `Context.has.command`: a message or channel post whose bot_command entity starts the text.
  const msg = ctx.update.message ?? ctx.update.channel_post;
  const entities = msg?.entities;
  if (entities !== undefined && msg!.text !== undefined) {
    for (const e of entities) {
      if (e.type !== "bot_command" || e.offset !== 0) continue;
      const text = msg!.text;
      const typed = text.substring(1, e.length);
      const at = typed.indexOf("@");
      const own = at === -1 ? undefined : typed.substring(at + 1).toLowerCase() === ctx.me.username.toLowerCase() ? typed.substring(0, at) : undefined;
      parsed = { text, typed, own };
      break;
    }
  }
  (ctx as unknown as { [COMMAND]?: ParsedCommand | null })[COMMAND] = parsed;
  return parsed;
}

/** grammY's command test (`Context.has.command`), on the update's command parsed once. */
function hasCommand(names: MaybeArray<string>): (ctx: Context) => boolean {
  const all = new Set<string>();
  const plain = new Set<string>();
  for (const name of Array.isArray(names) ? names : [names]) {
    if (name.startsWith("/")) throw new Error(`Do not include '/' when registering command handlers (use '${name.substring(1)}' not '${name}')`);
    all.add(name);
    if (!name.includes("@")) plain.add(name);
  }
  return (ctx) => {
    const cmd = commandOf(ctx);
    if (cmd === null) return false;
    if (all.has(cmd.typed) || (cmd.own !== undefined && plain.has(cmd.own))) {
      ctx.match = cmd.text.substring(cmd.typed.length + 1).trimStart();
      return true;
    }
    return false;
  };
}

export class Composer<C extends Context> extends GrammyComposer<C> {
  private readonly steps: Step<C>[] = [];
  private flat: Flat<C>[] = [];
  private flatAt = -1;
  private readonly run: MiddlewareFn<C> = (ctx, next) => new Walk(this.flatList(), ctx, next).from(0);

  private flatList(): Flat<C>[] {
    if (this.flatAt !== registrations) {
      this.flat = flatten(this.steps, []);
      this.flatAt = registrations;
    }
    return this.flat;
  }

  constructor(...middleware: Array<Middleware<C>>) {
    super();
    for (const m of middleware) register(this.steps, stepOf(m));
  }

  override middleware(): MiddlewareFn<C> {
    return this.run;
  }

  override use(...middleware: Array<Middleware<C>>): Composer<C> {
    const composer = new Composer<C>(...middleware);
    register(this.steps, step<C>(undefined, undefined, composer.steps));
    return composer;
  }

  override filter<D extends C>(predicate: (ctx: C) => ctx is D, ...middleware: Array<Middleware<D>>): Composer<D>;
  override filter(predicate: (ctx: C) => MaybePromise<boolean>, ...middleware: Array<Middleware<C>>): Composer<C>;
  override filter(predicate: (ctx: C) => MaybePromise<boolean>, ...middleware: Array<Middleware<C>>): Composer<C> {
    const composer = new Composer<C>(...middleware);
    register(this.steps, step(predicate, undefined, composer.steps));
    return composer;
  }

  override command<S extends string>(command: MaybeArray<S>, ...middleware: Array<Middleware<CommandContext<C>>>): Composer<CommandContext<C>> {
    return this.filter(hasCommand(command) as unknown as (ctx: C) => ctx is CommandContext<C>, ...middleware);
  }

  override branch(
    predicate: (ctx: C) => MaybePromise<boolean>,
    trueMiddleware: MaybeArray<Middleware<C>>,
    falseMiddleware: MaybeArray<Middleware<C>>,
  ): Composer<C> {
    const onTrue = new Composer<C>(...(Array.isArray(trueMiddleware) ? trueMiddleware : [trueMiddleware])).run;
    const onFalse = new Composer<C>(...(Array.isArray(falseMiddleware) ? falseMiddleware : [falseMiddleware])).run;
    return this.use(async (ctx, next) => {
      const hit = predicate(ctx);
      await ((hit instanceof Promise ? await hit : hit) ? onTrue : onFalse)(ctx, next);
    });
  }

  /** grammY's error boundary (same semantics: `next` of the protected part runs after it, outside it). */
  override errorBoundary(errorHandler: (error: BotError<C>, next: NextFunction) => MaybePromise<unknown>, ...middleware: Array<Middleware<C>>): Composer<C> {
    const composer = new Composer<C>(...middleware);
    const bound = composer.run;
    register(
      this.steps,
      step<C>(undefined, async (ctx, next) => {
        // Inline, unnamed: the build names every `const` function it creates, per update here.
        let nextCalled = false;
        try {
          await bound(ctx, () => ((nextCalled = true), Promise.resolve()));
        } catch (err) {
          nextCalled = false;
          await errorHandler(new BotError(err, ctx), () => ((nextCalled = true), Promise.resolve()));
        }
        if (nextCalled) await next();
      }, undefined),
    );
    return composer;
  }
}
