/**
 * History reads of the file store (findTx, listTxByChat, txsOfMonth, txMonths): the hot set in memory
 * merged with the monthly archive, reading only the archived months a page overlaps.
 */
import type { Archive } from "./archive.js";
import { nextMonth, wibMonth, wibMonthStart } from "./archive.js";
import { comparePos, lowerBound, type RecordIndexes, type TxPos } from "./indexes.js";
import type { TxRecord } from "../records.js";

/** A chat's transaction by our refId or by the provider's upstreamId, archived ones too. */
export function findTx(hot: RecordIndexes, archive: Archive, chatId: number, id: string): Readonly<TxRecord> | undefined {
  const own = hot.tx(id);
  if (own && own.chatId === chatId) return own;
  const refId = hot.refIdByUpstream(chatId, id);
  if (refId !== undefined) return hot.tx(refId);
  const match = (t: TxRecord) => t.refId === id || t.upstreamId === id;
  // Our refIds carry their WIB creation date (refs.ts): try that month before all the others.
  const dated = /^[A-Z]{2}(\d{2})(\d{2})\d{2}/.exec(id);
  const first = dated ? `20${dated[1]}-${dated[2]}` : undefined;
  const months = archive.monthCounts(chatId).map(([m]) => m);
  for (const month of first && months.includes(first) ? [first, ...months.filter((m) => m !== first)] : months) {
    const hit = archive.read(chatId, month).find(match);
    if (hit) return hit;
  }
  return undefined;
}

/** A page of the chat's transactions, newest first (by createdAt, then refId), archived ones included. */
export function listTxByChat(
  hot: RecordIndexes,
  archive: Archive,
  chatId: number,
  page: { offset?: number; limit?: number },
): { items: Readonly<TxRecord>[]; total: number } {
  const list = hot.history(chatId);
  const offset = Math.max(0, Math.floor(page.offset ?? 0));
  const limit = Math.max(0, Math.floor(page.limit ?? 10));
  const archived = archive.monthCounts(chatId);
  if (archived.length === 0) {
    const total = list.length;
    const end = Math.max(0, total - offset);
    const items = list
      .slice(Math.max(0, end - limit), end)
      .reverse()
      .map((p) => hot.tx(p.refId)!);
    return { items, total };
  }
  // Month by month, newest first: each month's size is known without reading it, so only the
  // months the page overlaps are read.
  const counts = new Map(archived);
  for (const month of hotMonths(list)) counts.set(month, counts.get(month) ?? 0);
  const months = [...counts.keys()].sort().reverse();
  let total = 0;
  const items: Readonly<TxRecord>[] = [];
  for (const month of months) {
    const [from, to] = hotRange(list, month);
    const n = counts.get(month)! + (to - from);
    if (items.length < limit && total + n > offset) {
      const start = Math.max(0, offset - total);
      // Only the lines shown when the archive can find them by position; else the whole month.
      const shown = archive.page(chatId, month, list.slice(from, to), start, limit - items.length);
      if (shown) for (const t of shown) items.push("chatId" in t ? t : hot.tx(t.refId)!);
      else {
        const all = monthList(hot, archive, chatId, month, list.slice(from, to));
        // A duplicate (a record both hot and archived) makes the month shorter than counted: clamp.
        for (let i = all.length - 1 - start; i >= 0 && items.length < limit; i--) items.push(all[i]!);
      }
    }
    total += n;
  }
  return { items, total };
}

/** The chat's transactions created in `month` ("YYYY-MM", WIB), oldest first, archived ones included. */
export function txsOfMonth(hot: RecordIndexes, archive: Archive, chatId: number, month: string): Readonly<TxRecord>[] {
  const list = hot.history(chatId);
  const [from, to] = hotRange(list, month);
  return monthList(hot, archive, chatId, month, list.slice(from, to));
}

/** The WIB months ("YYYY-MM") in which the chat has records, hot or archived, newest first. */
export function txMonths(hot: RecordIndexes, archive: Archive, chatId: number): string[] {
  const months = new Set(archive.monthCounts(chatId).map(([m]) => m));
  for (const p of hot.history(chatId)) months.add(wibMonth(p.at));
  return [...months].sort().reverse();
}

/** Hot and archived records of one month, de-duplicated by refId (hot wins), oldest first. */
function monthList(hot: RecordIndexes, archive: Archive, chatId: number, month: string, hotPart: readonly TxPos[]): Readonly<TxRecord>[] {
  const byRef = new Map<string, Readonly<TxRecord>>();
  for (const t of archive.read(chatId, month)) byRef.set(t.refId, t);
  for (const p of hotPart) byRef.set(p.refId, hot.tx(p.refId)!);
  return [...byRef.values()].sort((a, b) => comparePos({ at: a.createdAt, refId: a.refId }, { at: b.createdAt, refId: b.refId }));
}

/** Index range [from, to) of `list` created in `month`. */
function hotRange(list: readonly TxPos[], month: string): [number, number] {
  const start = wibMonthStart(month);
  const end = wibMonthStart(nextMonth(month));
  return [lowerBound(list, { at: start, refId: "" }), lowerBound(list, { at: end, refId: "" })];
}

function hotMonths(list: readonly TxPos[]): string[] {
  if (list.length === 0) return [];
  const out: string[] = [];
  const last = wibMonth(list[list.length - 1]!.at);
  for (let m = wibMonth(list[0]!.at); m <= last; m = nextMonth(m)) out.push(m);
  return out;
}
