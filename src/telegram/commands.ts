/**
 * Every command has an Indonesian and an English name; both always work. The menu shown by
 * Telegram (setMyCommands) lists the Indonesian names to Indonesian users and English names otherwise.
 */
import type { Api } from "grammy";
import type { Translate } from "../render/i18n.js";

/** [indonesian, english, description key]. The description keys are shared by both lists. */
export const COMMANDS: readonly (readonly [string, string, string])[] = [
  ["start", "start", "cmd-start"],
  ["menu", "menu", "cmd-menu"],
  ["saldo", "balance", "cmd-saldo"],
  ["harga", "prices", "cmd-harga"],
  ["beli", "topup", "cmd-beli"],
  ["tagihan", "bill", "cmd-tagihan"],
  ["transfer", "transfer", "cmd-transfer"],
  ["deposit", "deposit", "cmd-deposit"],
  ["status", "status", "cmd-status"],
  ["riwayat", "history", "cmd-riwayat"],
  ["toko", "shop", "cmd-toko"],
  ["laporan", "report", "cmd-laporan"],
  ["ekspor", "export", "cmd-ekspor"],
  ["pelanggan", "customers", "cmd-pelanggan"],
  ["peringatan", "alerts", "cmd-alerts"],
  ["markup", "markup", "cmd-markup"],
  ["hargajual", "sellprice", "cmd-hargajual"],
  ["webhook", "webhook", "cmd-webhook"],
  ["bahasa", "language", "cmd-bahasa"],
  ["kunci", "key", "cmd-kunci"],
  ["keluar", "logout", "cmd-keluar"],
  ["batal", "cancel", "cmd-batal"],
  ["bantuan", "help", "cmd-bantuan"],
];

/** Registers the command lists for private chats: Indonesian for `id` users, English as the default. */
export async function registerCommands(api: Api, t: Translate): Promise<void> {
  const scope = { type: "all_private_chats" } as const;
  // Independent lists (one per language): both in flight at once, one round trip before polling.
  await Promise.all([
    api.setMyCommands(
      COMMANDS.map(([id, , desc]) => ({ command: id, description: t("id", desc) })),
      { scope, language_code: "id" },
    ),
    api.setMyCommands(
      COMMANDS.map(([, en, desc]) => ({ command: en, description: t("en", desc) })),
      { scope },
    ),
  ]);
}
