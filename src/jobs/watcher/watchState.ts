/**
 * What the parts of the status watcher share: its dependencies and options, the due times, the lanes,
 * the state of each watched id, the work whenIdle() waits for, and the small steps every part takes.
 * One state for all parts because its invariant spans them: an id is scheduled, queued or in flight,
 * never two at once.
 */
import type { InlineKeyboardMarkup } from "grammy/types";
import type { Translate } from "../../render/i18n.js";
import type { Clock } from "../../tools/clock.js";
import type { Logger } from "../../logging/logger.js";
import type { Store } from "../../store/index.js";
import type { LeadFence } from "../../cluster/index.js";
import type { ChatRecord, Lang, TxRecord } from "../../store/index.js";
import type { Pacer } from "../../telegram/pacer.js";
import type { Lookup, StatusApi } from "../../domain/refresh.js";
import { parkDecision, usesCallbacks } from "./decide.js";
import type { MessageApi, NoticeKind } from "./notify.js";
import { watchOf, type AnnounceMode } from "./announce.js";
import { DueTimes } from "./dueTimes.js";
import { Lanes, type Lane } from "./lanes.js";
import { DEFAULT_WATCHER_OPTIONS, type WatcherOptions } from "./watcherOptions.js";

/** What a check on demand learned: the record as it is now, and the provider's answer. */
export interface CheckOutcome {
  tx: Readonly<TxRecord>;
  lookup?: Lookup;
}

export interface WatcherDeps {
  store: Store;
  upstream: StatusApi;
  api: MessageApi;
  clock: Clock;
  logger: Logger;
  translate: Translate;
  options?: Partial<WatcherOptions>;
  /** Buttons under a paid deposit waiting for settlement (default: a "check status" button). */
  processingMarkup?: (lang: Lang, tx: TxRecord) => InlineKeyboardMarkup | undefined;
  /** Shared pacing of background messages (429s pause every sender). */
  pacer?: Pacer;
  /** A notice went out: its kind and the seconds from the check that saw the change (metrics). */
  onNotice?: (kind: NoticeKind, seconds: number) => void;
  /** The lead's term: background checks and owed notices write only while the term they started in is current. */
  fence?: LeadFence;
  /** Transactions another job tells its chats about (shop orders): their changes are saved, not announced. */
  toldElsewhere?: (tx: TxRecord) => boolean;
  /** A check saved a change (the shop orders' listener: the order takes its next step). */
  onChanged?: (tx: Readonly<TxRecord>) => void;
}

/** The parts the due times and the lanes call back into (made after the core). */
export interface CoreCallbacks {
  /** Due ids are taken from the schedule and queued (dueQueue.ts). */
  tick: (now: number) => Promise<void>;
  /** A lane's turn starts the call of `refId` (lookups.ts). */
  launch: (lane: Lane, refId: string, signalled: boolean) => void;
}

export class WatcherCore {
  readonly options: WatcherOptions;
  readonly due: DueTimes;
  readonly lanes: Lanes;
  /** Waiting in a lane or being checked. */
  readonly queued = new Set<string>();
  /** Being checked right now. */
  readonly checking = new Set<string>();
  /** checkNow: check even if given up, shown how its caller asked. */
  readonly forced = new Map<string, AnnounceMode>();
  /** hurry(): checked even if given up. */
  readonly hurried = new Set<string>();
  /** hurry() while its check ran (it may have asked before the change): check once more after it (true: a signed callback's). */
  readonly again = new Map<string, boolean>();
  /** What the last check of an id with waiters learned (handed to them). */
  readonly outcomes = new Map<string, Lookup>();
  readonly waiters = new Map<string, ((outcome: CheckOutcome | undefined) => void)[]>();
  readonly running = new Set<Promise<void>>();
  /**
   * The key each watched id was last queued with: its next due time queues it in that lane without
   * reading the store (the check reads the record and the chat anyway, and sends an id whose key
   * changed back to be queued afresh).
   */
  readonly laneKeys = new Map<string, string>();
  /**
   * The record as the last check of each watched id read it (with the watch state it saved): the next
   * background check starts its status call from it. Only the leader writes watch state, and apply
   * reads the record again before it writes anything, so a change made elsewhere meanwhile costs at
   * most one status call; a user's or a callback's check reads the store afresh.
   */
  readonly lastRead = new Map<string, TxRecord>();
  /** Due ids taken from the schedule whose record is being read before they are queued (tick). */
  readonly placing = new Set<string>();
  /** Open ids parked past their deadline: not polled again (the rescan must not revive them). */
  readonly dropped = new Set<string>();
  started = false;
  stopped = false;
  /** Another process leads: no background checks here (pause()). */
  paused = false;
  /** The lead's term at start(): background writes are fenced with it. */
  term: number | undefined;
  /**
   * When this watcher was made, before any update could be handled (clock time): a "sending" record older
   * than that lost its create call with the process before (sendingLostAtStart). Not start(): in webhook
   * mode updates are handled before the watcher starts.
   */
  readonly madeAt: number;

  constructor(
    readonly deps: WatcherDeps,
    parts: CoreCallbacks,
  ) {
    this.options = { ...DEFAULT_WATCHER_OPTIONS, ...deps.options };
    this.lanes = new Lanes(deps.clock, this.options, (lane, refId, signalled) => parts.launch(lane, refId, signalled), () => this.stopped);
    // The store is read before a due id is queued: whenIdle() waits for that too.
    this.due = new DueTimes(deps.clock, (now) => this.inBackground(parts.tick(now)));
    this.madeAt = deps.clock.now();
  }

  schedule(refId: string, at: number): void {
    if (this.stopped) return;
    this.due.set(refId, at);
  }

  /** The chat's api key if it may be polled: linked, key readable (a blocked chat is polled too). */
  async pollableKey(chatId: number): Promise<string | undefined> {
    return this.keyOf(await this.deps.store.getChat(chatId));
  }

  /** The key of a chat record in hand (decrypted keys are kept in memory: no second read of the chat). */
  keyOf(chat: Readonly<ChatRecord> | undefined): string | undefined {
    if (!chat) return undefined;
    try {
      return this.deps.store.apiKeyOf(chat);
    } catch {
      return undefined; // a wrong STORE_SECRET: nothing can be polled for this chat
    }
  }

  /** No call for now; look again later in case the key comes back. Dropped past its deadline. */
  park(tx: TxRecord): void {
    const parked = parkDecision(tx, this.deps.clock.now(), this.options);
    if (parked.act === "drop") this.dropped.add(tx.refId);
    else this.schedule(tx.refId, parked.at);
  }

  /**
   * After a failed check: soon when the store failed (its news is owed), else a while. The error says
   * so too (a system error: a full or read-only disk, a refused connection): the store may save again
   * by the time this runs, and its news must not wait minutes for that.
   */
  retryWait(err: unknown): number {
    const code = (err as { code?: unknown } | undefined)?.code;
    const systemError = typeof code === "string" && /^E[A-Z]+$/.test(code);
    return this.deps.store.canPersist() && !systemError ? this.options.maxIntervalMs : this.options.storeRetryMs;
  }

  /** Answers the checkNow callers of `refId` with the record as stored. Never rejects. */
  async settleWaiters(refId: string): Promise<void> {
    const list = this.waiters.get(refId);
    if (!list || this.queued.has(refId)) return;
    this.waiters.delete(refId);
    const lookup = this.outcomes.get(refId);
    this.outcomes.delete(refId);
    const tx = await this.deps.store.getTx(refId).catch((err: unknown) => {
      this.deps.logger.error({ err, refId }, "could not read a checked transaction");
      return undefined;
    });
    for (const resolve of list) resolve(tx && { tx, ...(lookup ? { lookup } : {}) });
  }

  /** Work whenIdle() waits for (store reads before a check is queued, owed notices). Never rejects. */
  inBackground(work: Promise<void>): void {
    const run = work.catch((err: unknown) => this.deps.logger.error({ err }, "status watcher background work failed"));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /** Resolves once no check is running (tests step the clock with this). */
  async whenIdle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Runs `work` under the term this watcher started in; refused when a newer term leads (its watcher has the records). */
  async leaderOnly(work: () => Promise<void>): Promise<void> {
    const { fence } = this.deps;
    if (!fence || this.term === undefined) return work();
    if (!(await fence.fenced(this.term, work))) this.deps.logger.warn("not leading any more: background writes are left to the new leader");
  }

  /** When the chat's last provider callback came, when it can pace `tx`. */
  callbacksLastAt(tx: TxRecord, chat: Readonly<ChatRecord> | undefined): number | undefined {
    if (!usesCallbacks(tx) || watchOf(tx).gaveUp) return undefined;
    return chat?.callbacksLastAt;
  }
}
