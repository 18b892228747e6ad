/**
 * The building blocks of every guided flow (conversations v2): wait for the user's next step with a
 * 10-minute limit on the injected clock, a Cancel button on every prompt, and a way out through any
 * other command or menu button. Side effects go through `conversation.external` (replay-safe).
 */
import { html } from "../../render/format.js";
import { hideKeys, isKeyShaped } from "../../domain/keyShape.js";
import type { InlineKeyboard } from "grammy";
import { cancelRow, choiceKeyboard, textStepKeyboard } from "../keyboards/steps.js";
import { cb, isFlowData, SUGGESTION_INDEX_MAX, type FlowButton } from "../buttons.js";
import type { BotConversation, ConvContext } from "../context.js";
import { paginate } from "../paging.js";
import { commandPattern } from "../../telegram/commands.js";

export const STEP_TIMEOUT_MS = 10 * 60_000;
export const PAGE_SIZE = 8;
const CANCEL_COMMAND = commandPattern("batal");

/** The clock, read replay-safely. */
export function now(conversation: BotConversation, ctx: ConvContext): Promise<number> {
  return conversation.external(() => ctx.deps.clock.now());
}

export { cancelRow };

/**
 * Waits for the next update of this flow. Ends the flow politely after 10 minutes of silence; lets
 * another command or a menu button end the flow and run; passes buttons of other messages (a
 * confirm screen, a status button) on to their handlers without ending the flow.
 */
export async function waitStep(conversation: BotConversation, ctx: ConvContext): Promise<ConvContext> {
  const startedAt = await now(conversation, ctx);
  for (;;) {
    const next = await conversation.wait();
    const at = await now(conversation, next);
    const text = next.message?.text;
    const data = next.callbackQuery?.data;
    const isCommand = text?.startsWith("/") ?? false;
    if (at - startedAt > STEP_TIMEOUT_MS) {
      if (next.callbackQuery) await next.answerCallbackQuery();
      await next.reply(next.t("step-timeout"));
      await conversation.halt({ next: isCommand });
    }
    if (isCommand || (data !== undefined && cb.menu.decode(data))) {
      // /batal says "cancelled" itself; anything else leaves the flow: say so before it runs.
      if (!(text && CANCEL_COMMAND.test(text))) await next.reply(next.t("flow-left"));
      await conversation.halt({ next: true });
    }
    if (data !== undefined && !isFlowData(data)) await conversation.skip({ next: true });
    if (next.message && !text) {
      await next.reply(next.t("flow-send-text"));
      continue;
    }
    return next;
  }
}

/**
 * An API key pasted where the step wanted something else (a number, a search): deleted, never taken
 * as an answer, and the user pointed to /kunci. Only text the step refused counts, so a free-text
 * answer (a transfer note) that merely looks like a key is not touched.
 */
async function keyPasted(next: ConvContext): Promise<boolean> {
  const text = next.message?.text?.trim() ?? "";
  if (!isKeyShaped(text)) return false;
  await next.deleteMessage().catch(() => undefined);
  await next.reply(next.t("key-other-pasted"));
  return true;
}

/** A ready answer offered as a button (a saved customer, a recent target). */
export interface Suggestion {
  label: string;
  value: string;
}

export interface TextStep<T> {
  /** Returns the parsed value, or the locale key of the error to show (the user tries again). */
  parse(text: string): { ok: true; value: T } | { ok: false; error: string; vars?: Record<string, string | number> };
  /** Extra buttons under the prompt (e.g. "Skip", made with `cb.flowButton`); pressing one returns its name. */
  keyboard?: InlineKeyboard;
  /** Answers offered as buttons above the others; a tap goes through `parse` as if it had been typed. */
  suggestions?: readonly Suggestion[];
}

/** The prompt's buttons: suggestions two to a row, the step's own buttons, Cancel. */
function stepKeyboard<T>(ctx: ConvContext, step: TextStep<T>): InlineKeyboard {
  return textStepKeyboard(ctx, (step.suggestions ?? []).map((s) => s.label), SUGGESTION_INDEX_MAX + 1, step.keyboard);
}

/** Asks for text; re-asks on invalid input (nothing typed so far is lost). */
export async function askText<T>(
  conversation: BotConversation,
  ctx: ConvContext,
  prompt: string,
  step: TextStep<T>,
): Promise<{ value: T; ctx: ConvContext } | { button: FlowButton | undefined; ctx: ConvContext }> {
  await ctx.reply(prompt, { reply_markup: stepKeyboard(ctx, step) });
  for (;;) {
    const next = await waitStep(conversation, ctx);
    const data = next.callbackQuery?.data ?? "";
    const suggested = cb.flowSuggestion.decode(data);
    const offered = suggested && step.suggestions?.[suggested.index];
    if (offered) {
      await next.answerCallbackQuery();
      const parsed = step.parse(offered.value);
      if (parsed.ok) {
        await next.editMessageReplyMarkup().catch(() => undefined);
        return { value: parsed.value, ctx: next };
      }
      await next.reply(next.t(parsed.error, parsed.vars), { reply_markup: stepKeyboard(next, step) });
      continue;
    }
    if (next.callbackQuery) {
      await next.answerCallbackQuery();
      // undefined: a stale button of another step of a flow.
      return { button: cb.flowButton.decode(data)?.button, ctx: next };
    }
    const parsed = step.parse(next.message!.text!.trim());
    if (parsed.ok) return { value: parsed.value, ctx: next };
    if (await keyPasted(next)) continue;
    await next.reply(next.t(parsed.error, parsed.vars), { reply_markup: stepKeyboard(next, step) });
  }
}

export interface Choice {
  label: string;
  value: string;
  /** Extra words to match when the user types a search. */
  keywords?: string;
}

/**
 * Shows options as a paged inline keyboard; the user taps one, pages, or (when searchable) types
 * words to narrow the list. Returns the chosen value. Option values are referenced by index in
 * the callback data, so long codes never exceed Telegram's 64-byte limit. `none`: the key of the words
 * when a search finds nothing (with $query).
 */
export async function askChoice(
  conversation: BotConversation,
  ctx: ConvContext,
  prompt: string,
  choices: readonly Choice[],
  opts: { searchable?: boolean; columns?: number; none?: string } = {},
): Promise<{ value: string; ctx: ConvContext }> {
  let visible = choices.map((_, i) => i);
  let page = 0;
  const render = (c: ConvContext) => {
    const shown = paginate(visible, page, PAGE_SIZE);
    page = shown.page;
    const items = shown.items.map((index) => ({ index, label: choices[index]!.label }));
    return choiceKeyboard(c, { ...shown, items }, opts.columns ?? 1);
  };
  const header = (c: ConvContext) =>
    opts.searchable ? `${prompt}\n\n${c.t("flow-search-hint")}` : prompt;
  await ctx.reply(header(ctx), { reply_markup: render(ctx) });
  for (;;) {
    const next = await waitStep(conversation, ctx);
    const data = next.callbackQuery?.data ?? "";
    const chosen = cb.flowChoice.decode(data);
    if (chosen) {
      await next.answerCallbackQuery();
      const choice = choices[chosen.index];
      if (choice) {
        await next.editMessageReplyMarkup().catch(() => undefined);
        return { value: choice.value, ctx: next };
      }
      continue;
    }
    const paged = cb.flowPage.decode(data);
    if (paged) {
      await next.answerCallbackQuery();
      page = paged.page;
      await next.editMessageReplyMarkup({ reply_markup: render(next) }).catch(() => undefined);
      continue;
    }
    if (next.callbackQuery) {
      await next.answerCallbackQuery();
      continue;
    }
    const typed = next.message?.text?.trim() ?? "";
    const query = typed.toLowerCase();
    if (!opts.searchable) {
      await next.reply(next.t("flow-tap-a-button"));
      continue;
    }
    const words = query.split(/\s+/).filter(Boolean);
    const found = choices
      .map((c, i) => ({ i, hay: `${c.label} ${c.value} ${c.keywords ?? ""}`.toLowerCase() }))
      .filter(({ hay }) => words.every((w) => hay.includes(w)))
      .map(({ i }) => i);
    if (found.length === 0) {
      if (await keyPasted(next)) continue;
      // The whole list again under the words: a way on (pick, or search again) and Cancel, not a dead end.
      visible = choices.map((_, i) => i);
      page = 0;
      await next.reply(next.t(opts.none ?? "flow-search-none", { query: html(hideKeys(typed).slice(0, 50)) }), { reply_markup: render(next) });
      continue;
    }
    visible = found;
    page = 0;
    await next.reply(header(next), { reply_markup: render(next) });
  }
}
