/** Small reply helpers shared by features: HTML parse mode, the sandbox banner, upstream error text. */
import { UpstreamRejected, UpstreamUnavailable, type UpstreamError } from "../upstream/errors.js";
import type { BaseContext } from "./context.js";
import { html } from "../render/format.js";
import { withSandboxBanner } from "../render/money.js";

/** Every money message starts with the sandbox banner when the bot runs against the sandbox. */
export function moneyText(ctx: BaseContext, text: string): string {
  return withSandboxBanner(ctx.translate, ctx.lang, ctx.deps.sandbox, text);
}

/** What a user is told about an upstream failure, in their language. */
export function upstreamErrorText(ctx: BaseContext, err: UpstreamError): string {
  if (err instanceof UpstreamRejected) return ctx.t("upstream-rejected", { message: html(err.providerMessage) });
  if (err instanceof UpstreamUnavailable) return ctx.t("upstream-unavailable");
  return ctx.t("upstream-unexpected");
}
