/**
 * Each role's Menu (the command list Telegram shows: setMyCommands) and /bantuan, derived from what
 * commands.ts declares: a role lists the commands it may use (staff: the role gate's rule), in the
 * table's order, in its own words where a command means something else to it. Owners and newcomers
 * have the bot's list for all private chats; any other role's chat gets its own list (Telegram's chat
 * scope), set when the chat's role changes, never on its other updates.
 */
import type { Api } from "grammy";
import type { BotCommand, BotCommandScope, LanguageCode } from "grammy/types";
import type { Role } from "../domain/roles.js";
import { FOREIGN_LANG, type Translate } from "../render/i18n.js";
import type { StaffRole } from "../store/index.js";
import { allows, COMMAND_IDS, commandAccess, commands, commandWords, DOWNLINE_COMMANDS, type CommandId } from "./commands.js";

/** Whose Menu: a role of domain/roles.ts, staff by their role. */
export type MenuRole = "owner" | "guest" | "customer" | "downline" | StaffRole;

/** A role's entry for a command: the key of its description, or undefined when the role does not list it. */
type Listing = (id: CommandId) => string | undefined;

/** What a command means to staff, where it is not the owner's: they have no key to link or remove. */
const STAFF_WORDS: Partial<Record<CommandId, string>> = { start: "cmd-start-staff", keluar: "cmd-keluar-staff" };

const ownerList: Listing = (id) => commandWords(id).menu;
const staffList =
  (role: StaffRole): Listing =>
  (id) =>
    allows({ kind: "staff", owner: 0, role }, commandAccess(id)) ? (STAFF_WORDS[id] ?? commandWords(id).menu) : undefined;

/** Each role's list, one line a role. */
const ROLE_LISTS: { readonly [R in MenuRole]: Listing } = {
  owner: ownerList,
  guest: ownerList, // a newcomer sees what linking a key opens: each command asks for the key first
  cashier: staffList("cashier"),
  admin: staffList("admin"),
  customer: (id) => commandWords(id).customer,
  // /downline only for the downlines the owner lets invite: told so when allowed, not listed for all.
  downline: (id) => (id !== "downline" && (commandAccess(id) === "anyone" || DOWNLINE_COMMANDS.has(id)) ? commandWords(id).menu : undefined),
};

/** The roles whose list is the bot's list for all private chats: their chats need none of their own. */
const DEFAULT_LIST: readonly MenuRole[] = ["owner", "guest"];

/** Not in /bantuan: the first step, and the help itself. */
const NOT_IN_HELP = new Set<CommandId>(["start", "bantuan"]);

export function menuRoleOf(role: Role): MenuRole {
  return role.kind === "staff" ? role.role : role.kind;
}

/** The name a command is listed by: Indonesian names for Indonesian, English ones for everyone else. */
function nameIn(lang: string, id: CommandId): string {
  return lang === "id" ? commands[id][0]! : commands[id].at(-1)!;
}

/** `role`'s commands with the key of their words. */
function listed(role: MenuRole): [CommandId, string][] {
  return COMMAND_IDS.flatMap((id) => {
    const key = ROLE_LISTS[role](id);
    return key === undefined ? [] : [[id, key] as [CommandId, string]];
  });
}

/** `role`'s Menu in `lang`. */
export function commandList(t: Translate, role: MenuRole, lang: string): BotCommand[] {
  return listed(role).map(([id, key]) => ({ command: nameIn(lang, id), description: t(lang, key) }));
}

/** `role`'s /bantuan in `lang`: a line for each command of its Menu (`cmd-x` -> `help-x`: the longer words). */
export function helpText(t: Translate, role: MenuRole, lang: string): string {
  const lines = listed(role)
    .filter(([id]) => !NOT_IN_HELP.has(id))
    .map(([id, key]) => `/${nameIn(lang, id)}: ${t(lang, key.replace(/^cmd-/, "help-"))}`);
  return [t(lang, "help-title"), ...lines].join("\n");
}

/** Sets `role`'s list in every language of locales/ for `scope` (the default: FOREIGN_LANG's). */
async function setLists(api: Api, t: Translate, scope: BotCommandScope, role: MenuRole): Promise<void> {
  // Independent lists (one per language): all in flight at once.
  await Promise.all(
    t.langs.map((lang) => api.setMyCommands(commandList(t, role, lang), lang === FOREIGN_LANG ? { scope } : { scope, language_code: lang as LanguageCode })),
  );
}

/** The bot's list for all private chats, at start: the owner's (newcomers' too). */
export async function registerCommands(api: Api, t: Translate): Promise<void> {
  await setLists(api, t, { type: "all_private_chats" }, "owner");
}

/**
 * A chat's role changed: its Menu becomes the new role's (a list of its own, or none when the role has
 * the bot's list). Throws what Telegram answered (a chat that blocked the bot): the caller logs it.
 */
export async function setChatCommands(api: Api, t: Translate, chatId: number, role: MenuRole): Promise<void> {
  const scope = { type: "chat", chat_id: chatId } as const;
  if (!DEFAULT_LIST.includes(role)) return setLists(api, t, scope, role);
  await Promise.all(t.langs.map((lang) => api.deleteMyCommands(lang === FOREIGN_LANG ? { scope } : { scope, language_code: lang as LanguageCode })));
}
