/**
 * The /deposit conversation: pick an active deposit method, type the amount (within the method's
 * limits), then the shared confirm screen. Nothing is created here: the Confirm button does that.
 */
import type { DepositMethod } from "../../upstream/types.js";
import type { BaseContext, BotConversation, ConvContext } from "../context.js";
import { html, rupiah } from "../../render/format.js";
import { saveAndConfirm } from "../money/confirm.js";
import { depositDraftFields, depositKind } from "../money/deposit.js";
import { feeDescription } from "../money/depositTexts.js";
import { failureText, withApiKey } from "../provider.js";
import { whileAskingProvider } from "../slowAnswer.js";
import { parseRupiah } from "../amount.js";
import { askChoice, askText, type Choice } from "./steps.js";
import type { Lang } from "../../store/index.js";

export const DEPOSIT_FLOW = "deposit";

type MethodsResult = { ok: true; methods: DepositMethod[] } | { ok: false; text: string };

/** Active methods for the chat's key. The key is read here and never leaves this function. */
async function loadActiveMethods(ctx: BaseContext): Promise<MethodsResult> {
  const methods = await withApiKey(ctx, (key) => ctx.deps.lists.depositMethods(key));
  if (!methods.ok) return { ok: false, text: failureText(ctx, methods.failure) };
  // A downline tops up its wallet by QRIS only: its credit is known before the QR (a bank transfer
  // adds a unique amount; docs/wallets.md "By QRIS").
  const own = (m: DepositMethod) => ctx.role.kind !== "downline" || isQris(m);
  return { ok: true, methods: methods.value.filter((m) => m.active && own(m)) };
}

/** A QRIS method (the provider's `qris`, `qrisfast`...). */
function isQris(m: DepositMethod): boolean {
  return /qris/i.test(m.method) || /qris/i.test(m.name);
}

function limitsText(m: DepositMethod, lang: Lang): string {
  return `${rupiah(m.min, lang)} – ${rupiah(m.max, lang)}`;
}

export async function depositFlow(conversation: BotConversation, ctx: ConvContext): Promise<void> {
  const loaded = await conversation.external((outside) => whileAskingProvider(outside, () => loadActiveMethods(outside)));
  if (!loaded.ok) {
    await ctx.reply(loaded.text);
    return;
  }
  const methods = loaded.methods;
  if (methods.length === 0) {
    await ctx.reply(ctx.t("deposit-no-methods"));
    return;
  }

  const fee = (m: DepositMethod) => feeDescription(ctx, m.fee, m.feePercent);
  const lines = methods.map((m) =>
    ctx.t("deposit-method-line", { method: html(m.name), limits: limitsText(m, ctx.lang), fee: fee(m) }),
  );
  const choices: Choice[] = methods.map((m) => ({ label: `${m.name} · ${fee(m)}`, value: m.method, keywords: m.type }));
  const picked = await askChoice(conversation, ctx, `${ctx.t("deposit-choose-method")}\n\n${lines.join("\n")}`, choices, {
    searchable: true,
  });
  const method = methods.find((m) => m.method === picked.value)!;

  const answer = await askText(
    conversation,
    picked.ctx,
    ctx.t("deposit-ask-amount", { method: html(method.name), min: rupiah(method.min, ctx.lang), max: rupiah(method.max, ctx.lang) }),
    {
      parse(text) {
        const amount = parseRupiah(text);
        if (amount === undefined) return { ok: false, error: "deposit-amount-invalid" };
        if (amount < method.min || amount > method.max) {
          return { ok: false, error: "deposit-amount-out-of-range", vars: { min: rupiah(method.min, ctx.lang), max: rupiah(method.max, ctx.lang) } };
        }
        return { ok: true, value: amount };
      },
    },
  );
  if (!("value" in answer)) return;

  const fields = depositDraftFields(method, answer.value);
  // The draft (reference id) is saved and the confirm screen sent once, outside the replay.
  await conversation.external(async (outside) => {
    await saveAndConfirm(outside, depositKind, fields);
  });
}
