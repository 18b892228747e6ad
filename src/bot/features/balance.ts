/** /saldo (/balance): the account's name, balance and status from /get_profile. */
import { Wallets } from "../../money/wallets.js";
import { Composer } from "grammy";
import { UpstreamError } from "../../upstream/errors.js";
import type { BotContext } from "../context.js";
import { html, rupiah } from "../../render/format.js";
import { requireKey } from "../guards.js";
import { moneyText, upstreamErrorText } from "../replies.js";
import { callbacksLine } from "./callbackUrl.js";
import { commands } from "../../telegram/commands.js";
import { whileAskingProvider } from "../slowAnswer.js";
import type { FeatureModule } from "../module.js";

export const balanceFeature = new Composer<BotContext>();

export async function showBalance(ctx: BotContext): Promise<void> {
  const key = await requireKey(ctx);
  if (!key) return;
  await whileAskingProvider(ctx, () => replyBalance(ctx, key));
}

async function replyBalance(ctx: BotContext, key: string): Promise<void> {
  try {
    const profile = await ctx.deps.upstream.getProfile(key);
    // The balance just read is the one the next confirm screen should check, not a cached older one.
    ctx.deps.lists.forgetProfile(key);
    // Re-checked: a renamed provider account signs its callbacks with the new username.
    if (ctx.chatRecord) ctx.chatRecord = await ctx.deps.providerLink.noteUsername(ctx.chatRecord, profile.username);
    const callbacks = await callbacksLine(ctx);
    const network = await networkLine(ctx, profile.balance);
    // No PIN yet: said once a day (docs/pin.md); a store that cannot say leaves the line out.
    const nag = ctx.role.kind === "owner" && ctx.chat && (await ctx.deps.pins.nagDue(ctx.chat.id).catch(() => false)) ? ctx.t("pin-nag") : undefined;
    await ctx.reply(
      moneyText(
        ctx,
        ctx.t("balance-show", {
          name: html(profile.name),
          balance: profile.balance === null ? html(profile.balanceText) : rupiah(profile.balance, ctx.lang),
          status: ctx.t("balance-status", { status: profile.status.trim().toLowerCase(), raw: html(profile.status) }),
          mask: html(ctx.chatRecord?.keyMask ?? ""),
        }) + (network ? `\n${network}` : "") + (callbacks ? `\n${callbacks}` : "") + (nag ? `\n\n${nag}` : ""),
      ),
    );
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    await ctx.reply(upstreamErrorText(ctx, err));
  }
}

/**
 * An owner with downlines: what their wallets hold beside the provider balance (their money is inside
 * it), and a warning when the balance no longer covers it (docs/wallets.md, solvency).
 */
async function networkLine(ctx: BotContext, balance: number | null): Promise<string | undefined> {
  if (ctx.role.kind !== "owner" || !ctx.chat) return undefined;
  const wallets = await ctx.deps.wallets.ofNetwork(ctx.chat.id);
  const owed = Wallets.owed(wallets);
  if (owed === 0) return undefined;
  const key = balance !== null && balance < owed ? "balance-owed-short" : "balance-owed";
  return ctx.t(key, { owed: rupiah(owed, ctx.lang), count: wallets.length });
}

balanceFeature.command(commands.saldo, showBalance);

export const balanceModule: FeatureModule = {
  name: "balance",
  composer: balanceFeature,
  commands: { saldo: "admin" },
  menu: { balance: showBalance },
};
