/** /menu, /bantuan (/help) and /batal (/cancel) outside of a flow. */
import { Composer, type InlineKeyboard } from "grammy";
import { menuKeyboard } from "../keyboards/menu.js";
import { cb, onCallback, type MenuName } from "../buttons.js";
import type { BotContext } from "../context.js";
import type { FeatureModule, MenuAction } from "../module.js";
import { isPrivate, replyPrivateOnly } from "../guards.js";
import { commands, downlineMayPress, menuNamesFor } from "../../telegram/commands.js";
import { allows } from "../middlewares/roleGate.js";
import { buttonsShown } from "../middlewares/buttonWait.js";
import { knownRole } from "../middlewares/role.js";
import { helpText, menuRoleOf } from "../../telegram/roleCommands.js";

/** The menu, without the buttons this chat may not press (staff see their role's). */
export function chatMenuKeyboard(ctx: BotContext): InlineKeyboard {
  const role = knownRole(ctx); // unknown while the store is unreachable: the whole menu, as to an owner
  const own = (name: MenuName) => role?.kind === "downline" && downlineMayPress({ name: "menu", menu: name });
  return menuKeyboard(ctx, menuNamesFor((access, name) => role === undefined || allows(role, access) || own(name)));
}

/** `actions` is a Map: a button names its action, never a member of Object.prototype. */
export function menuFeature(actions: ReadonlyMap<MenuName, MenuAction>): Composer<BotContext> {
  const c = new Composer<BotContext>();
  c.command(commands.menu, showMenu);
  c.command(commands.bantuan, showHelp);
  onCallback(c, cb.menu, async (ctx, { name }) => {
    const action = name === "open" ? showMenu : actions.get(name);
    await ctx.answerCallbackQuery();
    if (action) await action(ctx);
  });
  return c;
}

/** /bantuan: the commands of this chat's role (the whole list while the store is unreachable, as to an owner). */
async function showHelp(ctx: BotContext): Promise<void> {
  await ctx.reply(helpText(ctx.translate, menuRoleOf(knownRole(ctx) ?? { kind: "owner" }), ctx.lang));
}

export async function showMenu(ctx: BotContext): Promise<void> {
  // Every menu action works in a private chat only: a group gets the way there instead.
  if (!isPrivate(ctx)) return replyPrivateOnly(ctx, "menu-group");
  await ctx.reply(ctx.t("menu-title"), { reply_markup: chatMenuKeyboard(ctx) });
  buttonsShown(ctx);
}

/** /menu and its buttons: each button opens what the module of the list that declares it gives. */
export const menuModule: FeatureModule = {
  name: "menu",
  composer: (modules) => {
    const actions = new Map<MenuName, MenuAction>();
    for (const m of modules) {
      for (const [name, action] of Object.entries(m.menu ?? {}) as [MenuName, MenuAction][]) actions.set(name, action);
    }
    return menuFeature(actions);
  },
  commands: { menu: "anyone", bantuan: "anyone" },
  buttons: { menu: "anyone" },
  menu: { help: showHelp },
};
