/** /menu, /bantuan (/help) and /batal (/cancel) outside of a flow. */
import { Composer, InlineKeyboard } from "grammy";
import type { BotContext } from "../context.js";
import type { MenuAction } from "../module.js";


export const MENU_LAYOUT: readonly (readonly string[])[] = [
  ["topup", "prices"],
  ["bill", "transfer"],
  ["deposit", "balance"],
  ["history", "status"],
  ["alerts", "language"],
  ["help"],
];

export function menuKeyboard(ctx: BotContext): InlineKeyboard {
  const kb = new InlineKeyboard();
  for (const row of MENU_LAYOUT) {
    for (const action of row) kb.text(ctx.t(`menu-${action}`), `menu:${action}`);
    kb.row();
  }
  return kb;
}

export function menuFeature(actions: Record<string, MenuAction>): Composer<BotContext> {
  const c = new Composer<BotContext>();
  c.command("menu", showMenu);
  c.command(["bantuan", "help"], (ctx) => ctx.reply(ctx.t("help"), { parse_mode: "HTML" }));
  c.callbackQuery(/^menu:(\w+)$/, async (ctx) => {
    const name = ctx.match[1]!;
    const action = name === "open" ? showMenu : actions[name];
    await ctx.answerCallbackQuery();
    if (action) await action(ctx);
  });
  return c;
}

export async function showMenu(ctx: BotContext): Promise<void> {
  await ctx.reply(ctx.t("menu-title"), { parse_mode: "HTML", reply_markup: menuKeyboard(ctx) });
}
