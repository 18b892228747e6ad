/**
 * A downline's /tarik (docs/wallets.md "Money out"): pick a bank or e-wallet, the account checked as in
 * /transfer (with the owner's key), the amount (at most what the wallet has available), a confirm step.
 * Confirm saves a transfer draft of the owner's ledger made by the downline with its wallet part already
 * held (money/payouts.ts, as H2H's transfer/create; the store refuses it when the wallet has too
 * little), and the owner gets one message to open the ordinary transfer confirm screen or decline.
 * Nothing is sent from here.
 */
import type { BotConversation, ConvContext } from "../context.js";
import { html, rupiah } from "../../render/format.js";
import type { TxRecord } from "../../store/index.js";
import { requestPayout } from "../../money/payouts.js";
import { parseRupiah } from "../amount.js";
import { newRefId } from "../money/refs.js";
import { destinationName, transferKind, type TransferDestination } from "../money/transfer.js";
import { askCheckedAccount, askValue, chooseBank, MIN_TRANSFER } from "./transfer.js";
import { askChoice, type TextStep } from "./steps.js";

export const PAYOUT_FLOW = "payout";

function amountStep(ctx: ConvContext): TextStep<number> {
  return {
    parse(text) {
      const amount = parseRupiah(text);
      if (amount === undefined) return { ok: false, error: "transfer-amount-invalid" };
      if (amount < MIN_TRANSFER) return { ok: false, error: "payout-amount-too-small", vars: { min: rupiah(MIN_TRANSFER, ctx.lang) } };
      return { ok: true, value: amount };
    },
  };
}

/** The request saved and held, or the wallet's available when it had too little. */
type Requested = { readonly ok: true; readonly tx: TxRecord } | { readonly ok: false; readonly available: number };

async function request(ctx: ConvContext, dest: TransferDestination, amount: number): Promise<Requested> {
  const role = ctx.role;
  if (role.kind !== "downline") throw new Error("a payout is a downline's");
  const chat = ctx.chat!.id;
  const name = ctx.from?.first_name ?? ctx.from?.username ?? String(chat);
  // The one request both entrances make (money/payouts.ts): held in the draft's own write.
  const refId = newRefId(transferKind.kind, ctx.deps.clock.now());
  const made = await requestPayout(ctx.deps.money, ctx.deps.ledger, { owner: role.owner, chat, name, dest, amount, note: "", refId });
  return made.ok ? { ok: true, tx: made.tx } : made;
}

export async function payoutFlow(conversation: BotConversation, ctx: ConvContext): Promise<void> {
  const chosen = await chooseBank(conversation, ctx, "payout-choose-bank");
  if (!chosen) return;
  const { dest, ctx: afterCheck } = await askCheckedAccount(conversation, chosen.ctx, chosen.bank);
  const bank = destinationName(afterCheck, dest.bankName, dest.bankType);
  const found = afterCheck.t("transfer-account-found", { type: dest.bankType, bank, number: html(dest.accountNumber), holder: html(dest.holderName || "-") });
  const availableNow = () => conversation.external(async (outside) => (await outside.deps.wallets.view(outside.chat!.id)).available);

  let c = afterCheck;
  let prompt = `${found}\n\n${c.t("payout-ask-amount", { available: rupiah(await availableNow(), c.lang), min: rupiah(MIN_TRANSFER, c.lang) })}`;
  for (;;) {
    const answer = await askValue(conversation, c, prompt, amountStep(c));
    c = answer.ctx;
    const amount = answer.value;
    // Told here, where a smaller amount is one message away; the hold's own write checks again.
    const available = await availableNow();
    if (amount > available) {
      prompt = c.t("payout-amount-short", { available: rupiah(available, c.lang), amount: rupiah(amount, c.lang) });
      continue;
    }
    const vars = { amount: rupiah(amount, c.lang), bank, number: html(dest.accountNumber), holder: html(dest.holderName || "-") };
    const confirmed = await askChoice(conversation, c, c.t("payout-confirm", vars), [{ label: c.t("button-confirm"), value: "yes" }]);
    c = confirmed.ctx;
    const made = await conversation.external((outside) => request(outside, dest, amount));
    if (!made.ok) {
      prompt = c.t("payout-amount-short", { available: rupiah(made.available, c.lang), amount: rupiah(amount, c.lang) });
      continue;
    }
    const tx = made.tx;
    await conversation.external(async (outside) => {
      const wallet = await outside.deps.wallets.view(outside.chat!.id);
      await outside.reply(outside.t("payout-held", { ...vars, available: rupiah(wallet.available, outside.lang), ref: html(tx.refId) }));
      await outside.deps.payouts.offer(tx);
    });
    return;
  }
}
