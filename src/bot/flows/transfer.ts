/**
 * The /transfer conversation: pick a bank or e-wallet, type the account number, the provider checks
 * the account (valid -> holder name; invalid -> retype; processing -> "check again"), type the
 * amount, an optional note, then the shared confirm screen.
 *
 * The api key is read inside each `external` and never returned from it, so it never enters the
 * conversation's replay log.
 */
import type { AccountCheck, Bank } from "../../upstream/types.js";
import type { BotConversation, ConvContext } from "../context.js";
import { html, rupiah } from "../../render/format.js";
import { saveDraft, showConfirm } from "../money/confirm.js";
import {
  bankTypeOf,
  destinationName,
  feeAtMost,
  transferDraft,
  transferKind,
  type BankType,
  type TransferDestination,
} from "../money/transfer.js";
import { parseRupiah } from "../amount.js";
import { failureText, withApiKey } from "../provider.js";
import { whileAskingProvider } from "../slowAnswer.js";
import { transferCheckAgainKeyboard, transferSkipNoteKeyboard } from "../keyboards/transfer.js";
import { suggestionsFor } from "../savedCustomers.js";
import { askChoice, askText, type TextStep } from "./steps.js";
import type { Lang } from "../../store/index.js";
import { MIN_TRANSFER } from "../../domain/transferDrafts.js";

export const TRANSFER_FLOW = "transfer";
export { MIN_TRANSFER };
export const NOTE_MAX = 100;

// ---- parsing what the user types ------------------------------------------------------------------

/** "1234 5678-90" -> "1234567890"; 5 to 20 digits, else undefined. */
export function parseAccountNumber(text: string): string | undefined {
  const digits = text.replace(/[\s-]/g, "");
  return /^\d{5,20}$/.test(digits) ? digits : undefined;
}

const accountStep: TextStep<string> = {
  parse(text) {
    const number = parseAccountNumber(text);
    return number ? { ok: true, value: number } : { ok: false, error: "transfer-account-bad-format" };
  },
};

function amountStep(lang: Lang): TextStep<number> {
  return {
  parse(text) {
    const amount = parseRupiah(text);
    if (amount === undefined) return { ok: false, error: "transfer-amount-invalid" };
    if (amount < MIN_TRANSFER) return { ok: false, error: "transfer-amount-too-small", vars: { min: rupiah(MIN_TRANSFER, lang) } };
    return { ok: true, value: amount };
  },
  };
}

function noteStep(ctx: ConvContext): TextStep<string> {
  return {
    parse(text) {
      const note = text.replace(/\s+/g, " ").trim();
      if (note.length > NOTE_MAX) return { ok: false, error: "transfer-note-too-long", vars: { max: NOTE_MAX, length: note.length } };
      return { ok: true, value: note };
    },
    keyboard: transferSkipNoteKeyboard(ctx),
  };
}

// ---- the steps ----------------------------------------------------------------------------------

/**
 * E-wallets first (few, used most by walk-in customers), then banks, each in the provider's order.
 * `prompt`: the key of the words above the list (a downline's payout has its own).
 */
export async function chooseBank(conversation: BotConversation, ctx: ConvContext, prompt = "transfer-choose-bank"): Promise<{ bank: Bank; ctx: ConvContext } | undefined> {
  const list = await conversation.external((outside) => whileAskingProvider(outside, () => withApiKey(outside, (key) => outside.deps.lists.banks(key))));
  if (!list.ok) {
    await ctx.reply(failureText(ctx, list.failure));
    return undefined;
  }
  const banks = [...list.value].sort((a, b) => rank(a) - rank(b));
  if (banks.length === 0) {
    await ctx.reply(ctx.t("transfer-no-banks"));
    return undefined;
  }
  const choices = banks.map((b) => {
    const ewallet = bankTypeOf(b.type) === "ewallet";
    return {
      label: ctx.t(ewallet ? "transfer-choice-ewallet" : "transfer-choice-bank", { name: b.name }),
      value: b.code,
      keywords: ewallet ? "ewallet e-wallet dompet" : "bank rekening",
    };
  });
  const picked = await askChoice(conversation, ctx, ctx.t(prompt), choices, { searchable: true, none: "transfer-search-none" });
  return { bank: banks.find((b) => b.code === picked.value)!, ctx: picked.ctx };
}

const rank = (b: Bank) => (bankTypeOf(b.type) === "ewallet" ? 0 : 1);

/**
 * Asks for the account number until the provider confirms the account. An invalid account asks
 * again; one still being checked (or a failed check) offers "check again" next to typing another.
 */
export async function askCheckedAccount(
  conversation: BotConversation,
  ctx: ConvContext,
  bank: Bank,
): Promise<{ dest: TransferDestination; ctx: ConvContext }> {
  const bankType: BankType = bankTypeOf(bank.type);
  const name = destinationName(ctx, bank.name, bankType);
  let prompt = ctx.t("transfer-ask-account", { bank: name, type: bankType });
  let recheck: string | undefined; // the number a "check again" button re-checks
  let c = ctx;
  // Saved accounts and recent transfers to this bank, offered as buttons.
  const chatId = ctx.chat!.id;
  const suggestions = await conversation.external(async () =>
    await suggestionsFor(ctx.deps, { ledger: chatId, customers: chatId }, {
      kind: "account",
      fitsSaved: (s) => s.code === bank.code,
      fitsTx: (tx) => tx.kind === "transfer" && tx.code === bank.code,
      valid: (t) => parseAccountNumber(t) !== undefined,
    }),
  );
  for (;;) {
    const step: TextStep<string> = { ...accountStep, suggestions, ...(recheck === undefined ? {} : { keyboard: transferCheckAgainKeyboard(c) }) };
    const answer = await askText(conversation, c, prompt, step);
    c = answer.ctx;
    let number: string | undefined;
    if ("button" in answer) {
      if (answer.button === "recheck") await c.editMessageReplyMarkup().catch(() => undefined);
      number = answer.button === "recheck" ? recheck : undefined;
    } else {
      number = answer.value;
    }
    if (number === undefined) continue; // a stale button of an earlier message: ask again
    const check = await conversation.external((outside) =>
      whileAskingProvider(outside, () => withApiKey(outside, (key) => outside.deps.upstream.checkAccount(key, { bankCode: bank.code, accountNumber: number }))),
    );
    const vars = { bank: name, number: html(number) };
    if (check.ok && check.value.status === "valid") {
      return { dest: destination(bank, bankType, number, check.value), ctx: c };
    }
    if (check.ok && check.value.status === "invalid") {
      prompt = c.t("transfer-account-invalid", vars);
      recheck = undefined;
      continue;
    }
    prompt = check.ok
      ? c.t("transfer-account-processing", vars)
      : `${failureText(c, check.failure)}\n\n${c.t("transfer-account-check-failed", vars)}`;
    recheck = number;
  }
}

function destination(bank: Bank, bankType: BankType, accountNumber: string, check: AccountCheck): TransferDestination {
  return { bankCode: bank.code, bankName: bank.name, bankType, accountNumber, holderName: check.holderName };
}

/** Asks with a text-only step; a stale in-flow button just asks again. */
export async function askValue<T>(conversation: BotConversation, ctx: ConvContext, prompt: string, step: TextStep<T>) {
  let c = ctx;
  for (;;) {
    const answer = await askText(conversation, c, prompt, step);
    if (!("button" in answer)) return answer;
    c = answer.ctx;
  }
}

/**
 * The balance (the briefly cached profile) against the amount plus the most the fee may be, as the
 * confirm step checks it; undefined when it fits or the balance cannot be read (the confirm step says).
 */
async function shortOfBalance(ctx: ConvContext, amount: number, bankType: BankType): Promise<{ balance: number; fee: number } | undefined> {
  const read = await withApiKey(ctx, (key) => ctx.deps.lists.profile(key));
  const balance = read.ok ? read.value.balance : undefined;
  if (typeof balance !== "number") return undefined;
  const fee = await feeAtMost(ctx.deps.ledger, ctx.chat!.id, bankType);
  return amount + fee > balance ? { balance, fee } : undefined;
}

export async function transferFlow(conversation: BotConversation, ctx: ConvContext): Promise<void> {
  const chosen = await chooseBank(conversation, ctx);
  if (!chosen) return;
  const { dest, ctx: afterCheck } = await askCheckedAccount(conversation, chosen.ctx, chosen.bank);

  const found = afterCheck.t("transfer-account-found", {
    type: dest.bankType,
    bank: destinationName(afterCheck, dest.bankName, dest.bankType),
    number: html(dest.accountNumber),
    holder: html(dest.holderName || "-"),
  });
  const amountPrompt = `${found}\n\n${afterCheck.t("transfer-ask-amount", { min: rupiah(MIN_TRANSFER, ctx.lang) })}`;
  let amount = await askValue(conversation, afterCheck, amountPrompt, amountStep(afterCheck.lang));
  // Told here, where a smaller amount is one message away, not after the note at the confirm step.
  for (;;) {
    const value = amount.value;
    const short = await conversation.external((outside) => shortOfBalance(outside, value, dest.bankType));
    if (!short) break;
    const a = amount.ctx;
    const figures = { balance: rupiah(short.balance, a.lang), amount: rupiah(value, a.lang), fee: rupiah(short.fee, a.lang) };
    const max = short.balance - short.fee;
    const retype =
      max < MIN_TRANSFER
        ? a.t("transfer-over-balance-none", { min: rupiah(MIN_TRANSFER, a.lang) })
        : short.fee > 0
          ? a.t("transfer-over-balance-retype", { max: rupiah(max, a.lang) })
          : a.t("transfer-over-balance-retype-fee-unknown"); // the fee is told only by the create's answer
    const said = a.t(short.fee > 0 ? "transfer-over-balance-fee" : "transfer-over-balance", figures);
    amount = await askValue(conversation, a, `${said}\n${retype}`, amountStep(a.lang));
  }

  let c = amount.ctx;
  let note = "";
  for (;;) {
    const answer = await askText(conversation, c, c.t("transfer-ask-note", { max: NOTE_MAX }), noteStep(c));
    c = answer.ctx;
    if (!("button" in answer)) {
      note = answer.value;
      break;
    }
    if (answer.button === "skip") {
      await c.editMessageReplyMarkup().catch(() => undefined);
      break;
    }
  }

  // The draft (with its new reference id) is saved once; the confirm screen is the flow's last act.
  const chatId = c.chat!.id;
  const tx = await conversation.external(async () =>
    saveDraft(c, transferKind, await transferDraft(c.deps.ledger, chatId, dest, amount.value, note)),
  );
  await showConfirm(c, transferKind, tx);
}
