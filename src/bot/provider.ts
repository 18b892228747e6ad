/**
 * A provider call with the chat's api key, its errors turned into plain data: conversations must
 * run it inside `conversation.external`, and class instances do not survive that (its result is
 * replayed as JSON). The key is read here and never returned, so it never enters a replay log.
 */
import { UpstreamError, UpstreamRejected, UpstreamUnavailable } from "../upstream/errors.js";
import type { BaseContext } from "./context.js";
import { html } from "../render/format.js";
import { ledgerChat } from "./middlewares/roleGate.js";
import { whileAskingProvider } from "./slowAnswer.js";
import { notLinkedText } from "./guards.js";

/** Why a provider call gave no answer to use. */
export type ProviderFailure =
  | { kind: "not-linked" | "unavailable" | "unexpected" }
  | { kind: "rejected"; message: string };

export type ProviderOutcome<T> = { ok: true; value: T } | { ok: false; failure: ProviderFailure };

export function failureOf(err: UpstreamError): ProviderFailure {
  if (err instanceof UpstreamRejected) return { kind: "rejected", message: err.providerMessage };
  return { kind: err instanceof UpstreamUnavailable ? "unavailable" : "unexpected" };
}

/**
 * Runs `call` with the chat's api key, with the signs of a wait (typing, then "checking with the
 * provider"); a missing key or an upstream error comes back as data. `ctx` is the update's own
 * context: in a conversation, the one `conversation.external` hands its callback.
 */
export async function withApiKey<T>(ctx: BaseContext, call: (apiKey: string) => Promise<T>): Promise<ProviderOutcome<T>> {
  const apiKey = ctx.chat && await ctx.deps.providerLink.keyOf(ledgerChat(ctx));
  if (!apiKey) return { ok: false, failure: { kind: "not-linked" } };
  return whileAskingProvider(ctx, async (): Promise<ProviderOutcome<T>> => {
    try {
      return { ok: true, value: await call(apiKey) };
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      return { ok: false, failure: failureOf(err) };
    }
  });
}

/**
 * What the user is told about a failure, in their language. `refused` may word a refusal the
 * flow understands better (a bill already paid); undefined falls back to the provider's message.
 */
export function failureText(ctx: BaseContext, f: ProviderFailure, refused?: (message: string) => string | undefined): string {
  switch (f.kind) {
    case "not-linked":
      return notLinkedText(ctx);
    case "unavailable":
      return ctx.t("upstream-unavailable");
    case "unexpected":
      return ctx.t("upstream-unexpected");
    case "rejected":
      return refused?.(f.message) ?? ctx.t("upstream-rejected", { message: html(f.message) });
  }
}
