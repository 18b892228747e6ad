/**
 * Price changes: each prepaid price list the bot fetches is compared with the previous one of the same
 * provider account, and the costs that moved are appended to a log (product, old cost, new cost; the
 * entry's time is when). The previous costs are one document per account, so the comparison survives a
 * restart and, of two processes fetching at once, the one whose compare-and-set wins writes the entry.
 *
 * Cheap on purpose: a refresh (every few minutes while someone browses) costs one document read; writes
 * happen only when the list changed. Accounts are named by a hash of their api key, never the key.
 */
import * as z from "../tools/zod.js";
import { fnv1a } from "../tools/hash.js";
import { DuplicateDocError, type DocKind, type LogEntry, type Store } from "../store/index.js";
import type { PrepaidProduct } from "../upstream/types.js";
import type { ListCache } from "../upstream/cache.js";
import type { Logger } from "../logging/logger.js";

export interface PriceChange {
  code: string;
  name: string;
  category: string;
  oldCost: number;
  newCost: number;
}

/** One refresh's changes for one account. */
export interface PriceChangeEntry {
  account: string;
  changes: PriceChange[];
  /** Changes left out past MAX_CHANGES_PER_ENTRY. */
  more?: number;
}

/** The costs as last fetched, per product code. */
export interface SeenPrices {
  costs: Record<string, number>;
}

const ChangeSchema = z.object({ code: z.string(), name: z.string(), category: z.string(), oldCost: z.number(), newCost: z.number() });

export const PriceChangeKind: DocKind<PriceChangeEntry> = {
  name: "price_change",
  schema: z.object({ account: z.string(), changes: z.array(ChangeSchema), more: z.optional(z.number()) }),
};

export const SeenPricesKind: DocKind<SeenPrices> = {
  name: "price_seen",
  schema: z.object({ costs: z.record(z.string(), z.number()) }),
};

/**
 * Each account's changes are a log of their own (the owner: a number from the account's name), so a
 * reader pages through its account only; entries still say their account, a shared number is harmless.
 */
export function logOwnerOf(account: string): number {
  return 1 + fnv1a(account);
}
/** A list whose every price moved still writes one bounded entry. */
export const MAX_CHANGES_PER_ENTRY = 500;
/** How far back a reader pages through the log (entries, newest first). */
const READ_LIMIT = 500;

/** The products of `list` whose cost differs from `before`, by code; new and dropped products are not changes. */
export function diffPrices(before: Readonly<Record<string, number>>, list: readonly PrepaidProduct[]): PriceChange[] {
  const changes: PriceChange[] = [];
  for (const p of list) {
    const old = Object.hasOwn(before, p.code) ? before[p.code] : undefined;
    if (old !== undefined && old !== p.price) changes.push({ code: p.code, name: p.name, category: p.category, oldCost: old, newCost: p.price });
  }
  return changes.sort((a, b) => a.code.localeCompare(b.code));
}

function costsOf(list: readonly PrepaidProduct[]): Record<string, number> {
  const costs: Record<string, number> = {};
  for (const p of list) costs[p.code] = p.price;
  return costs;
}

function sameCodes(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k));
}

/**
 * Compares a freshly fetched list with the account's previous one and logs what moved. Returns the
 * changes this call logged (none when another process logged this refresh first).
 */
export async function recordPriceList(store: Store, account: string, list: readonly PrepaidProduct[]): Promise<PriceChange[]> {
  if (list.length === 0) return []; // an empty answer is no price list: keep the previous one
  const costs = costsOf(list);
  const seen = await store.getDoc(SeenPricesKind, account);
  if (!seen) {
    try {
      await store.createDoc(SeenPricesKind, { id: account, owner: 0, state: "active", value: { costs } });
    } catch (err) {
      if (!(err instanceof DuplicateDocError)) throw err;
    }
    return [];
  }
  const changes = diffPrices(seen.value.costs, list);
  if (changes.length === 0 && sameCodes(seen.value.costs, costs)) return [];
  const won = await store.updateDoc(SeenPricesKind, account, { version: seen.version }, { value: { costs } });
  if (!won) return [];
  if (changes.length > 0) {
    const kept = changes.slice(0, MAX_CHANGES_PER_ENTRY);
    const more = changes.length - kept.length;
    await store.appendLog(PriceChangeKind, logOwnerOf(account), { account, changes: kept, ...(more > 0 ? { more } : {}) });
  }
  return changes;
}

/** A product's cost movement over a period: its first old cost and its last new cost. */
export interface CostMove {
  code: string;
  name: string;
  category: string;
  oldCost: number;
  newCost: number;
}

/**
 * The account's net cost movements since `since` (epoch ms), by code; a cost that moved and came back
 * is not a movement. Reads at most a bounded page of the log, newest first.
 */
export async function costMovesSince(store: Store, account: string, since: number): Promise<Map<string, CostMove>> {
  const entries: LogEntry<PriceChangeEntry>[] = [];
  let beforeSeq: number | undefined;
  while (entries.length < READ_LIMIT) {
    const page = await store.listLog(PriceChangeKind, logOwnerOf(account), { limit: 100, ...(beforeSeq !== undefined ? { beforeSeq } : {}) });
    const recent = page.filter((e) => e.at >= since);
    entries.push(...recent);
    if (page.length < 100 || recent.length < page.length) break;
    beforeSeq = page[page.length - 1]!.seq;
  }
  const moves = new Map<string, CostMove>();
  // Oldest first: the first old cost stays, the last new cost wins.
  for (const e of entries.reverse()) {
    if (e.entry.account !== account) continue;
    for (const c of e.entry.changes) {
      const prior = moves.get(c.code);
      moves.set(c.code, { ...c, oldCost: prior?.oldCost ?? c.oldCost });
    }
  }
  for (const [code, m] of moves) if (m.oldCost === m.newCost) moves.delete(code);
  return moves;
}

// ------------------------------------------------------------------------------------------
// The daily digest's settings and marks, one document per chat

/** A chat's price digest: on or off (the state), its time, the day it was last sent, the below-cost prices told. */
export interface DigestState {
  /** Minutes after 00.00 WIB, a quarter hour. */
  at: number;
  /** The WIB day the digest was last sent. */
  day?: string;
  /** Codes whose fixed price was told to be below the cost (told once, until fixed). */
  told?: string[];
}

export const PriceDigestKind: DocKind<DigestState> = {
  name: "price_digest",
  schema: z.object({ at: z.number(), day: z.optional(z.string()), told: z.optional(z.array(z.string())) }),
};

/** 08.00 WIB: before the morning's sales. */
export const DEFAULT_DIGEST_AT = 8 * 60;
/** Digest times are quarter hours: the job looks at every quarter. */
export const DIGEST_STEP_MINUTES = 15;

/** "08.00", "8:30", "7" -> minutes after midnight; undefined for anything else or off the quarter hours. */
export function parseDigestTime(text: string): number | undefined {
  const m = /^(\d{1,2})(?:[.:](\d{2}))?$/.exec(text.trim());
  if (!m) return undefined;
  const h = Number(m[1]);
  const min = Number(m[2] ?? "0");
  if (h > 23 || min > 59 || min % DIGEST_STEP_MINUTES !== 0) return undefined;
  return h * 60 + min;
}

/** "08.00" (Indonesian) or "08:00". */
export function digestTimeText(at: number, lang: string): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(Math.floor(at / 60))}${lang === "id" ? "." : ":"}${two(at % 60)}`;
}

const docId = (chatId: number) => String(chatId);

/** The chat's digest setting: on at 08.00 WIB unless it chose otherwise. */
export async function digestOf(store: Store, chatId: number): Promise<{ on: boolean; at: number }> {
  const doc = await store.getDoc(PriceDigestKind, docId(chatId));
  return { on: doc?.state !== "off", at: doc?.value.at ?? DEFAULT_DIGEST_AT };
}

/**
 * Changes a chat's digest document with `change` (compare-and-set on its version, tried again when
 * another writer came first), creating it when missing. False when `change` declined or kept losing.
 */
export async function changeDigest(
  store: Store,
  chatId: number,
  change: (current: { on: boolean; value: DigestState }) => { on: boolean; value: DigestState } | undefined,
): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const doc = await store.getDoc(PriceDigestKind, docId(chatId));
    const current = { on: doc?.state !== "off", value: doc?.value ?? { at: DEFAULT_DIGEST_AT } };
    const next = change(current);
    if (!next) return false;
    const state = next.on ? "on" : "off";
    if (!doc) {
      try {
        await store.createDoc(PriceDigestKind, { id: docId(chatId), owner: chatId, state, value: next.value });
        return true;
      } catch (err) {
        if (!(err instanceof DuplicateDocError)) throw err;
        continue;
      }
    }
    if (await store.updateDoc(PriceDigestKind, docId(chatId), { version: doc.version }, { state, value: next.value })) return true;
  }
  return false;
}

/** Every prepaid list `lists` fetches from now on is compared and its changes logged; a failure is logged, the list shown all the same. */
export function logPriceChanges(lists: Pick<ListCache, "observePrepaid">, store: Store, logger: Logger): void {
  lists.observePrepaid((account, list) =>
    recordPriceList(store, account, list).catch((err: unknown) => logger.warn({ err }, "could not log the price list's changes")),
  );
}
