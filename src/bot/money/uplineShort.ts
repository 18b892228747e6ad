/**
 * A downline's sale that the owner's provider balance cannot pay (docs/wallets.md rule 7), found up front
 * on the confirm screen or by the provider refusing the create: the downline reads the same words either
 * way, with none of the owner's figures (its wallet untouched, or its hold given back by the failure's
 * own write), and the owner is told to top up, once an hour at most.
 */
import type { BaseContext } from "../context.js";
import { html, rupiah } from "../../render/format.js";

/**
 * Tells the downline its upline's balance is short, and the owner what is missing (`cost` and `balance`
 * when known: a refusal at create may find the balance unreadable).
 */
export async function refuseUplineShort(ctx: BaseContext, owner: number, cost: number | undefined, balance: number | undefined): Promise<void> {
  await ctx.reply(ctx.t("wallet-upline-short"));
  if (!ctx.deps.network.tellShortNow(owner)) return;
  const lang = (await ctx.deps.settings.language(owner)) ?? ctx.lang;
  const name = html(ctx.from?.first_name ?? String(ctx.chat?.id ?? ""));
  const text =
    cost !== undefined && balance !== undefined && balance < cost
      ? ctx.translate(lang, "wallet-upline-short-owner", { name, missing: rupiah(cost - balance, lang) })
      : ctx.translate(lang, "wallet-upline-short-owner-refused", { name });
  await ctx.api.sendMessage(owner, text).catch((err: unknown) => ctx.deps.logger.warn({ err, chatId: owner }, "low-balance notice to the owner not delivered"));
}
