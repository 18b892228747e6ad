/**
 * Lists that change slowly (price lists, banks, deposit methods) cached per api key for a few
 * minutes: browsing a catalogue must not cost a provider call per button press. Keys are hashed,
 * so the raw api key is not even a map key. Concurrent misses share one request. Each freshly
 * fetched prepaid list is shown to its observers first (the price-change log compares it).
 */
import { createHash } from "node:crypto";
import type { Clock } from "../tools/clock.js";
import type { UpstreamClient } from "./client.js";
import type { Bank, DepositMethod, PostpaidProduct, PrepaidProduct, Profile } from "./types.js";

export const DEFAULT_LIST_TTL_MS = 5 * 60_000;
/** The balance on a confirm screen may be this old; a create, or an outcome the watcher saves (domain/freshBalance.ts), forgets it at once. */
export const PROFILE_TTL_MS = 60_000;

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

  constructor(
    private readonly upstream: UpstreamClient,
    private readonly clock: Clock,
    private readonly ttlMs = DEFAULT_LIST_TTL_MS,
  ) {}

  prepaid(apiKey: string): Promise<PrepaidProduct[]> {
    return this.get(apiKey, "prepaid", async () => {
      const list = await this.upstream.prepaidPriceList(apiKey);
      // Before the list is handed out, so what it shows and what was logged agree; an observer's
      // failure is its own (it logs it): the list is shown all the same.
      await Promise.all(this.prepaidObservers.map((see) => see(accountOf(apiKey), list).catch(() => undefined)));
      return list;
    });
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
