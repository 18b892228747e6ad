/** A deposit's buttons: check, cancel (and its question), the instant release; the same outside an update for the watcher. */
import { InlineKeyboard } from "grammy";
import type { InlineKeyboardMarkup } from "grammy/types";
import { detailOf, type Lang, type TxRecord } from "../../store/index.js";
import { cb } from "../buttons.js";
import type { Translate } from "../../render/i18n.js";
import { detailString } from "../money/depositTexts.js";
import type { Translator } from "./translator.js";

/** Buttons under a deposit's message for its current state; undefined once it is final. */
export function depositActionsKeyboard(ctx: Translator, tx: TxRecord): InlineKeyboard | undefined {
  const kb = new InlineKeyboard();
  const url = detailString(tx, "url");
  switch (tx.status) {
    case "pending":
      if (url) kb.url(ctx.t("deposit-button-pay"), url).row();
      return kb.text(ctx.t("button-check-status"), cb.status.encode({ refId: tx.refId })).text(ctx.t("deposit-button-cancel"), cb.depositCancel.encode({ refId: tx.refId }));
    case "processing":
      kb.text(ctx.t("button-check-status"), cb.status.encode({ refId: tx.refId }));
      // Offered until a release was asked for; the release itself is guarded in the feature.
      // Never for a downline's wallet deposit: it is credited once paid, no release fee spent on it.
      if (tx.upstreamId && !tx.wallet && detailOf(tx, "deposit").instant === undefined) kb.text(ctx.t("deposit-button-release"), cb.depositRelease.encode({ refId: tx.refId }));
      return kb;
    case "draft":
    case "success":
    case "failed":
    case "expired":
    case "cancel":
      return undefined;
    default:
      return kb.text(ctx.t("button-check-status"), cb.status.encode({ refId: tx.refId }));
  }
}

/** For the status watcher (`processingMarkup`): the same buttons in a chat's language, outside an update. */
export function depositProcessingMarkup(t: Translate, lang: Lang, tx: TxRecord): InlineKeyboardMarkup | undefined {
  return depositActionsKeyboard({ t: (key, vars) => t(lang, key, vars) }, tx);
}

/** Asks before a deposit is cancelled at the provider. */
export function depositCancelAskKeyboard(tr: Translator, refId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("deposit-button-cancel-yes"), cb.depositCancelYes.encode({ refId }))
    .text(tr.t("deposit-button-cancel-no"), cb.depositCancelNo.encode({ refId }));
}

/** Under the instant release's price: release now, or wait. */
export function depositReleaseAskKeyboard(tr: Translator, refId: string): InlineKeyboard {
  return new InlineKeyboard()
    .text(tr.t("deposit-button-release-confirm"), cb.depositReleaseConfirm.encode({ refId }))
    .text(tr.t("deposit-button-release-later"), cb.depositReleaseLater.encode({ refId }));
}
