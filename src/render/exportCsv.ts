/**
 * /ekspor: one month of a chat's records as CSV (csv-stringify: quoting is the library's job, not
 * string joins). UTF-8 with a BOM so Excel reads the Indonesian text right; amounts are plain whole
 * rupiah (102200) so spreadsheets sum them. Pure: records and translate in, bytes out.
 */
import { stringify } from "csv-stringify/sync";
import { costOf, isSale, profitOf, sellingPrice } from "../domain/sale.js";
import { orderRefOfTx } from "../domain/shop/orders.js";
import { kindLabel } from "./receipt.js";
import { formatWib } from "../tools/time.js";
import { detailOf, type Lang, type TxRecord, type WalletEntry } from "../store/index.js";
import type { AuditEntry } from "../domain/audit.js";
import { auditValues } from "./audit.js";
import type { Translate } from "./i18n.js";

/** `by` (who made it) is last, and only in the file of a shop with staff. */
export const CSV_COLUMNS = ["time", "ref", "provider-id", "kind", "code", "product", "target", "cost", "price", "profit", "money-in", "money-out", "status", "sn", "by"] as const;

const whole = (n: number) => String(Math.round(n));

/**
 * A cell a spreadsheet could run as a formula (starting with `=`, `@`, `+`, `-`, a tab or a return)
 * gets a leading apostrophe, unless the whole cell is a plain number (a phone number, an amount):
 * product names, targets and the provider's ids come from outside.
 */
function safe(text: string | null | undefined): string {
  const s = text ?? "";
  return /^[=@+\-\t\r]/.test(s) && !/^[+-]?\d[\d. ]*$/.test(s) ? `'${s}` : s;
}

/**
 * Who made a record: a staff member by name (its chat id when no longer listed), the online shop (a
 * customer's payment and its purchase; a refund is the owner's own transfer), or the owner.
 */
function madeBy(t: Translate, lang: Lang, tx: TxRecord, names: ReadonlyMap<number, string>): string {
  if (tx.by !== undefined) return safe(names.get(tx.by) ?? String(tx.by));
  return orderRefOfTx(tx.refId) !== undefined && tx.kind !== "transfer" ? t(lang, "csv-by-shop") : t(lang, "report-per-person-owner");
}

/** The cells of one record, in CSV_COLUMNS order; `names`: staff chats' names (the "by" column). */
export function csvRow(t: Translate, lang: Lang, tx: TxRecord, names: ReadonlyMap<number, string> = new Map()): string[] {
  const sale = isSale(tx);
  // Only money that moved is in the money columns, so each sums to the month's real figure: what
  // a deposit added to the balance, what a transfer took from it (nominal and fee).
  const done = tx.status === "success";
  const moneyIn = tx.kind === "deposit" && done ? whole(detailOf(tx, "deposit").credited ?? tx.amount) : "";
  const moneyOut = tx.kind === "transfer" && done ? whole(tx.total ?? tx.amount) : "";
  return [
    formatWib(tx.createdAt),
    tx.refId,
    safe(tx.upstreamId),
    // A shop order's deposit, purchase or refund: marked, so the sheet can tell them from the counter's.
    kindLabel(t, lang, tx),
    safe(tx.code),
    safe(tx.title),
    safe(tx.target),
    // The cost is a sale's only: deposits and transfers have their own columns.
    sale ? whole(costOf(tx)) : "",
    sale ? whole(sellingPrice(tx)) : "",
    // Only a successful sale earned something: the column sums to the real profit.
    sale && done ? whole(profitOf(tx)) : "",
    moneyIn,
    moneyOut,
    t(lang, `status-${tx.status}`),
    safe(tx.sn),
    madeBy(t, lang, tx, names),
  ];
}

/** The CSV file (BOM, header row in the chat's language, one row per record). */
/** The file of a shop without staff keeps its columns; with staff a last column says who made each record. */
export function exportCsv(t: Translate, lang: Lang, txs: readonly TxRecord[], names: ReadonlyMap<number, string> = new Map()): Buffer {
  const withBy = names.size > 0 || txs.some((tx) => tx.by !== undefined);
  const columns = withBy ? CSV_COLUMNS : CSV_COLUMNS.filter((c) => c !== "by");
  const header = columns.map((c) => t(lang, `csv-${c}`));
  return csvFile([header, ...txs.map((tx) => csvRow(t, lang, tx, names).slice(0, columns.length))]);
}

/** A downline's own file: its price and what moved in its wallet, never the owner's cost, profit or balance. */
export const OWN_CSV_COLUMNS = ["time", "ref", "kind", "code", "product", "target", "own-price", "wallet", "status", "sn"] as const;

/** What a record moved in its buyer's wallet once settled: − a sale's or payout's price, + a deposit's credit. */
function walletMoved(tx: TxRecord): string {
  const part = tx.wallet;
  if (part?.state !== "posted") return "";
  return tx.kind === "deposit" ? whole(part.credit ?? 0) : whole(-part.price);
}

/** A downline's records (already only its own) as CSV, in OWN_CSV_COLUMNS order. */
export function ownExportCsv(t: Translate, lang: Lang, txs: readonly TxRecord[]): Buffer {
  const header = OWN_CSV_COLUMNS.map((c) => t(lang, `csv-${c}`));
  const rows = txs.map((tx) => [
    formatWib(tx.createdAt),
    tx.refId,
    kindLabel(t, lang, tx),
    safe(tx.code),
    safe(tx.title),
    safe(tx.target),
    isSale(tx) ? whole(tx.wallet?.price ?? sellingPrice(tx)) : "",
    walletMoved(tx),
    t(lang, `status-${tx.status}`),
    safe(tx.sn),
  ]);
  return csvFile([header, ...rows]);
}

/** A wallet's entries (oldest first) as CSV: time (WIB), kind, amount (+ in, − out), running balance, ref, reason. */
export function walletCsv(t: Translate, lang: Lang, entries: readonly WalletEntry[]): Buffer {
  const header = ["time", "kind", "amount", "balance", "ref", "reason"].map((c) => t(lang, `csv-wallet-${c}`));
  const rows = entries.map((e) => [formatWib(e.at), t(lang, `wallet-entry-${e.kind}`), whole(e.amount), whole(e.balance), e.txRef ?? e.ref, safe(e.reason)]);
  return csvFile([header, ...rows]);
}

/** The audit log as CSV: time (WIB), who, what, before, after; newest first as shown by /audit, each value in the same words. */
export function auditCsv(t: Translate, lang: Lang, entries: readonly { at: number; entry: AuditEntry }[], names: ReadonlyMap<number, string> = new Map()): Buffer {
  const header = ["time", "who", "act", "before", "after"].map((c) => t(lang, `csv-audit-${c}`));
  const rows = entries.map(({ at, entry }) => {
    const { before, after } = auditValues(t, lang, entry, names);
    return [
      formatWib(at),
      safe(entry.byName ? `${entry.byName} (${entry.by})` : String(entry.by)),
      t(lang, `audit-act-${entry.act}`),
      safe(before === undefined ? undefined : plain(before)),
      safe(after === undefined ? undefined : plain(after)),
    ];
  });
  return csvFile([header, ...rows]);
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"' };

/** Telegram HTML as the text it shows: tags dropped, the four escapes undone. */
function plain(text: string): string {
  return text.replace(/<[^>]*>/g, "").replace(/&(amp|lt|gt|quot);/g, (e) => ENTITIES[e]!);
}

function csvFile(rows: string[][]): Buffer {
  return Buffer.from(stringify(rows, { bom: true, record_delimiter: "windows" }), "utf8");
}
