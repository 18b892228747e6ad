/**
 * Every command, declared once: its Indonesian and English names (both always work) and the key of
 * its description in the menu Telegram shows (setMyCommands). Handlers bind through `commands`, the
 * patterns that spot a command in a text derive from it. The menu lists the Indonesian names to
 * Indonesian users and the English names to everyone else, each with descriptions in their language.
 */
import type { Api } from "grammy";
import type { LanguageCode } from "grammy/types";
import { FOREIGN_LANG, type Translate } from "../render/i18n.js";

/** Keyed by the Indonesian name: [indonesian, english, description key, or undefined when not listed]. */
const TABLE = {
  start: ["start", "start", "cmd-start"],
  menu: ["menu", "menu", "cmd-menu"],
  saldo: ["saldo", "balance", "cmd-saldo"],
  harga: ["harga", "prices", "cmd-harga"],
  beli: ["beli", "topup", "cmd-beli"],
  tagihan: ["tagihan", "bill", "cmd-tagihan"],
  transfer: ["transfer", "transfer", "cmd-transfer"],
  deposit: ["deposit", "deposit", "cmd-deposit"],
  status: ["status", "status", "cmd-status"],
  riwayat: ["riwayat", "history", "cmd-riwayat"],
  toko: ["toko", "shop", "cmd-toko"],
  laporan: ["laporan", "report", "cmd-laporan"],
  ekspor: ["ekspor", "export", "cmd-ekspor"],
  pelanggan: ["pelanggan", "customers", "cmd-pelanggan"],
  peringatan: ["peringatan", "alerts", "cmd-alerts"],
  markup: ["markup", "markup", "cmd-markup"],
  hargajual: ["hargajual", "sellprice", "cmd-hargajual"],
  webhook: ["webhook", "webhook", "cmd-webhook"],
  bahasa: ["bahasa", "language", "cmd-bahasa"],
  kunci: ["kunci", "key", "cmd-kunci"],
  keluar: ["keluar", "logout", "cmd-keluar"],
  batal: ["batal", "cancel", "cmd-batal"],
  bantuan: ["bantuan", "help", "cmd-bantuan"],
  // Admin commands: not in the menu users see.
  admin: ["admin", "admin", undefined],
  siaran: ["siaran", "broadcast", undefined],
  ceksaldo: ["ceksaldo", "balances", undefined],
} as const satisfies Record<string, readonly [string, string, string | undefined]>;

export type CommandId = keyof typeof TABLE;

/** The names a command answers to, e.g. `commands.saldo` is ["saldo", "balance"]. */
export const commands: { readonly [K in CommandId]: string[] } = Object.fromEntries(
  Object.entries(TABLE).map(([id, [idName, enName]]) => [id, idName === enName ? [idName] : [idName, enName]]),
) as Record<CommandId, string[]>;

/** Matches a message that is one of these commands (any of its names, `@bot` suffix allowed). */
export function commandPattern(...ids: CommandId[]): RegExp {
  const names = ids.flatMap((id) => commands[id]);
  return new RegExp(`^\\/(${names.join("|")})(@\\w+)?(\\s|$)`, "i");
}

/**
 * Registers the command lists for private chats: Indonesian names for `id`, English names as the
 * default (FOREIGN_LANG) and for every other language of locales/, with that language's descriptions.
 */
export async function registerCommands(api: Api, t: Translate): Promise<void> {
  const scope = { type: "all_private_chats" } as const;
  const listed = Object.values(TABLE).filter((c) => c[2] !== undefined);
  // Independent lists (one per language): all in flight at once, one round trip before polling.
  await Promise.all(
    t.langs.map((lang) =>
      api.setMyCommands(
        listed.map(([idName, enName, desc]) => ({ command: lang === "id" ? idName : enName, description: t(lang, desc!) })),
        lang === FOREIGN_LANG ? { scope } : { scope, language_code: lang as LanguageCode },
      ),
    ),
  );
}
