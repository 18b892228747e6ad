/** The status watcher's tuning, and why the defaults are what they are. */
import { UPSTREAM_CONNECTIONS } from "../../upstream/client.js";
import type { BackoffOptions } from "./backoff.js";
import { DEFAULT_DEPOSIT_LATE_MS } from "../../domain/refresh.js";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export interface WatcherOptions {
  /** First check after creation, and the wait between checks while young. */
  firstCheckMs: number;
  /** Checks stay `firstCheckMs` apart while a transaction is younger than this; the doubling starts after. */
  youngMs: number;
  backoffFactor: number;
  /** Longest wait between two checks. */
  maxIntervalMs: number;
  /** Watch prepaid, postpaid and transfers (and deposits without a known expiry) this long. */
  maxAgeMs: number;
  /** Keep checking a deposit this long after its expiry (late payments). */
  depositLateMs: number;
  /** Watch a paid deposit waiting for its H+1 settlement this long after creation. */
  depositProcessingMaxAgeMs: number;
  /** A "sending" record older than this lost its create call (the process stopped during it). */
  sendingGraceMs: number;
  /**
   * Only this process creates (the file store: one process per data folder): a record already "sending"
   * when the watcher was made lost its create call with the process before, so it is looked up at once (a
   * create the provider never got still waits out the grace before it is called unknown).
   */
  sendingLostAtStart: boolean;
  /** Status calls in flight, all keys together. */
  concurrency: number;
  /** Status calls in flight for one api key. */
  perKeyConcurrency: number;
  /** Status calls started per api key in any one second. */
  perKeyPerSecond: number;
  /**
   * Status calls in flight for one api key that a signed provider callback asked for: these are not
   * held to `perKeyPerSecond` (the provider sends one per change it made), only to this many at once.
   */
  perKeySignalledConcurrency: number;
  /** Pause of a key whose calls fail: first, growth, cap (also how soon an id whose check failed is tried again). */
  keyBackoff: BackoffOptions;
  /**
   * Retry of a notice whose delivery met a Telegram failure (network, 5xx, 429) while another notice
   * probes (`telegramProbe`); all of them go at once when a notice gets through.
   */
  notifyRetryMs: number;
  /** The pauses of the one notice that probes whether Telegram answers again (telegramGate.ts). */
  telegramProbe: BackoffOptions;
  /**
   * A check that failed while the store could not save (disk full, database down) runs again this
   * soon: its news is told within about this long after the store recovers.
   */
  storeRetryMs: number;
  /** Prefix money messages with the sandbox banner. */
  sandbox: boolean;
  /** A chat's callbacks "work" while its last valid one (`callbacksLastAt`) is younger than this. */
  callbacksFreshMs: number;
  /** Pending ids of such a chat: checked every max(this, the id's age) ... */
  callbackFirstMs: number;
  /** ... but never less often than this (a lost callback is caught within it). */
  callbackMaxIntervalMs: number;
  /**
   * While leading, open transactions not yet scheduled are picked up from the store this often: a
   * purchase made on another process whose hint was lost (hand-over) waits at most this. 0 = never.
   */
  rescanMs: number;
}

/**
 * Why these numbers. A change is seen at the next check, so a notice comes up to one interval
 * late. Right after a purchase the user is waiting for it and most sales settle within a minute or
 * two, while a plain doubling from 5 s already waits 40 s between checks at one minute of age. So
 * checks stay 5 s apart for the first 2 minutes (24 checks), then double as before up to 5 min.
 * The per-key cap bounds what that costs: a key's due ids are served round robin at 5 calls/s,
 * so up to 25 young ids per key are each checked every 5 s (notice within ~5 s + a round trip);
 * beyond that each is checked every (young ids / 5) s, e.g. 100 pending on one key -> every 20 s
 * (bench/watcher.ts measures both). The cap stays at 5/s: the provider documents no limit, and
 * 300 calls a minute per key is already far above one reseller's normal load.
 *
 * A chat whose provider callbacks work (one arrived within `callbacksFreshMs`, 30 min) is told of a
 * change at once, so polling there only catches lost callbacks: a pending/processing id is checked
 * when its age doubles (every max(1 min, age), at most 10 min apart) instead of every 5 s while
 * young. A lost callback is then seen within about the id's age (1 min for a fresh sale, 10 min at
 * most), never later; a stuck id costs 6 checks an hour instead of 12, a sale settling in 2 min 1-2
 * checks instead of 24. Unknown and sending ids keep the normal schedule (no callback can come for a
 * create the provider may not have). Once callbacks go quiet the ids are checked at once and the
 * normal schedule returns.
 */
export const DEFAULT_WATCHER_OPTIONS: WatcherOptions = {
  firstCheckMs: 5_000,
  youngMs: 2 * MINUTE,
  backoffFactor: 2,
  maxIntervalMs: 5 * MINUTE,
  maxAgeMs: 24 * HOUR,
  depositLateMs: DEFAULT_DEPOSIT_LATE_MS,
  depositProcessingMaxAgeMs: 5 * 24 * HOUR,
  sendingGraceMs: 2 * MINUTE,
  sendingLostAtStart: false,
  // A check holds its slot through its notice (an edit and a message): with callbacks, 100 changes/s
  // (bench/watcher.ts --callbacks --full) needed more than 8 (p95 5.2 s at 8, 0.8 s at 16). As many as
  // the upstream client's connections, so status calls never queue for one.
  concurrency: UPSTREAM_CONNECTIONS,
  perKeyConcurrency: 2,
  perKeyPerSecond: 5,
  // A signed callback's check: as fast as the provider's own changes come, up to the client's
  // connections for one key. A check holds its slot only for the status call, so a burst drains at
  // connections / round trip (a shop's 1,000 paid orders make 2,000); at 4, the checks were the orders' pace.
  // Lanes still take turns call by call, so another key's due poll waits for one call, not the burst.
  perKeySignalledConcurrency: UPSTREAM_CONNECTIONS,
  // A failing key probes with one call after each pause (1, 2, 4, then every 5 s): a provider that is
  // down gets 12 calls a minute per key, and news comes within ~5 s of its recovery (decide.ts).
  keyBackoff: { firstMs: 1_000, factor: 2, capMs: 5_000 },
  // A notice that met Telegram's 5xx, a timeout or a 429 is tried again (a status check, then the edit
  // first) by one probe after 1, 2, 4, then every 5 s, the others every 10 s and all of them as soon as
  // one gets through: news within ~5 s (+ the probe's and its own sends) of Telegram answering again,
  // where a 10 s retry alone gave up to 10 s + sends (11.2 s in the chaos run). While Telegram stays
  // down: 12 probes a minute, 6 tries a minute per waiting notice (as before), each paced (a 429's
  // retry_after holds every send).
  notifyRetryMs: 10_000,
  telegramProbe: { firstMs: 1_000, factor: 2, capMs: 5_000 },
  storeRetryMs: 5_000,
  sandbox: false,
  callbacksFreshMs: 30 * MINUTE,
  callbackFirstMs: MINUTE,
  callbackMaxIntervalMs: 10 * MINUTE,
  rescanMs: 10_000,
};

