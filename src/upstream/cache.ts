/**
 * Lists that change slowly (price lists, banks, deposit methods) cached per api key for a few
 * minutes: browsing a catalogue must not cost a provider call per button press. Keys are hashed,
 * so the raw api key is not even a map key. Concurrent misses share one request. Each freshly
 * fetched prepaid list is shown to its observers first (the price-change log compares it).
 */
import { createHash } from "node:crypto";
import type { Clock } from "../tools/clock.js";
import type { UpstreamClient } from "./client.js";
import { UpstreamUnavailable } from "./errors.js";
import type { Bank, DepositMethod, PostpaidProduct, PrepaidProduct, Profile } from "./types.js";

export const DEFAULT_LIST_TTL_MS = 5 * 60_000;
/** The balance on a confirm screen may be this old; a create, or an outcome the watcher saves (domain/freshBalance.ts), forgets it at once. */
export const PROFILE_TTL_MS = 60_000;

/** How long a purchase waits for a fresh prepaid list before it takes the last one known (the provider is slow). */
export const SLOW_LIST_MS = 3000;
/** The last prepaid list known is offered for a purchase up to this age; older, the purchase waits for the provider. */
export const LAST_LIST_MAX_AGE_MS = 60 * 60_000;

/** A prepaid list for a purchase: `listAt` is set when it is the last one known, fetched then, not a fresh one. */
export interface PrepaidRead {
  list: PrepaidProduct[];
  listAt?: number;
}

interface Entry<T> {
  at: number;
  value: Promise<T>;
}

type ListName = "prepaid" | "postpaid" | "banks" | "depositMethods" | "profile";

/** Sees each prepaid list fetched from the provider (not a cached one); `account` names the api key by a hash. */
export type PrepaidListObserver = (account: string, list: PrepaidProduct[]) => Promise<unknown>;

export class ListCache {
  private entries = new Map<string, Entry<unknown>>();
  private readonly prepaidObservers: PrepaidListObserver[] = [];
  /** Each account's last prepaid list fetched, kept past the TTL for a slow provider (prepaidOrLast). */
  private readonly lastPrepaid = new Map<string, { at: number; list: PrepaidProduct[] }>();

  constructor(
    private readonly upstream: UpstreamClient,
    private readonly clock: Clock,
    private readonly ttlMs = DEFAULT_LIST_TTL_MS,
  ) {}

  prepaid(apiKey: string): Promise<PrepaidProduct[]> {
    const at = this.clock.now();
    return this.get(apiKey, "prepaid", async () => {
      const list = await this.upstream.prepaidPriceList(apiKey);
      this.keepLast(accountOf(apiKey), at, list);
      // Before the list is handed out, so what it shows and what was logged agree; an observer's
      // failure is its own (it logs it): the list is shown all the same.
      await Promise.all(this.prepaidObservers.map((see) => see(accountOf(apiKey), list).catch(() => undefined)));
      return list;
    });
  }

  /**
   * The prepaid list for a purchase: as `prepaid`, but when the provider gives no answer within
   * `waitMs` of the fetch's start, or cannot be reached, the last list fetched in the past hour, with
   * its time (the confirm screen says how old it is). Safe for money: the confirmed price goes out as
   * the limit price, so a price that rose since is refused at no cost.
   */
  async prepaidOrLast(apiKey: string, waitMs = SLOW_LIST_MS): Promise<PrepaidRead> {
    const account = accountOf(apiKey);
    const fresh = this.prepaid(apiKey);
    const last = this.lastPrepaid.get(account);
    const entry = this.entries.get(`${account}:prepaid`);
    const now = this.clock.now();
    // No last list to fall back on, or the cached one is that list: wait for it as `prepaid` does.
    if (!last || now - last.at > LAST_LIST_MAX_AGE_MS || !entry || entry.at === last.at) return { list: await fresh };
    const stale: PrepaidRead = { list: last.list, listAt: last.at };
    // Already waited on longer than `waitMs` (by an earlier screen): the last list at once.
    const left = entry.at + waitMs - now;
    if (left <= 0) {
      fresh.catch(() => undefined);
      return stale;
    }
    return await new Promise<PrepaidRead>((resolve, reject) => {
      const timer = this.clock.setTimeout(() => resolve(stale), left);
      fresh.then(
        (list) => {
          timer.cancel();
          resolve({ list });
        },
        (err: unknown) => {
          timer.cancel();
          if (err instanceof UpstreamUnavailable) resolve(stale);
          else reject(err as Error);
        },
      );
    });
  }

  private keepLast(account: string, at: number, list: PrepaidProduct[]): void {
    // Lists past their usable age leave, so the map holds only accounts in use.
    for (const [k, v] of this.lastPrepaid) if (at - v.at > LAST_LIST_MAX_AGE_MS) this.lastPrepaid.delete(k);
    this.lastPrepaid.set(account, { at, list });
  }

  /** `see` is called with every prepaid list fetched from now on. */
  observePrepaid(see: PrepaidListObserver): void {
    this.prepaidObservers.push(see);
  }
  postpaid(apiKey: string): Promise<PostpaidProduct[]> {
    return this.get(apiKey, "postpaid", () => this.upstream.postpaidPriceList(apiKey));
  }
  banks(apiKey: string): Promise<Bank[]> {
    return this.get(apiKey, "banks", () => this.upstream.bankList(apiKey));
  }
  depositMethods(apiKey: string): Promise<DepositMethod[]> {
    return this.get(apiKey, "depositMethods", () => this.upstream.depositMethods(apiKey));
  }

  /** The account's profile (balance), cached briefly so every confirm screen can show it. */
  profile(apiKey: string): Promise<Profile> {
    return this.get(apiKey, "profile", () => this.upstream.getProfile(apiKey), PROFILE_TTL_MS);
  }
  /** After money moved (a create, a release): the next confirm screen asks again. */
  forgetProfile(apiKey: string): void {
    this.entries.delete(`${accountOf(apiKey)}:profile`);
  }

  /** Forgets one api key's lists (the user's refresh button) or everything (an admin's). */
  invalidate(apiKey?: string): void {
    if (apiKey === undefined) {
      this.entries.clear();
      return;
    }
    const prefix = `${accountOf(apiKey)}:`;
    for (const k of this.entries.keys()) if (k.startsWith(prefix)) this.entries.delete(k);
  }

  private get<T>(apiKey: string, name: ListName, load: () => Promise<T>, ttlMs = this.ttlMs): Promise<T> {
    const id = `${accountOf(apiKey)}:${name}`;
    const now = this.clock.now();
    const hit = this.entries.get(id) as Entry<T> | undefined;
    if (hit && now - hit.at < ttlMs) return hit.value;
    const value = load();
    this.entries.set(id, { at: now, value });
    // A failed load is not cached: the next press tries again.
    value.catch(() => {
      if (this.entries.get(id)?.value === value) this.entries.delete(id);
    });
    return value;
  }
}

const accountNames = new Map<string, string>();
/** Enough for every reseller's key; past it the memo starts over rather than grow. */
const ACCOUNT_NAMES_KEPT = 50_000;

/** A provider account's stable name: a short hash of its api key (never the key itself), hashed once per key. */
export function accountOf(apiKey: string): string {
  let name = accountNames.get(apiKey);
  if (name === undefined) {
    name = createHash("sha256").update(apiKey).digest("base64url").slice(0, 22);
    if (accountNames.size >= ACCOUNT_NAMES_KEPT) accountNames.clear();
    accountNames.set(apiKey, name);
  }
  return name;
}
