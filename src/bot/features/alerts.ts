/**
 * /alerts (menu: alerts): shows the low-balance alert threshold and lets the user set one by typing
 * an amount ("100000", "100.000", "100rb", "1,5jt") or turn alerts off (button, or "off"/"mati");
 * `/peringatan 100rb` (or `/peringatan mati`) does it in one message.
 * The checking itself lives in jobs/alerts.ts.
 */
import { Composer, type InlineKeyboard } from "grammy";
import { alertsOffKeyboard } from "../keyboards/alerts.js";
import type { BotContext, BotConversation, ConvContext } from "../context.js";
import { parseRupiah } from "../amount.js";
import { rupiah } from "../../render/format.js";
import { requireKey } from "../guards.js";
import { askText, type TextStep } from "../flows/steps.js";
import type { FeatureModule } from "../module.js";
import { commands } from "../../telegram/commands.js";
import type { Lang } from "../../store/index.js";

export const MIN_THRESHOLD = 1_000;
export const MAX_THRESHOLD = 1_000_000_000;

export type ThresholdInput = { ok: true; value: number | "off" } | { ok: false };

/** An amount as resellers write it (see amount.ts), or "off", "mati", "0": turn alerts off. */
export function parseThreshold(input: string): ThresholdInput {
  const s = input.trim().toLowerCase();
  if (s === "off" || s === "mati" || s === "0") return { ok: true, value: "off" };
  const value = parseRupiah(input);
  return value === undefined ? { ok: false } : { ok: true, value };
}

/** `offButton` is read on every prompt: askText appends its Cancel row to the keyboard it gets. */
function thresholdStep(lang: Lang, offButton: () => InlineKeyboard | undefined): TextStep<number | "off"> {
  return {
    get keyboard() {
      return offButton();
    },
    parse(text) {
      const r = parseThreshold(text);
      if (!r.ok) return { ok: false, error: "alerts-invalid" };
      if (r.value !== "off" && (r.value < MIN_THRESHOLD || r.value > MAX_THRESHOLD)) {
        return { ok: false, error: "alerts-out-of-range", vars: { min: rupiah(MIN_THRESHOLD, lang), max: rupiah(MAX_THRESHOLD, lang) } };
      }
      return { ok: true, value: r.value };
    },
  };
}

async function alertsFlow(conversation: BotConversation, ctx: ConvContext): Promise<void> {
  const chatId = ctx.chat!.id;
  const current = await conversation.external(async () => (await ctx.deps.settings.alertThreshold(chatId)) ?? null);
  const status =
    current === null ? ctx.t("alerts-status-off") : ctx.t("alerts-status-on", { threshold: rupiah(current, ctx.lang) });
  const step = thresholdStep(ctx.lang, () =>
    current === null ? undefined : alertsOffKeyboard(ctx),
  );
  const answer = await askText(conversation, ctx, `${status}\n\n${ctx.t("alerts-ask")}`, step);
  const next = answer.ctx;
  if ("button" in answer || answer.value === "off") {
    if ("button" in answer && answer.button !== "off") return;
    await conversation.external(async () => await ctx.deps.settings.turnAlertsOff(chatId));
    await next.reply(next.t("alerts-turned-off"));
    return;
  }
  const threshold = answer.value;
  await conversation.external(async () => {
    // A new threshold starts armed; the balance is checked shortly, so a balance already under it is told.
    await ctx.deps.settings.setAlertThreshold(chatId, threshold);
    await ctx.deps.alerts.checkSoon(chatId);
  });
  await next.reply(next.t("alerts-set", { threshold: rupiah(threshold, ctx.lang) }));
}

/** `/peringatan 100rb` sets the threshold at once; a bad amount is explained, then asked for as usual. */
async function openAlerts(ctx: BotContext): Promise<void> {
  if (!(await requireKey(ctx))) return;
  const typed = typeof ctx.match === "string" ? ctx.match.trim() : "";
  if (typed !== "") {
    const chatId = ctx.chat!.id;
    const r = thresholdStep(ctx.lang, () => undefined).parse(typed);
    if (!r.ok) {
      await ctx.reply(ctx.t(r.error, r.vars));
    } else if (r.value === "off") {
      await ctx.deps.settings.turnAlertsOff(chatId);
      await ctx.reply(ctx.t("alerts-turned-off"));
      return;
    } else {
      await ctx.deps.settings.setAlertThreshold(chatId, r.value);
      await ctx.deps.alerts.checkSoon(chatId);
      await ctx.reply(ctx.t("alerts-set", { threshold: rupiah(r.value, ctx.lang) }));
      return;
    }
  }
  await ctx.conversation.enter("alerts");
}

const composer = new Composer<BotContext>();
composer.command(commands.peringatan, openAlerts);

export const alertsModule: FeatureModule = {
  name: "alerts",
  composer,
  commands: { peringatan: "owner" },
  flows: [{ id: "alerts", builder: alertsFlow }],
  menu: { alerts: openAlerts },
};
