/**
 * What a downline the owner allows to invite sees of its own downlines (features/downline.ts answers
 * the commands and buttons): its direct downlines only, never its siblings or the owner's others; its
 * markup for them (docs/wallets.md "Prices" 4); and who may act on a downline's card.
 */
import type { Downline } from "../../domain/network.js";
import { html, rupiah } from "../../render/format.js";
import type { Markup, PricingRules } from "../../store/index.js";
import type { BaseContext } from "../context.js";
import { parseMarkup } from "./markup.js";

/** Who acts on the network from this chat: the owner (on every downline) or an inviting downline (`by`: on its own). */
export type NetworkActor = { readonly owner: number; readonly by?: number };

/** The actor, or undefined (a staff member, a downline not allowed to invite): the caller refuses. */
export function actorOf(ctx: BaseContext): NetworkActor | undefined {
  const role = ctx.role;
  if (role.kind === "owner") return { owner: ctx.chat!.id };
  if (role.kind !== "downline") return undefined;
  const of = ctx.chatRecord?.downlineOf;
  return of?.mayInvite && !of.suspended ? { owner: role.owner, by: ctx.chat!.id } : undefined;
}

/** Whether `actor` may open and act on `member`: the owner on all, a downline on its direct downlines only. */
export function actsOn(actor: NetworkActor, member: Downline | undefined): member is Downline {
  return member !== undefined && (actor.by === undefined || member.upline === actor.by);
}

export function markupText(ctx: BaseContext, m: Markup | undefined): string {
  if (!m) return rupiah(0, ctx.lang);
  return "flat" in m ? `+${rupiah(m.flat, ctx.lang)}` : `+${String(m.percent).replace(".", ctx.lang === "id" ? "," : ".")}%`;
}

/** The inviting downline's list: its own downlines, its markup for them. */
export function ownListText(ctx: BaseContext, members: readonly Downline[], markup: PricingRules): string {
  const lines = members.map((m) => ctx.t("downline-own-line", { name: html(m.name), state: m.suspended ? ctx.t("downline-suspended") : "" }));
  const body = lines.length > 0 ? lines.join("\n") : ctx.t("downline-own-none");
  return `${ctx.t("downline-own-title", { count: members.length })}\n\n${body}\n\n${ctx.t("downline-own-markup", { markup: markupText(ctx, markup.all) })}`;
}

/** `/downline markup 700`: its markup for its downlines (one rule for all its products), saved for their next purchase. */
export async function setOwnMarkup(ctx: BaseContext, actor: Required<NetworkActor>, typed: string): Promise<void> {
  const parsed = parseMarkup(typed, ctx.lang);
  if (!parsed.ok) return void (await ctx.reply(ctx.t(parsed.error, parsed.vars ?? {})));
  await ctx.deps.network.setMarkup(actor.owner, actor.by, { all: parsed.markup });
  await ctx.reply(ctx.t("downline-own-markup-saved", { markup: markupText(ctx, parsed.markup) }));
}
