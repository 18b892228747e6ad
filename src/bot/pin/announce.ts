/**
 * Every money-out and security change is told to the owner at once, in a message of its own, with a
 * "Bukan saya" button (docs/pin.md): a thief in the chat may delete it, but the owner's other device
 * has seen it. A failed send never stops the act.
 */
import type { BaseContext } from "../context.js";
import type { TranslateVars } from "../../render/i18n.js";
import { ledgerChat } from "../middlewares/roleGate.js";
import { notMeKeyboard } from "../keyboards/pin.js";

export async function announceSecurity(ctx: BaseContext, key: string, vars?: TranslateVars): Promise<void> {
  const owner = ledgerChat(ctx);
  const lang = owner === ctx.chat?.id ? ctx.lang : ((await ctx.deps.settings.language(owner)) ?? ctx.lang);
  const tr = { t: (k: string, v?: TranslateVars) => ctx.translate(lang, k, v) };
  await ctx.api
    .sendMessage(owner, `${tr.t(key, vars)}\n\n${tr.t("pin-not-you")}`, { reply_markup: notMeKeyboard(tr) })
    .catch((err: unknown) => ctx.deps.logger.warn({ err, chatId: owner }, "security notice not delivered"));
}

/**
 * A staff member's or downline's lock told to whoever can reset it: the owner for staff, the downline's
 * upline (a downline that invited it, else the owner). Plain, without "Bukan saya": the upline's own
 * money is not what moved.
 */
export async function tellUpline(ctx: BaseContext, key: string, vars: TranslateVars): Promise<void> {
  const role = ctx.role;
  if (role.kind !== "staff" && role.kind !== "downline") return;
  const owner = ledgerChat(ctx);
  const upline = role.kind === "downline" ? ((await ctx.deps.network.member(owner, ctx.chat!.id))?.upline ?? owner) : owner;
  const lang = (await ctx.deps.settings.language(upline)) ?? ctx.lang;
  await ctx.api
    .sendMessage(upline, ctx.translate(lang, key, vars))
    .catch((err: unknown) => ctx.deps.logger.warn({ err, chatId: upline }, "lock notice not delivered to the upline"));
}
