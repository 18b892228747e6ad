/**
 * The bill flow (/tagihan): pick a postpaid service, type the customer number, see the bill on a
 * confirm screen. The draft (and so the reference id the payment will reuse) is saved before the
 * inquiry call. A number the provider does not know, a bill already paid or an outage leaves the
 * user at the number step to type another (or retry); the failed inquiry's draft is cancelled.
 */
import type { TxRecord } from "../../store/index.js";
import type { BillInquiry } from "../../upstream/types.js";
import type { BaseContext, BotConversation, ConvContext } from "../context.js";
import { html } from "../../render/format.js";
import { saveDraft, showConfirm } from "../money/confirm.js";
import { billFields, postpaidKind } from "../money/postpaid.js";
import { billRetryKeyboard } from "../keyboards/bill.js";
import { failureText, withApiKey, type ProviderFailure, type ProviderOutcome } from "../provider.js";
import { suggestionsFor, type OfferedFrom } from "../savedCustomers.js";
import { askChoice, askText, type TextStep } from "./steps.js";
import { customersChat, ledgerChat, seesTx } from "../middlewares/roleGate.js";
import { notLinkedText } from "../guards.js";

export const BILL_FLOW = "bill";

export const CUSTOMER_NO_MIN = 6;
export const CUSTOMER_NO_MAX = 20;

/** A postpaid service as the flow keeps it (plain JSON: it passes through `external`). */
interface Service {
  code: string;
  name: string;
  note: string;
  available: boolean;
  keywords: string;
}

/** Customer numbers are digits; people paste them with spaces, dashes or dots. */
export const customerNumberStep: TextStep<string> = {
  parse(text) {
    const digits = text.replace(/[\s.-]/g, "");
    if (!/^\d+$/.test(digits)) return { ok: false, error: "bill-number-not-digits" };
    if (digits.length < CUSTOMER_NO_MIN || digits.length > CUSTOMER_NO_MAX) {
      return { ok: false, error: "bill-number-length", vars: { min: CUSTOMER_NO_MIN, max: CUSTOMER_NO_MAX, length: digits.length } };
    }
    return { ok: true, value: digits };
  },
};

/**
 * A refusal worded for bills (the number is unknown, the bill is paid already); the provider only
 * gives a message, so its wording says which it is. Undefined: any other refusal.
 */
export function refusalText(ctx: ConvContext, message: string, serviceName = ""): string | undefined {
  if (/sudah\s*(di)?bayar|lunas|already\s+paid|(tidak|belum)\s+ada\s+tagihan|no\s+(outstanding\s+)?bill/i.test(message)) {
    return ctx.t("bill-already-paid", { message: html(message) });
  }
  if (/tidak\s+(di)?temukan|tidak\s+terdaftar|not\s+found|unknown\s+customer/i.test(message)) {
    return ctx.t("bill-not-found", { message: html(message), service: html(serviceName) });
  }
  return undefined;
}

async function loadServices(ctx: BaseContext): Promise<ProviderOutcome<Service[]>> {
  return withApiKey(ctx, async (key) =>
    (await ctx.deps.lists.postpaid(key)).map((p) => ({
      code: p.code,
      name: p.name || p.code,
      note: p.note,
      available: p.available,
      keywords: `${p.category} ${p.type}`,
    })),
  );
}

async function chooseService(
  conversation: BotConversation,
  ctx: ConvContext,
  services: Service[],
): Promise<{ service: Service; ctx: ConvContext }> {
  const choices = services.map((s) => ({
    label: s.available ? s.name : ctx.t("bill-service-off", { name: s.name }),
    value: s.code,
    keywords: s.keywords,
  }));
  let prompt = ctx.t("bill-choose-service");
  for (;;) {
    const picked = await askChoice(conversation, ctx, prompt, choices, { searchable: true });
    ctx = picked.ctx;
    const service = services.find((s) => s.code === picked.value)!;
    if (service.available) return { service, ctx };
    // Shown so the user knows it exists, but the provider would refuse it now.
    prompt = `${ctx.t("bill-service-unavailable", { name: html(service.name) })}\n\n${ctx.t("bill-choose-service")}`;
  }
}

/**
 * Saves the draft (its reference id is the one the payment must reuse), then asks the provider for
 * the bill under that id. On success the draft carries the bill; on failure it is cancelled.
 */
async function inquire(
  conversation: BotConversation,
  ctx: ConvContext,
  service: Service,
  customerNo: string,
): Promise<{ ok: true; tx: TxRecord } | { ok: false; failure: ProviderFailure }> {
  const refId = await conversation.external(async () => {
    const draft = await saveDraft(ctx, postpaidKind, { code: service.code, title: service.name, target: customerNo, amount: 0 });
    return draft.refId;
  });
  // With the update's own context: the signs of a wait are sent once, not replayed.
  const answer = await conversation.external((outside) =>
    withApiKey<BillInquiry>(outside, (key) => outside.deps.upstream.billInquiry(key, { code: service.code, reffId: refId, customerNo })),
  );
  if (answer.ok) {
    const tx = await conversation.external(async () => {
      return await ctx.deps.ledger.updateDurably(refId, billFields(answer.value));
    });
    return { ok: true, tx };
  }
  await conversation.external(async () => {
    const message = answer.failure.kind === "rejected" ? answer.failure.message : `inquiry failed: ${answer.failure.kind}`;
    await ctx.deps.ledger.cancelDraft(refId, message);
  });
  return { ok: false, failure: answer.failure };
}

export async function billFlow(conversation: BotConversation, ctx: ConvContext): Promise<void> {
  const loaded = await conversation.external((outside) => loadServices(outside));
  if (!loaded.ok) {
    await ctx.reply(failureText(ctx, loaded.failure, (message) => refusalText(ctx, message)));
    return;
  }
  if (loaded.value.length === 0) {
    await ctx.reply(ctx.t("bill-no-services"));
    return;
  }
  const chosen = await chooseService(conversation, ctx, loaded.value);
  const service = chosen.service;
  ctx = chosen.ctx;

  const note = service.note ? `\n${ctx.t("bill-provider-note", { note: html(service.note) })}` : "";
  let prompt = `${ctx.t("bill-ask-number", { service: html(service.name) })}${note}`;
  // Saved customers and recent numbers of this service, offered as buttons.
  const from: OfferedFrom = { ledger: ledgerChat(ctx), customers: customersChat(ctx), sees: (tx) => seesTx(ctx, tx) };
  const suggestions = await conversation.external(async () =>
    await suggestionsFor(ctx.deps, from, {
      kind: "number",
      // A meter number saved from a token sale is not a bill's customer number: same service only.
      fitsSaved: (c) => c.source === "postpaid" && c.code === service.code,
      fitsTx: (tx) => tx.kind === "postpaid" && tx.code === service.code,
      valid: (t) => customerNumberStep.parse(t).ok,
    }),
  );
  /** After an outage: the number a Retry button inquires again. */
  let retryNumber: string | undefined;
  for (;;) {
    const keyboard = retryNumber ? billRetryKeyboard(ctx) : undefined;
    const answer = await askText(conversation, ctx, prompt, { ...customerNumberStep, keyboard, suggestions });
    ctx = answer.ctx;
    const customerNo = "value" in answer ? answer.value : retryNumber;
    if (!customerNo) continue;

    const result = await inquire(conversation, ctx, service, customerNo);
    if (result.ok) {
      // With the outside context: the reply and the store write of its message id happen once.
      await conversation.external((outside) => showConfirm(outside, postpaidKind, result.tx));
      return;
    }
    if (result.failure.kind === "not-linked") {
      await ctx.reply(notLinkedText(ctx));
      return;
    }
    const retryable = result.failure.kind === "unavailable" || result.failure.kind === "unexpected";
    retryNumber = retryable ? customerNo : undefined;
    const failed = failureText(ctx, result.failure, (message) => refusalText(ctx, message, service.name));
    prompt = `${failed}\n\n${ctx.t(retryable ? "bill-retry-or-other" : "bill-number-other")}`;
  }
}
