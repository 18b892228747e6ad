/** Small reply helpers shared by features: HTML parse mode, the sandbox banner, upstream error text. */
import type { UpstreamError } from "../upstream/errors.js";
import type { BaseContext } from "./context.js";
import { withSandboxBanner } from "../render/money.js";
import { failureOf, failureText } from "./provider.js";

/** Every money message starts with the sandbox banner when the bot runs against the sandbox. */
export function moneyText(ctx: BaseContext, text: string): string {
  return withSandboxBanner(ctx.translate, ctx.lang, ctx.deps.sandbox, text);
}

/** What a user is told about an upstream failure, in their language. */
export function upstreamErrorText(ctx: BaseContext, err: UpstreamError): string {
  return failureText(ctx, failureOf(err));
}
