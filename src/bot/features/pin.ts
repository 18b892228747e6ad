/**
 * /pin (docs/pin.md): set the transaction PIN on the keypad (typed twice), change it (the old one
 * first), the purchase threshold (`/pin beli <amount|off>`) and the daily money-out limit
 * (`/pin batas <amount|off>`); the keypad's buttons; "Bukan saya" under an announcement.
 */
import { Composer } from "grammy";
import type { BotContext } from "../context.js";
import type { FeatureModule } from "../module.js";
import { cb, onCallback } from "../buttons.js";
import { commands } from "../../telegram/commands.js";
import { audit } from "../../domain/audit.js";
import { isWeakPin, limitInForce, PIN_LENGTH } from "../../domain/pin.js";
import { html, rupiah, wibClockUntil, wibUntil } from "../../render/format.js";
import { parseRupiah } from "../amount.js";
import { pinKeypad, pinPresetKeyboard, pinSettingsKeyboard } from "../keyboards/pin.js";
import { dropKeypad, keypadOf, keypadText, runAct, setDigits, showKeypad, withPin, withPinCommand } from "../pin/gate.js";
import { announceSecurity, tellUpline } from "../pin/announce.js";

const composer = new Composer<BotContext>();

/** What /pin shows with a PIN set: the threshold, the limit (and a raise still waiting), how to change them. */
async function settingsText(ctx: BotContext): Promise<string> {
  const s = await ctx.deps.pins.state(ctx.chat!.id);
  const now = ctx.deps.clock.now();
  const off = ctx.t("pin-off");
  const limit = limitInForce(s, now);
  const lines = [
    ctx.t("pin-settings", {
      above: s.purchaseAbove === undefined ? off : rupiah(s.purchaseAbove, ctx.lang),
      limit: limit === undefined ? off : rupiah(limit, ctx.lang),
    }),
  ];
  if (s.limitRaise && now < s.limitRaise.from) {
    const to = s.limitRaise.amount === undefined ? off : rupiah(s.limitRaise.amount, ctx.lang);
    lines.push(ctx.t("pin-limit-waiting", { limit: to, from: wibClockUntil(s.limitRaise.from, ctx.lang) }));
  }
  lines.push(ctx.t("pin-settings-how"));
  return lines.join("\n");
}

/** "/pin beli 100rb", "/pin batas off": the setting and its value (undefined = off); undefined when not one. */
function parseSetting(arg: string): { what: "beli" | "batas"; amount: number | undefined } | undefined {
  const [word, ...rest] = arg.trim().toLowerCase().split(/\s+/);
  const what = word === "beli" || word === "buy" ? "beli" : word === "batas" || word === "limit" ? "batas" : undefined;
  if (!what) return undefined;
  const value = rest.join("");
  if (value === "off" || value === "mati") return { what, amount: undefined };
  const amount = parseRupiah(value);
  return amount === undefined ? undefined : { what, amount };
}

/** Applies a threshold or a limit (the PIN already entered), says so and tells the owner apart. */
async function applySetting(ctx: BotContext, setting: { what: "beli" | "batas"; amount: number | undefined }): Promise<void> {
  const chat = ctx.chat!.id;
  const shown = setting.amount === undefined ? ctx.t("pin-off") : rupiah(setting.amount, ctx.lang);
  if (setting.what === "beli") {
    await ctx.deps.pins.setPurchaseAbove(chat, setting.amount);
    await audit(ctx, "limit_changed", undefined, `purchase PIN above: ${setting.amount ?? "off"}`);
    await ctx.reply(ctx.t("pin-above-set", { amount: shown }));
    await announceSecurity(ctx, "pin-told-above", { amount: shown });
    return;
  }
  const from = await ctx.deps.pins.setDailyLimit(chat, setting.amount);
  const later = from > ctx.deps.clock.now();
  await audit(ctx, "limit_changed", undefined, `daily limit: ${setting.amount ?? "off"}${later ? " (in 24 h)" : ""}`);
  await ctx.reply(ctx.t(later ? "pin-limit-later" : "pin-limit-set", { limit: shown, from: wibClockUntil(from, ctx.lang) }));
  await announceSecurity(ctx, "pin-told-limit", { limit: shown, later: later ? "yes" : "no" });
}

const changeSetting = withPinCommand(
  "pin-setting",
  () => ({ what: "pin-for-settings" }),
  async (ctx, arg) => {
    const setting = parseSetting(arg);
    if (!setting) return ctx.reply(ctx.t("pin-settings-how"));
    await applySetting(ctx, setting);
  },
);

onCallback(composer, cb.pinPick, async (ctx, { what }) => {
  await ctx.answerCallbackQuery().catch(() => undefined);
  await ctx.editMessageReplyMarkup({ reply_markup: pinPresetKeyboard(ctx, what, (amount) => rupiah(amount, ctx.lang)) }).catch(() => undefined);
});

onCallback(composer, cb.pinOwn, async (ctx, { what }) => {
  await ctx.answerCallbackQuery().catch(() => undefined);
  await ctx.reply(ctx.t("pin-type-own", { what }));
});

onCallback(
  composer,
  cb.pinSet,
  withPin(
    cb.pinSet,
    () => ({ what: "pin-for-settings" }),
    async (ctx, { what, amount }) => {
      await ctx.answerCallbackQuery().catch(() => undefined);
      await applySetting(ctx, { what, amount: amount === 0 ? undefined : amount });
    },
  ),
);

composer.command(commands.pin, async (ctx) => {
  const arg = typeof ctx.match === "string" ? ctx.match.trim() : "";
  const set = await ctx.deps.pins.isSet(ctx.chat.id);
  // Staff and downlines: their own PIN only (the limits are the owner's).
  if (ctx.role.kind !== "owner") {
    // Staff have no act of their own behind the PIN yet, and their upline is the owner (docs/pin.md).
    const staff = ctx.role.kind === "staff";
    if (!set) return showKeypad(ctx, { kind: "new" }, ctx.t(staff ? "pin-intro-staff" : "pin-intro-member"));
    return ctx.reply(ctx.t(staff ? "pin-staff-settings" : "pin-member-settings"), { reply_markup: pinSettingsKeyboard(ctx) });
  }
  if (arg) {
    if (!set) return ctx.reply(ctx.t("pin-set-first"));
    return changeSetting(ctx, arg);
  }
  if (!set) return showKeypad(ctx, { kind: "new" }, ctx.t("pin-intro"));
  await ctx.reply(await settingsText(ctx), { reply_markup: pinSettingsKeyboard(ctx, true) });
});

// Changing the PIN asks the old one (the gate), then the new one twice.
onCallback(
  composer,
  cb.pinChange,
  withPin(
    cb.pinChange,
    () => ({ what: "pin-for-change" }),
    async (ctx) => {
      await ctx.answerCallbackQuery().catch(() => undefined);
      // After the old PIN on the keypad: the same message asks the new one.
      await showKeypad(ctx, { kind: "new" }, undefined, ctx.callbackQuery.data === cb.pinOk.encode({}));
    },
  ),
);

onCallback(composer, cb.pinDigit, async (ctx, { digit }) => {
  const entry = keypadOf(ctx);
  if (!entry) return void (await expired(ctx));
  await ctx.answerCallbackQuery().catch(() => undefined);
  if (entry.digits.length >= PIN_LENGTH) return;
  const digits = entry.digits + String(digit);
  setDigits(ctx, entry, digits);
  await ctx.editMessageText(keypadText(ctx, entry.for, digits.length), { reply_markup: pinKeypad(ctx) }).catch(() => undefined);
});

onCallback(composer, cb.pinBack, async (ctx) => {
  const entry = keypadOf(ctx);
  if (!entry) return void (await expired(ctx));
  await ctx.answerCallbackQuery().catch(() => undefined);
  if (entry.digits.length === 0) return;
  const digits = entry.digits.slice(0, -1);
  setDigits(ctx, entry, digits);
  await ctx.editMessageText(keypadText(ctx, entry.for, digits.length), { reply_markup: pinKeypad(ctx) }).catch(() => undefined);
});

onCallback(composer, cb.pinCancel, async (ctx) => {
  dropKeypad(ctx);
  await ctx.answerCallbackQuery({ text: ctx.t("cancelled") }).catch(() => undefined);
  await ctx.editMessageText(ctx.t("pin-keypad-cancelled")).catch(() => undefined);
});

onCallback(composer, cb.pinOk, async (ctx) => {
  const entry = keypadOf(ctx);
  if (!entry) return void (await expired(ctx));
  const typed = entry.digits;
  const again = (note: string) => {
    setDigits(ctx, entry, "");
    return ctx.editMessageText(keypadText(ctx, entry.for, 0, note), { reply_markup: pinKeypad(ctx) }).catch(() => undefined);
  };
  if (typed.length !== PIN_LENGTH) {
    await ctx.answerCallbackQuery({ text: ctx.t("pin-need-digits", { count: PIN_LENGTH }) }).catch(() => undefined);
    return;
  }
  const chat = ctx.chat!.id;
  const f = entry.for;
  if (f.kind === "new") {
    await ctx.answerCallbackQuery().catch(() => undefined);
    if (isWeakPin(typed)) return void (await again(ctx.t("pin-weak")));
    setDigits(ctx, { ...entry, for: { kind: "repeat", first: typed } }, "");
    await ctx.editMessageText(keypadText(ctx, { kind: "repeat", first: "" }, 0), { reply_markup: pinKeypad(ctx) }).catch(() => undefined);
    return;
  }
  if (f.kind === "repeat") {
    await ctx.answerCallbackQuery().catch(() => undefined);
    if (typed !== f.first) {
      setDigits(ctx, { ...entry, for: { kind: "new" } }, "");
      await ctx.editMessageText(keypadText(ctx, { kind: "new" }, 0, ctx.t("pin-mismatch")), { reply_markup: pinKeypad(ctx) }).catch(() => undefined);
      return;
    }
    const had = await ctx.deps.pins.isSet(chat);
    const saved = await ctx.deps.pins.setPin(chat, typed);
    if (saved !== "ok") return void (await again(ctx.t("pin-weak")));
    dropKeypad(ctx);
    await audit(ctx, had ? "pin_changed" : "pin_set");
    const owner = ctx.role.kind === "owner";
    const saidSaved = owner ? "pin-saved" : ctx.role.kind === "staff" ? "pin-saved-staff" : "pin-saved-member";
    await ctx.editMessageText(ctx.t(had ? "pin-changed" : saidSaved)).catch(() => undefined);
    if (owner) await announceSecurity(ctx, had ? "pin-told-changed" : "pin-told-set");
    return;
  }
  const checked = await ctx.deps.pins.check(chat, typed);
  switch (checked.kind) {
    case "ok":
      dropKeypad(ctx);
      await ctx.editMessageText(ctx.t("pin-right")).catch(() => undefined);
      await runAct(ctx, f.name, f.data);
      return;
    case "wrong":
      await ctx.answerCallbackQuery({ text: ctx.t("pin-wrong", { left: checked.left }), show_alert: true }).catch(() => undefined);
      await again(ctx.t("pin-wrong", { left: checked.left }));
      return;
    case "locked": {
      dropKeypad(ctx);
      const until = wibUntil(checked.until, ctx.deps.clock.now(), ctx.lang);
      await ctx.answerCallbackQuery({ text: ctx.t("pin-refused-locked", { until }), show_alert: true }).catch(() => undefined);
      await ctx.editMessageText(ctx.t("pin-refused-locked", { until })).catch(() => undefined);
      if (checked.now) {
        await audit(ctx, "pin_locked", undefined, `until ${until}`);
        if (ctx.role.kind === "owner") await announceSecurity(ctx, "pin-told-locked", { until });
        else await tellUpline(ctx, "pin-told-locked-member", { name: html(ctx.from?.first_name ?? String(chat)), until });
      }
      return;
    }
    case "none":
      dropKeypad(ctx);
      await ctx.answerCallbackQuery().catch(() => undefined);
      await runAct(ctx, f.name, f.data);
  }
});

// "Bukan saya": money-out frozen until the PIN is entered again.
onCallback(composer, cb.pinNotMe, async (ctx) => {
  await ctx.deps.pins.freeze(ctx.chat!.id);
  await audit(ctx, "pin_frozen");
  await ctx.answerCallbackQuery().catch(() => undefined);
  await ctx.editMessageReplyMarkup().catch(() => undefined);
  await ctx.reply(ctx.t((await ctx.deps.pins.isSet(ctx.chat!.id)) ? "pin-frozen" : "pin-frozen-no-pin"));
});

async function expired(ctx: BotContext): Promise<void> {
  await ctx.answerCallbackQuery({ text: ctx.t("pin-keypad-expired"), show_alert: true }).catch(() => undefined);
  // The message itself says so: a half-typed keypad without buttons would read as still waiting.
  await ctx.editMessageText(ctx.t("pin-keypad-expired")).catch(() => undefined);
}

export const pinModule: FeatureModule = {
  name: "pin",
  composer,
  commands: { pin: "cashier" },
  buttons: { pinDigit: "cashier", pinBack: "cashier", pinOk: "cashier", pinCancel: "cashier", pinChange: "cashier", pinNotMe: "owner", pinPick: "owner", pinSet: "owner", pinOwn: "owner" },
};
