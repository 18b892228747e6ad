/**
 * The PIN gate (docs/pin.md): "before this act runs, ask the PIN". Wrap a button's handler with
 * `withPin(cb.shape, optionsOf, handler)` (a command's with `withPinCommand`): with a PIN set, the tap
 * shows the keypad instead, and the keypad's ✅ with the right PIN runs the same wrapped handler (the
 * bars and the daily limit are checked again then). Money-out acts are refused while locked, blocked
 * after a reset, frozen or over the daily limit, each refusal saying why and until when.
 *
 * What was typed stays in this process's memory only (never a message, a button, a log line or a record).
 */
import type { CallbackShape } from "../../telegram/buttonData.js";
import { barOf, PIN_LENGTH, type PinState } from "../../domain/pin.js";
import { rupiah, wibUntil } from "../../render/format.js";
import type { BaseContext, BotContext } from "../context.js";
import type { CallbackContext } from "../buttons.js";
import { pinKeypad } from "../keyboards/pin.js";
import { ledgerChat } from "../middlewares/roleGate.js";

export interface GateOptions {
  /** Locale key naming the act on the keypad ("pin-for-transfer"...). */
  what: string;
  /** Money leaving the account: refused while locked, blocked, frozen; `amount` counts towards the daily limit. */
  moneyOut?: boolean;
  amount?: number;
  /** Over the daily limit: also said where the act was asked (its confirm screen), besides the alert. */
  overLimit?: (over: { limit: number; left: number }) => Promise<void>;
}

type Run = (ctx: BotContext, data: string) => Promise<unknown>;
/** The gated acts by name (a button shape's pattern, or `cmd:<name>`): what the keypad runs after the right PIN. */
const acts = new Map<string, Run>();

/** What the keypad is for: a gated act, a new PIN, or the new PIN typed again. */
export type KeypadFor = { kind: "act"; name: string; data: string; what: string; amount?: number | undefined } | { kind: "new"; note?: string } | { kind: "repeat"; first: string };

interface Entry {
  messageId: number;
  digits: string;
  at: number;
  for: KeypadFor;
}

/** A keypad left this long is dropped. */
const KEYPAD_TTL_MS = 5 * 60_000;
const keypads = new Map<number, Entry>();
/** Updates whose PIN was just entered: the wrapped handler runs without asking again. */
const passed = new WeakSet<object>();

export function keypadOf(ctx: BaseContext): Entry | undefined {
  const chat = ctx.chat?.id;
  const entry = chat === undefined ? undefined : keypads.get(chat);
  if (!entry) return undefined;
  const messageId = ctx.callbackQuery?.message?.message_id;
  if (ctx.deps.clock.now() - entry.at > KEYPAD_TTL_MS || (messageId !== undefined && messageId !== entry.messageId)) return undefined;
  return entry;
}

export function dropKeypad(ctx: BaseContext): void {
  if (ctx.chat) keypads.delete(ctx.chat.id);
}

/** "●●○○○○": how many were typed, never which. */
export const dots = (typed: number): string => "●".repeat(typed) + "○".repeat(Math.max(0, PIN_LENGTH - typed));

/** The keypad's text for what it is for, with `typed` digits so far and an optional line above. */
export function keypadText(ctx: BaseContext, f: KeypadFor, typed: number, note?: string): string {
  const head =
    f.kind === "act" ? ctx.t("pin-keypad-act", { what: ctx.t(f.what, f.amount === undefined ? {} : { amount: rupiah(f.amount, ctx.lang) }) }) : f.kind === "new" ? ctx.t("pin-keypad-new") : ctx.t("pin-keypad-repeat");
  return [note, head, `<code>${dots(typed)}</code>`].filter(Boolean).join("\n\n");
}

/** Shows a keypad as a new message (or in place of the tapped keypad) and remembers it for this chat. */
export async function showKeypad(ctx: BaseContext, f: KeypadFor, note?: string, inPlace = false): Promise<void> {
  const text = keypadText(ctx, f, 0, note);
  const at = ctx.deps.clock.now();
  const current = inPlace ? ctx.callbackQuery?.message?.message_id : undefined;
  if (current !== undefined) {
    await ctx.editMessageText(text, { reply_markup: pinKeypad(ctx) }).catch(() => undefined);
    keypads.set(ctx.chat!.id, { messageId: current, digits: "", at, for: f });
    return;
  }
  const sent = await ctx.reply(text, { reply_markup: pinKeypad(ctx) });
  keypads.set(ctx.chat!.id, { messageId: sent.message_id, digits: "", at, for: f });
}

/** Runs the act a keypad was for, its PIN just entered. */
export async function runAct(ctx: BotContext, name: string, data: string): Promise<void> {
  const run = acts.get(name);
  if (!run) return;
  passed.add(ctx);
  await run(ctx, data);
}

/** Why an act is refused now (the text, and the figures when over the daily limit), or undefined. */
async function refusal(ctx: BaseContext, s: PinState, o: GateOptions): Promise<string | { text: string; limit: number; left: number } | undefined> {
  const now = ctx.deps.clock.now();
  const bar = barOf(s, now);
  if (bar?.kind === "locked") return ctx.t("pin-refused-locked", { until: wibUntil(bar.until, now, ctx.lang) });
  if (o.moneyOut && bar?.kind === "reset-blocked") return ctx.t("pin-refused-reset", { until: wibUntil(bar.until, now, ctx.lang) });
  // Frozen with a PIN: the keypad asks it (a right PIN unfreezes). Without one there is nothing to enter.
  if (o.moneyOut && bar?.kind === "frozen" && s.hash === undefined) return ctx.t("pin-refused-frozen");
  if (o.moneyOut && o.amount !== undefined) {
    const over = await ctx.deps.pins.overLimit(ledgerChat(ctx), o.amount);
    if (over) {
      const left = Math.max(0, over.limit - over.spent);
      return { text: ctx.t("pin-refused-limit", { limit: rupiah(over.limit, ctx.lang), left: rupiah(left, ctx.lang) }), limit: over.limit, left };
    }
  }
  return undefined;
}

async function say(ctx: BaseContext, text: string): Promise<void> {
  if (ctx.callbackQuery) {
    await ctx.answerCallbackQuery({ text, show_alert: true }).catch(() => undefined);
    return;
  }
  await ctx.reply(text);
}

/**
 * True: the act may run now (no PIN set, or it was just entered, and nothing bars it). False: the
 * keypad was shown, or the act was refused and told why.
 */
export async function pinGate(ctx: BaseContext, o: GateOptions, act: { name: string; data: string }): Promise<boolean> {
  // Each chat answers with its own PIN (staff and downlines too); the daily limit is the owner's ledger's.
  if (!ctx.chat) return true;
  const s = await ctx.deps.pins.state(ctx.chat.id);
  const refused = await refusal(ctx, s, o);
  if (typeof refused === "string") {
    await say(ctx, refused);
    return false;
  }
  if (refused) {
    await say(ctx, refused.text);
    await o.overLimit?.(refused);
    return false;
  }
  if (passed.has(ctx) || s.hash === undefined) return true;
  if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => undefined);
  await showKeypad(ctx, { kind: "act", name: act.name, data: act.data, what: o.what, amount: o.amount });
  return false;
}

/**
 * A button's handler behind the gate: one line where the handler is bound. `optionsOf` says what the act
 * is (undefined: no PIN needed this time, e.g. a purchase under the owner's threshold).
 */
export function withPin<F>(
  shape: CallbackShape<F>,
  optionsOf: (ctx: CallbackContext<BotContext>, fields: F) => GateOptions | undefined | Promise<GateOptions | undefined>,
  handler: (ctx: CallbackContext<BotContext>, fields: F) => Promise<unknown>,
): (ctx: CallbackContext<BotContext>, fields: F) => Promise<unknown> {
  const gated = async (ctx: CallbackContext<BotContext>, fields: F) => {
    const o = await optionsOf(ctx, fields);
    if (o === undefined || (await pinGate(ctx, o, { name: shape.pattern, data: shape.encode(fields) }))) return handler(ctx, fields);
    return undefined;
  };
  acts.set(shape.pattern, async (ctx, data) => {
    const fields = shape.decode(data);
    if (fields !== undefined) await gated(ctx as CallbackContext<BotContext>, fields);
  });
  return gated;
}

/** A command's handler behind the gate; `arg` is the text after the command (kept in memory while the keypad waits). */
export function withPinCommand(
  name: string,
  optionsOf: (ctx: BotContext, arg: string) => GateOptions | undefined,
  handler: (ctx: BotContext, arg: string) => Promise<unknown>,
): (ctx: BotContext, arg: string) => Promise<unknown> {
  const id = `cmd:${name}`;
  const gated = async (ctx: BotContext, arg: string) => {
    const o = optionsOf(ctx, arg);
    if (o === undefined || (await pinGate(ctx, o, { name: id, data: arg }))) return handler(ctx, arg);
    return undefined;
  };
  acts.set(id, gated);
  return gated;
}

/** Sets the digits typed so far on this chat's keypad. */
export function setDigits(ctx: BaseContext, entry: Entry, digits: string): void {
  keypads.set(ctx.chat!.id, { ...entry, digits, at: ctx.deps.clock.now() });
}
