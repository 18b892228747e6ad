/**
 * A downline's H2H access from its own chat (docs/h2h.md "Access"): `/h2h` shows the base URL to give
 * its system, its key's state, the caller IPs and the callback URL; "Buat key baru" makes a key shown
 * once (the old one stops at once); `/h2h ip <list>` and `/h2h callback <url>` set the rest. A new key
 * and the IP list pass the PIN gate and go in the owner's /audit. The owner's switch is on the
 * downline's card (features/downline.ts).
 */
import { Composer } from "grammy";
import { audit } from "../../domain/audit.js";
import { H2H_IPS_MAX, normalIp } from "../../domain/h2hAccess.js";
import { html, wibTime } from "../../render/format.js";
import { commands } from "../../telegram/commands.js";
import { cb, onCallback } from "../buttons.js";
import type { BaseContext, BotContext } from "../context.js";
import { isPrivate, replyPrivateOnly } from "../guards.js";
import { h2hKeyboard } from "../keyboards/h2h.js";
import type { FeatureModule } from "../module.js";
import { withPin, withPinCommand } from "../pin/gate.js";

const composer = new Composer<BotContext>();

/** The downline's chat when its access is on; otherwise answered (not a downline, or off) and undefined. */
async function activeDownline(ctx: BaseContext, answer: (text: string) => Promise<unknown>): Promise<number | undefined> {
  if (ctx.role.kind !== "downline") return void (await answer(ctx.t("h2h-not-downline")));
  const view = await ctx.deps.h2hAccess.view(ctx.chat!.id);
  if (!view?.enabled) return void (await answer(ctx.t("h2h-off")));
  return ctx.chat!.id;
}

async function screen(ctx: BaseContext, chat: number): Promise<string> {
  const view = (await ctx.deps.h2hAccess.view(chat))!;
  const base = ctx.deps.publicUrl;
  return [
    ctx.t("h2h-title"),
    "",
    base ? ctx.t("h2h-base-url", { url: html(`${base}/h2h`) }) : ctx.t("h2h-base-url-none"),
    view.hasKey && view.keyAt !== undefined ? ctx.t("h2h-key-active", { at: wibTime(view.keyAt, ctx.lang) }) : ctx.t("h2h-key-none"),
    view.ips.length > 0 ? ctx.t("h2h-ips", { ips: html(view.ips.join(", ")) }) : ctx.t("h2h-ips-none"),
    view.callbackUrl ? ctx.t("h2h-callback", { url: html(view.callbackUrl) }) : ctx.t("h2h-callback-none"),
    "",
    ctx.t("h2h-how", { max: H2H_IPS_MAX }),
  ].join("\n");
}

const setIps = withPinCommand("h2h-ip", () => ({ what: "pin-for-h2h-ips" }), async (ctx, arg) => {
  const chat = await activeDownline(ctx, (t) => ctx.reply(t));
  if (chat === undefined) return;
  const typed = arg.split(/[\s,;]+/).filter(Boolean);
  const bad = typed.filter((ip) => normalIp(ip) === undefined);
  if (bad.length > 0) return void (await ctx.reply(ctx.t("h2h-ips-bad", { bad: html(bad.slice(0, 3).join(", ").slice(0, 100)) })));
  if (typed.length > H2H_IPS_MAX) return void (await ctx.reply(ctx.t("h2h-ips-too-many", { max: H2H_IPS_MAX })));
  const before = (await ctx.deps.h2hAccess.view(chat))?.ips ?? [];
  const saved = await ctx.deps.h2hAccess.setIps(chat, typed);
  if (typeof saved === "string") return void (await ctx.reply(ctx.t("h2h-ips-bad", { bad: "" })));
  await audit(ctx, "h2h_ips_changed", before.join(", "), saved.ips.join(", "));
  await ctx.reply(saved.ips.length > 0 ? ctx.t("h2h-ips-saved", { ips: html(saved.ips.join(", ")) }) : ctx.t("h2h-ips-cleared"));
});

async function setCallback(ctx: BotContext, arg: string): Promise<void> {
  const chat = await activeDownline(ctx, (t) => ctx.reply(t));
  if (chat === undefined) return;
  const url = arg.trim();
  const saved = await ctx.deps.h2hAccess.setCallbackUrl(chat, url === "-" || url === "" ? undefined : url);
  if (typeof saved === "string") return void (await ctx.reply(ctx.t("h2h-callback-bad")));
  await ctx.reply(saved.callbackUrl ? ctx.t("h2h-callback-saved", { url: html(saved.callbackUrl) }) : ctx.t("h2h-callback-cleared"));
}

composer.command(commands.h2h, async (ctx) => {
  if (!isPrivate(ctx)) return void (await replyPrivateOnly(ctx));
  const arg = typeof ctx.match === "string" ? ctx.match.trim() : "";
  const sub = /^(ip|callback)\b\s*(.*)$/is.exec(arg);
  if (sub?.[1]!.toLowerCase() === "ip") return void (await setIps(ctx, sub[2]!));
  if (sub) return setCallback(ctx, sub[2]!);
  const chat = await activeDownline(ctx, (t) => ctx.reply(t));
  if (chat === undefined) return;
  // A mistyped subcommand gets the usage: the screen again would read as if it had been taken.
  if (arg !== "") return void (await ctx.reply(ctx.t("h2h-usage", { sub: html(arg.split(/\s/)[0]!.slice(0, 30)) })));
  await ctx.reply(await screen(ctx, chat), { reply_markup: h2hKeyboard(ctx), link_preview_options: { is_disabled: true } });
});

onCallback(composer, cb.h2hNewKey, withPin(cb.h2hNewKey, () => ({ what: "pin-for-h2h-key" }), async (ctx) => {
  const chat = await activeDownline(ctx, (t) => ctx.answerCallbackQuery({ text: t, show_alert: true }));
  if (chat === undefined) return;
  const had = (await ctx.deps.h2hAccess.view(chat))?.hasKey ?? false;
  const made = await ctx.deps.h2hAccess.newKey(chat, ctx.deps.clock.now());
  if (made === "off") return void (await ctx.answerCallbackQuery({ text: ctx.t("h2h-off"), show_alert: true }));
  await ctx.answerCallbackQuery();
  if (had) await audit(ctx, "h2h_key_retired");
  await audit(ctx, "h2h_key_made");
  // The screen tapped (without a PIN keypad in between) shows the new key's state, not "no key".
  if (cb.h2hNewKey.decode(ctx.callbackQuery.data ?? "") !== undefined) {
    await ctx.editMessageText(await screen(ctx, chat), { reply_markup: h2hKeyboard(ctx), link_preview_options: { is_disabled: true } }).catch(() => undefined);
  }
  // Shown once: only its digest is kept.
  await ctx.reply([ctx.t(had ? "h2h-key-new-replaced" : "h2h-key-new", { key: made.key }), "", ctx.t("h2h-key-next")].join("\n"));
}));

export const h2hModule: FeatureModule = {
  name: "h2h",
  composer,
  commands: { h2h: "anyone" },
  buttons: { h2hNewKey: "anyone" },
};
