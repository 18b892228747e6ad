/**
 * Every command, declared once: its Indonesian and English names (both always work), the key of its
 * description in the menu Telegram shows (setMyCommands) and who may use it (`Access`, enforced by
 * bot/middlewares/roleGate.ts). Handlers bind through `commands`, the patterns that spot a command in
 * a text derive from it; each role's Menu and /bantuan too (roleCommands.ts). Who may press each button
 * family is declared beside it (BUTTON_ACCESS).
 */
import type { Role } from "../domain/roles.js";
import { cb, MENU_NAMES, type CallbackName, type MenuName } from "./buttonData.js";

/**
 * Who may use a command or a button, from the fewest to the most: `owner` (the reseller whose key it
 * is), `admin` (also the owner's shop admins), `cashier` (also the owner's cashiers), `anyone` (no
 * staff rule: customers and guests are answered as before, by the feature itself).
 */
export type Access = "owner" | "admin" | "cashier" | "anyone";

/**
 * Keyed by the Indonesian name: [indonesian, english, description key or undefined when not listed, access,
 * and for the commands a shop's customer has: their description key for a customer].
 * /keluar is open to all: for staff it ends the membership, for the owner it removes the key (the
 * handler tells them apart). Bot admin commands check the admin ids themselves.
 */
const TABLE = {
  start: ["start", "start", "cmd-start", "anyone", "shopfront-cmd-start"],
  menu: ["menu", "menu", "cmd-menu", "anyone", "cmd-menu"],
  saldo: ["saldo", "balance", "cmd-saldo", "admin"],
  harga: ["harga", "prices", "cmd-harga", "cashier"],
  beli: ["beli", "topup", "cmd-beli", "cashier"],
  tagihan: ["tagihan", "bill", "cmd-tagihan", "cashier"],
  transfer: ["transfer", "transfer", "cmd-transfer", "owner"],
  deposit: ["deposit", "deposit", "cmd-deposit", "owner"],
  status: ["status", "status", "cmd-status", "cashier"],
  riwayat: ["riwayat", "history", "cmd-riwayat", "cashier"],
  toko: ["toko", "shop", "cmd-toko", "admin"],
  pesanan: ["pesanan", "orders", "cmd-pesanan", "cashier", "shopfront-cmd-orders"],
  laporan: ["laporan", "report", "cmd-laporan", "admin"],
  ekspor: ["ekspor", "export", "cmd-ekspor", "admin"],
  pelanggan: ["pelanggan", "customers", "cmd-pelanggan", "cashier"],
  peringatan: ["peringatan", "alerts", "cmd-alerts", "owner"],
  markup: ["markup", "markup", "cmd-markup", "admin"],
  hargajual: ["hargajual", "sellprice", "cmd-hargajual", "admin"],
  webhook: ["webhook", "webhook", "cmd-webhook", "owner"],
  bahasa: ["bahasa", "language", "cmd-bahasa", "anyone", "cmd-bahasa"],
  kunci: ["kunci", "key", "cmd-kunci", "owner"],
  staf: ["staf", "staff", "cmd-staf", "owner"],
  audit: ["audit", "audit", "cmd-audit", "owner"],
  downline: ["downline", "downlines", "cmd-downline", "owner"],
  pin: ["pin", "pin", "cmd-pin", "cashier"], // staff and downlines set their own PIN
  mutasi: ["mutasi", "statement", "cmd-mutasi", "anyone"],
  // A downline's payout from its wallet (the handler answers anyone else that it is a downline's).
  tarik: ["tarik", "withdraw", "cmd-tarik", "anyone"],
  // A downline's H2H access for its own system (the handler answers anyone else that it is a downline's).
  h2h: ["h2h", "h2h", "cmd-h2h", "anyone"],
  keluar: ["keluar", "logout", "cmd-keluar", "anyone"],
  batal: ["batal", "cancel", "cmd-batal", "anyone", "cmd-batal"],
  bantuan: ["bantuan", "help", "cmd-bantuan", "anyone", "cmd-bantuan"],
  // Admin commands: not in the menu users see.
  admin: ["admin", "admin", undefined, "anyone"],
  siaran: ["siaran", "broadcast", undefined, "anyone"],
  ceksaldo: ["ceksaldo", "balances", undefined, "anyone"],
} as const satisfies Record<string, readonly [string, string, string | undefined, Access, string?]>;

export type CommandId = keyof typeof TABLE;

/** The names a command answers to, e.g. `commands.saldo` is ["saldo", "balance"]. */
export const commands: { readonly [K in CommandId]: string[] } = Object.fromEntries(
  Object.entries(TABLE).map(([id, [idName, enName]]) => [id, idName === enName ? [idName] : [idName, enName]]),
) as Record<CommandId, string[]>;

/** Who may use the command `id`. */
export function commandAccess(id: CommandId): Access {
  return TABLE[id][3];
}

/**
 * What a downline may use besides what anyone may: selling with the owner's key from its own wallet
 * (its `/saldo` is its wallet), its own downlines when the owner allows it (`/downline`, checked by the handler), its own selling prices
 * for its customers (`/markup`, `/hargajual`), never the owner's settings, money out of the owner's balance or the
 * owner's shop orders (docs/wallets.md).
 */
export const DOWNLINE_COMMANDS: ReadonlySet<CommandId> = new Set<CommandId>([
  "saldo", "harga", "beli", "tagihan", "status", "riwayat", "pelanggan", "mutasi", "deposit", "laporan", "ekspor", "downline", "markup", "hargajual", "pin",
]);

/**
 * Buttons a downline may press beyond what `allows` gives it: its own deposit's (money into its wallet;
 * the handler checks the deposit is its own), the menu's Deposit, and its own report and export, from the
 * menu too (features/report.ts answers with its records only). Never the instant release.
 */
const DOWNLINE_BUTTONS: ReadonlySet<string> = new Set([
  "depositCancel", "depositCancelYes", "depositCancelNo", "menu:deposit", "menu:report", "menu:export", "exportMenu", "exportMonth",
]);

/** Whether a downline may press a button `buttonAccess` found (its own wallet's, beyond `allows`). */
export function downlineMayPress(button: { name: string; menu?: string }): boolean {
  return DOWNLINE_BUTTONS.has(button.menu === undefined ? button.name : `menu:${button.menu}`);
}

/** Whether a chat of `role` may use what needs `access` (the role gate's rule; the Menus follow it; a downline: selling only). */
export function allows(role: Role, access: Access): boolean {
  if (role.kind === "downline") return access === "anyone" || access === "cashier";
  if (role.kind !== "staff") return true;
  return access === "anyone" || access === "cashier" || (access === "admin" && role.role === "admin");
}

/** Every command, in the table's order (the order of the Menus and of /bantuan). */
export const COMMAND_IDS = Object.keys(TABLE) as readonly CommandId[];

/** The key of a command's description in the Menu (undefined: not listed), and a shop customer's (undefined: it has none). */
export function commandWords(id: CommandId): { menu: string | undefined; customer: string | undefined } {
  const row: readonly (string | undefined)[] = TABLE[id];
  return { menu: row[2], customer: row[4] };
}

const BY_NAME: ReadonlyMap<string, CommandId> = new Map(
  (Object.entries(TABLE) as [CommandId, (typeof TABLE)[CommandId]][]).flatMap(([id, [idName, enName]]) => [
    [idName, id],
    [enName, id],
  ]),
);

/** The command a message text starts with (any of its names, `@bot` suffix allowed), or undefined. */
export function commandOf(text: string | undefined): CommandId | undefined {
  const name = /^\/([A-Za-z0-9_]+)(@\w+)?(\s|$)/.exec(text ?? "")?.[1];
  return name === undefined ? undefined : BY_NAME.get(name.toLowerCase());
}

/** What each main-menu button opens: the command whose access it has (`open`, the menu itself: anyone). */
const MENU_ACCESS: { readonly [N in MenuName]: Access } = {
  open: "anyone",
  topup: TABLE.beli[3],
  prices: TABLE.harga[3],
  bill: TABLE.tagihan[3],
  transfer: TABLE.transfer[3],
  deposit: TABLE.deposit[3],
  balance: TABLE.saldo[3],
  history: TABLE.riwayat[3],
  status: TABLE.status[3],
  alerts: TABLE.peringatan[3],
  language: TABLE.bahasa[3],
  help: TABLE.bantuan[3],
  report: TABLE.laporan[3],
  customers: TABLE.pelanggan[3],
  markup: TABLE.markup[3],
  shop: TABLE.toko[3],
  export: TABLE.ekspor[3],
};

/**
 * Who may press each button family, declared for every callback shape (a new shape without a line here
 * does not compile): a forged button is refused as its command would be. A flow's own buttons (f:...)
 * are open: the flow was gated when it began, and a membership that ended ends its flows.
 */
const BUTTON_ACCESS: { readonly [N in CallbackName]: Access } = {
  confirm: "cashier",
  cancelDraft: "cashier",
  confirmAgain: "cashier",
  retry: "cashier",
  status: "cashier",
  depositCancel: "owner",
  depositCancelYes: "owner",
  depositCancelNo: "owner",
  depositRelease: "owner",
  depositReleaseConfirm: "owner",
  depositReleaseLater: "owner",
  broadcastSend: "anyone",
  broadcastCancel: "anyone",
  historyPage: "cashier",
  historyDetail: "cashier",
  saleReceipt: "cashier",
  reportDaily: "admin",
  exportMenu: "admin",
  exportMonth: "admin",
  menu: "anyone", // by the button's own target: MENU_ACCESS
  language: "anyone",
  webhookRenew: "owner",
  cancel: "anyone",
  pricesRoot: "cashier",
  pricesRootRefresh: "cashier",
  pricesProviders: "cashier",
  pricesProducts: "cashier",
  pricesProductsRefresh: "cashier",
  pricesProduct: "cashier",
  pricesBills: "cashier",
  pricesSearch: "cashier",
  flowChoice: "anyone",
  flowPage: "anyone",
  flowButton: "anyone",
  flowSuggestion: "anyone",
  buyAgain: "cashier",
  saveCustomer: "cashier",
  customersPage: "cashier",
  customersSearch: "cashier",
  customerOpen: "cashier",
  customerBuy: "cashier",
  customerRename: "cashier",
  customerDelete: "cashier",
  customerDeleteYes: "cashier",
  staffInvite: "owner",
  staffOpen: "owner",
  staffRole: "owner",
  staffRemove: "owner",
  staffNotices: "owner",
  staffCost: "owner",
  staffPinReset: "owner",
  staffLeave: "anyone", // the handler checks the membership the button names
  staffStay: "anyone",
  auditMore: "owner",
  exportAudit: "owner",
  // Also pressed by a downline the owner allows to invite, on its own downlines (the handler checks whose).
  downlineInvite: "cashier",
  downlineOpen: "cashier",
  downlinePage: "owner",
  downlineLevel: "owner",
  downlineSuspend: "cashier",
  downlineRemove: "cashier",
  downlineAdjust: "owner",
  downlineAdjustYes: "owner",
  downlineAdjustNo: "owner",
  downlineMayInvite: "owner",
  downlinePinReset: "cashier",
  downlineH2h: "owner",
  h2hNewKey: "anyone",
  walletMore: "anyone",
  walletCsv: "anyone",
  payoutOpen: "owner",
  payoutDecline: "owner",
  // Staff and downlines have a PIN of their own (docs/pin.md).
  pinDigit: "cashier",
  pinBack: "cashier",
  pinOk: "cashier",
  pinCancel: "cashier",
  pinChange: "cashier",
  pinNotMe: "owner",
  pinPick: "owner",
  pinSet: "owner",
  pinOwn: "owner",
};

/** The button family a callback data belongs to and who may press it; undefined for data no shape reads. */
export function buttonAccess(data: string): { name: CallbackName; access: Access; menu?: MenuName } | undefined {
  for (const name of Object.keys(cb) as CallbackName[]) {
    const fields = cb[name].decode(data) as Record<string, unknown> | undefined;
    if (fields === undefined) continue;
    if (name === "menu") return { name, access: MENU_ACCESS[fields.name as MenuName], menu: fields.name as MenuName };
    return { name, access: BUTTON_ACCESS[name] };
  }
  return undefined;
}

/** Every main-menu button a chat of `access` level may press (the menu shows no more). */
export function menuNamesFor(allowed: (access: Access, name: MenuName) => boolean): Set<MenuName> {
  return new Set(MENU_NAMES.filter((n) => allowed(MENU_ACCESS[n], n)));
}

/** Matches a message that is one of these commands (any of its names, `@bot` suffix allowed). */
export function commandPattern(...ids: CommandId[]): RegExp {
  const names = ids.flatMap((id) => commands[id]);
  return new RegExp(`^\\/(${names.join("|")})(@\\w+)?(\\s|$)`, "i");
}
