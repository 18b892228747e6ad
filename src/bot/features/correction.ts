/**
 * Text typed while a confirm screen waits (the flow has ended there). A purchase's new target
 * ("no, 0812…") becomes a new confirm screen and voids the old one; anything else is explained
 * instead of "not understood". Nothing is created here: only Confirm does that.
 */
import { Composer } from "grammy";
import type { TxRecord } from "../../store/index.js";
import type { BotContext } from "../context.js";
import { DRAFT_TTL_MS, saveAndConfirm } from "../money/confirm.js";
import { prepaidDraft, prepaidKind } from "../money/prepaid.js";
import { lookupForPurchase } from "../flows/topup.js";
import { validateTarget } from "../targets.js";
import { actsOnTx, ledgerChat } from "../middlewares/roleGate.js";
import type { FeatureModule } from "../module.js";

export const correctionFeature = new Composer<BotContext>();

/** The chat's newest draft whose confirm screen was shown and has not expired. */
async function waitingDraft(ctx: BotContext): Promise<TxRecord | undefined> {
  // Staff share the owner's ledger: a longer look finds their own draft among the others'.
  const items = (await ctx.deps.ledger.recent(ledgerChat(ctx), ctx.role.kind === "staff" ? 20 : 3)).filter((tx) => actsOnTx(ctx, tx));
  const now = ctx.deps.clock.now();
  return items.find((t) => t.status === "draft" && t.messageId !== undefined && now - t.createdAt <= DRAFT_TTL_MS);
}

correctionFeature.chatType("private").on("message:text", async (ctx, next) => {
  const text = ctx.message.text.trim();
  const draft = text.startsWith("/") ? undefined : await waitingDraft(ctx);
  if (!draft) return next();
  if (draft.kind !== "prepaid" || !draft.code) return ctx.reply(ctx.t("confirm-waiting"), { reply_parameters: { message_id: draft.messageId! } });

  const found = await lookupForPurchase(ctx, draft.code);
  const checked = found.ok ? validateTarget(found.product, text) : undefined;
  if (!found.ok || !checked?.ok || checked.value === draft.target) {
    return ctx.reply(ctx.t("confirm-waiting-target"), { reply_parameters: { message_id: draft.messageId! } });
  }
  // Void the old screen first (compare-and-set): its Confirm can no longer create anything.
  if (!await ctx.deps.ledger.cancelDraft(draft.refId, "replaced by a corrected target")) return next();
  await ctx.api.editMessageReplyMarkup(ctx.chat.id, draft.messageId!).catch(() => undefined);
  await saveAndConfirm(ctx, prepaidKind, prepaidDraft(found.product, checked.value));
});

export const correctionModule: FeatureModule = { name: "correction", composer: correctionFeature };
