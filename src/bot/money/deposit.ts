/**
 * The deposit money kind: creating a deposit moves no money yet, but it goes through the same
 * confirm step (one reference id, one create call). After the create, the user gets payment
 * instructions instead of the generic receipt: a QRIS photo rendered locally, a VA number, a bank
 * account with the exact amount (unique add-on included) or an e-wallet pay button.
 *
 * `tx.detail` of a deposit (JSON):
 *   draft:   type, method, methodFee, methodFeePercent, requested, estimatedFee, estimatedCredited
 *   created: expiresAt (epoch ms | null), extra (tambahan), credited (get_balance), qrString, bank,
 *            accountNumber, accountHolder, vaNumber, url, photo (instructions sent as a photo),
 *            instructions ("due" until they were sent: depositInstructions.ts)
 *   release: instant ("sending" | "done" | "unknown"), handlingFee, offers (messages that offered it)
 *   cancel:  cancelling (epoch ms of the claim, while its provider call runs)
 */
import { InputFile } from "grammy";
import { detailOf, type TxRecord } from "../../store/index.js";
import type { DepositMethod } from "../../upstream/types.js";
import type { Ledger } from "../../domain/ledger.js";
import { html, rupiah } from "../../render/format.js";
import { qrPng } from "../../render/qr.js";
import type { DraftFields, MoneyKind } from "./kinds.js";
import { createDeposit, depositDraft } from "../../money/deposits.js";
import { depositInstructionsText, detailNumber, detailString, feeDescription, isBankTransfer } from "./depositTexts.js";
import { depositActionsKeyboard } from "../keyboards/deposit.js";
/** The draft of a deposit of `amount` with `method` (money/deposits.ts: one draft for every way in). */
export function depositDraftFields(method: DepositMethod, amount: number): DraftFields {
  return depositDraft(method, amount);
}

export const depositKind: MoneyKind = {
  kind: "deposit",

  confirmText(ctx, tx) {
    const fixed = detailNumber(tx, "methodFee") ?? 0;
    const percent = detailNumber(tx, "methodFeePercent") ?? 0;
    const fee = detailNumber(tx, "estimatedFee") ?? 0;
    return [
      ctx.t("deposit-confirm-method", { method: html(tx.title ?? tx.code ?? "") }),
      ctx.t("deposit-line-amount", { amount: rupiah(tx.amount, ctx.lang) }),
      // A flat fee or none: the rule would only repeat the amount.
      fee === 0 || percent === 0
        ? ctx.t("deposit-confirm-fee-only", { fee: fee === 0 ? ctx.t("deposit-fee-free") : rupiah(fee, ctx.lang) })
        : ctx.t("deposit-confirm-fee", { fee: rupiah(fee, ctx.lang), rule: feeDescription(ctx, fixed, percent) }),
      // A downline's wallet credit is fixed here; the screen's wallet line says it (confirm.ts).
      ...(tx.wallet
        ? []
        : [
            ctx.t("deposit-confirm-credited", { credited: rupiah(detailNumber(tx, "estimatedCredited") ?? tx.amount - fee, ctx.lang) }),
            ...(isBankTransfer(tx) ? [ctx.t("deposit-confirm-bank-addon")] : []),
            ctx.t("deposit-confirm-note"),
          ]),
    ].join("\n");
  },

  create(ctx, apiKey, tx) {
    return createDeposit(ctx.deps.upstream, apiKey, tx);
  },

  async retryDraft(ctx, apiKey, tx) {
    // Start from the current method list: the refusal may be a method switched off or new limits.
    const methods = await ctx.deps.lists.depositMethods(apiKey);
    const method = methods.find((m) => m.active && m.method === tx.code);
    const amount = detailNumber(tx, "requested") ?? tx.amount;
    if (!method || amount < method.min || amount > method.max) return undefined;
    return depositDraftFields(method, amount);
  },

  async announce(deps, to, tx) {
    if (tx.status !== "pending") return false; // unknown outcome or already final: the generic receipt says it
    const text = depositInstructionsText(deps, to, tx);
    const reply_markup = depositActionsKeyboard(to, tx);
    const qrString = detailString(tx, "qrString");
    const sent = qrString
      ? await to.sendPhoto(new InputFile(await qrPng(qrString), `qris-${tx.refId}.png`), { caption: text, reply_markup })
      : await to.send(text, { reply_markup });
    if (!(await recordInstructions(deps.ledger, tx.refId, sent.message_id, qrString !== undefined))) {
      // Told meanwhile on the message it had (a slow Telegram held this one): the outcome stands
      // there, and a payment screen for a deposit that moved on must not stay in the chat.
      await to.remove(sent.message_id).catch((err: unknown) => deps.logger.warn({ err, refId: tx.refId }, "could not take back a deposit's outdated payment instructions"));
    }
    await deps.ledger.flush();
    return true;
  },
};

/**
 * Makes a just-sent instructions message the deposit's own, only while it is still pending and no
 * notice is under way: a notice edits the message it read when it started, so a later switch would
 * leave the chat's deposit message unpayable and untold (chaos seed 1614). False: not recorded.
 */
export async function recordInstructions(ledger: Ledger, refId: string, messageId: number, photo: boolean): Promise<boolean> {
  const open = (c: Readonly<TxRecord> | undefined): c is Readonly<TxRecord> => c?.status === "pending" && c.watch?.announcing === undefined;
  for (;;) {
    const latest = await ledger.get(refId);
    if (!open(latest)) return false;
    // From the latest detail: what a check learned since the send is kept.
    const { instructions: _due, ...detail } = detailOf(latest, "deposit");
    const unchanged = (c: Readonly<TxRecord>) => open(c) && c.updatedAt === latest.updatedAt;
    if (await ledger.transition(refId, ["pending"], { messageId, detail: photo ? { ...detail, photo: true } : detail }, unchanged)) return true;
  }
}
