/**
 * A shop's customer chat reaches only the shop (features/shopfront.ts): never a reseller's command,
 * flow, button or key handling, whatever it types or forges. A shop link (`/start <code>`) opened in
 * any private chat goes to the shop too, which decides whether the chat may become its customer.
 * Everything else passes on untouched.
 */
import { Composer, type ErrorHandler, type Middleware } from "grammy";
import type { BotContext } from "../context.js";
import { shopfrontFeature, shopStartCode } from "../features/shopfront.js";

export function customerGate(onError: ErrorHandler<BotContext>): Middleware<BotContext> {
  const front = new Composer<BotContext>();
  front.errorBoundary(onError, shopfrontFeature);
  const run = front.middleware();
  return async (ctx, next) => {
    if (ctx.chat?.type !== "private") return next();
    if (ctx.role.kind === "customer" || shopStartCode(ctx.message?.text) !== undefined) {
      await run(ctx, () => Promise.resolve());
      return;
    }
    await next();
  };
}
