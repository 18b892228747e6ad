/**
 * Low-balance alerts. A chat with a threshold (set with /alerts) is told ONCE when its balance falls
 * below it (`alertFired` in the store), and re-armed when the balance is back at or above it.
 *
 * When the balance is checked:
 * - after a purchase (`afterCreate`): the first purchase schedules a check `debounceMs` later and
 *   purchases in between join it, so a burst costs one get_profile and the check comes in time;
 * - every `intervalMs` (30 min) for every linked, active chat with a threshold, a few at a time;
 * - right after the user sets a threshold (`checkSoon`).
 * Checks of one chat run one after another in its lane (`inChatLane`), so two checks never both
 * announce the same dip; the admin balance round (balanceRound.ts) uses the same lanes, balance
 * reads and sends. Upstream failures are logged and the chat is checked again next round; nothing
 * here throws. Messages go through the shared `SendPacer` (see pacer.ts). Once started (the leader's
 * job), what a check writes and sends runs under the lead's term; a refusal stops the alerts here.
 */
import type { Api, InlineKeyboard } from "grammy";
import type { Clock, TimerHandle } from "../tools/clock.js";
import type { Logger } from "../logging/logger.js";
import { rupiah } from "../render/format.js";
import { withSandboxBanner } from "../render/sandboxBanner.js";
import type { Translate } from "../render/i18n.js";
import type { Store } from "../store/index.js";
import type { ChatRecord, Lang, TxRecord } from "../store/index.js";
import type { UpstreamClient } from "../upstream/client.js";
import { UpstreamError } from "../upstream/errors.js";
import { counted, deliver, type Delivery } from "../telegram/delivery.js";
import { SendPacer } from "../telegram/pacer.js";
import type { LeadFence } from "../cluster/index.js";
import { LeaderTerm } from "./leaderTerm.js";
import { lowBalanceAlertKeyboard } from "./alertKeyboards.js";

export interface BalanceAlertsOptions {
  store: Store;
  upstream: UpstreamClient;
  /** An Api WITHOUT auto-retry: 429s are waited out on the injected clock by the pacer. */
  api: Api;
  clock: Clock;
  logger: Logger;
  translate: Translate;
  pacer?: SendPacer;
  /** Prefix money messages with the sandbox banner. */
  sandbox?: boolean;
  /** Periodic round (default 30 min). */
  intervalMs?: number;
  /** Delay of the check after a purchase (default 10 s). */
  debounceMs?: number;
  /** get_profile calls in flight during a round (default 3). */
  concurrency?: number;
  /** The lead's term: after start(), a check writes and sends only while that start's term is current. */
  fence?: LeadFence;
}

export type CheckResult = "skipped" | "ok" | "rearmed" | "alerted" | "quiet" | "error";

export class BalanceAlerts {
  private readonly pacer: SendPacer;
  private readonly intervalMs: number;
  private readonly debounceMs: number;
  /** get_profile calls in flight during a round (also the admin round's). */
  readonly concurrency: number;
  private readonly debounced = new Map<number, TimerHandle>();
  /** Per chat: the tail of its check chain. */
  private readonly chains = new Map<number, Promise<unknown>>();
  private readonly work = new Set<Promise<unknown>>();
  private roundTimer: TimerHandle | undefined;
  private abort = new AbortController();
  private started = false;
  private readonly lead: LeaderTerm;

  /** Read by the admin round, which uses the same store, api and translations. */
  constructor(readonly opts: BalanceAlertsOptions) {
    this.lead = new LeaderTerm(opts.fence, opts.logger, "balance alerts");
    this.pacer = opts.pacer ?? new SendPacer(opts.clock);
    this.intervalMs = opts.intervalMs ?? 30 * 60_000;
    this.debounceMs = opts.debounceMs ?? 10_000;
    this.concurrency = Math.max(1, opts.concurrency ?? 3);
  }

  /** Starts the periodic rounds (the first one `intervalMs` from now). */
  start(): void {
    if (this.started && !this.abort.signal.aborted) return;
    // Started again after stop(): this process leads again (another one led meanwhile).
    if (this.abort.signal.aborted) this.abort = new AbortController();
    this.started = true;
    this.lead.begin();
    this.scheduleRound();
  }

  /** Cancels timers and waits for checks (and an admin round) in flight. */
  async stop(): Promise<void> {
    this.halt();
    await this.idle();
  }

  /** No more rounds or scheduled checks; what runs sees the abort. */
  private halt(): void {
    this.abort.abort();
    this.roundTimer?.cancel();
    for (const t of this.debounced.values()) t.cancel();
    this.debounced.clear();
  }

  /** Resolves once no check or round is running (tests). */
  async idle(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work]);
  }

  /** Hook for the money engine: a create answered, the balance probably moved. */
  async afterCreate(tx: TxRecord): Promise<void> {
    await this.checkSoon(tx.chatId);
  }

  /**
   * Checks the chat `debounceMs` from now, unless a check is already scheduled. Tracked: the chat is
   * read first, and idle() must not resolve before the timer is set (an event emitter does not wait).
   */
  checkSoon(chatId: number): Promise<void> {
    return this.track(this.schedule(chatId));
  }

  private async schedule(chatId: number): Promise<void> {
    if (this.abort.signal.aborted || this.debounced.has(chatId)) return;
    // Callers do not wait for this (a purchase's event): a store that cannot be read skips the check.
    const chat = await this.opts.store.getChat(chatId).catch((err: unknown) => {
      this.opts.logger.warn({ chatId, err }, "balance check not scheduled: the store could not be read");
      return undefined;
    });
    // Asked again while the chat was read: one scheduled check is enough.
    if (this.abort.signal.aborted || this.debounced.has(chatId) || !this.watched(chat)) return;
    this.debounced.set(
      chatId,
      this.opts.clock.setTimeout(() => {
        this.debounced.delete(chatId);
        void this.checkChat(chatId);
      }, this.debounceMs),
    );
  }

  /** Checks one chat now (after any check of it already running). Never rejects. */
  checkChat(chatId: number): Promise<CheckResult> {
    return this.inChatLane(chatId, () => this.check(chatId));
  }

  /** One periodic round over every watched chat. Never rejects. */
  runRound(): Promise<CheckResult[]> {
    const round = async () => {
      const chats = (await this.opts.store.linkedChats()).filter((c) => this.watched(c));
      return eachLimit(chats, this.concurrency, (c) => this.checkChat(c.chatId));
    };
    return this.track(
      round().catch((err: unknown) => {
        this.opts.logger.warn({ err }, "balance round could not read the linked chats");
        return [];
      }),
    );
  }

  // ---- shared with the admin balance round (balanceRound.ts) ---------------------------------------

  /** Aborted by stop(): the admin round stops with the alerts. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Keeps `p` in what idle() and stop() wait for. */
  track<T>(p: Promise<T>): Promise<T> {
    this.work.add(p);
    void p.finally(() => this.work.delete(p)).catch(() => undefined);
    return p;
  }

  /** Runs `fn` after everything already queued for this chat (checks, the admin round). */
  inChatLane<T>(chatId: number, fn: () => Promise<T>): Promise<T> {
    const prev = this.chains.get(chatId) ?? Promise.resolve();
    const next = prev.then(fn);
    const tail = next.catch(() => undefined);
    this.chains.set(chatId, tail);
    void tail.then(() => {
      if (this.chains.get(chatId) === tail) this.chains.delete(chatId);
    });
    return this.track(next);
  }

  /** The balance, or undefined after logging why there is none. */
  async balanceOf(chatId: number): Promise<number | undefined> {
    const { store, upstream, logger } = this.opts;
    try {
      const key = await store.getApiKey(chatId);
      if (key === undefined) return undefined;
      const profile = await upstream.getProfile(key);
      if (profile.balance === null) logger.warn({ chatId }, "balance check: the provider sent no numeric balance");
      return profile.balance ?? undefined;
    } catch (err) {
      // UpstreamError carries no api key; anything else (a wrong store secret) is logged by name only.
      if (err instanceof UpstreamError) logger.warn({ chatId, err: err.message }, "balance check failed; retried next round");
      else logger.error({ chatId, err: err instanceof Error ? err.name : String(err) }, "balance check failed");
      return undefined;
    }
  }

  /** The chat was just told its balance: under the threshold counts as this dip's alert, above re-arms. */
  async toldBalance(chat: Readonly<ChatRecord>, under: boolean): Promise<void> {
    if (under) await this.opts.store.updateChat(chat.chatId, { alertFired: true });
    else await this.rearm(chat);
  }

  /** Sends one HTML message through the pacer; stop() aborts a wait for a slot. */
  deliverTo(chatId: number, text: string, keyboard?: InlineKeyboard): Promise<Delivery<unknown>> {
    return deliver(
      () => this.opts.api.sendMessage(chatId, text, { ...(keyboard ? { reply_markup: keyboard } : {}) }),
      { pacer: this.pacer, signal: this.abort.signal },
    );
  }

  /** True when delivered; 403 marks the chat inactive; other failures are logged. */
  async send(chatId: number, text: string, keyboard?: InlineKeyboard): Promise<boolean> {
    const r = await this.deliverTo(chatId, text, keyboard);
    const outcome = counted(r);
    if (outcome === "blocked") await this.opts.store.updateChat(chatId, { inactive: true });
    if (outcome === "failed" && "error" in r) this.opts.logger.warn({ chatId, err: r.error }, "balance message failed");
    return outcome === "sent";
  }

  money(lang: Lang, text: string): string {
    return withSandboxBanner(this.opts.translate, lang, this.opts.sandbox ?? false, text);
  }

  // ---- internals ------------------------------------------------------------------------------------

  private watched(chat: Readonly<ChatRecord> | undefined): boolean {
    return chat !== undefined && chat.alertThreshold !== undefined && !chat.inactive && chat.apiKeyEnc !== undefined;
  }

  private scheduleRound(): void {
    if (this.abort.signal.aborted) return;
    this.roundTimer = this.opts.clock.setTimeout(() => {
      void this.runRound().finally(() => this.scheduleRound());
    }, this.intervalMs);
  }

  private async check(chatId: number): Promise<CheckResult> {
    try {
      if (this.abort.signal.aborted || !this.watched(await this.opts.store.getChat(chatId))) return "skipped";
      const balance = await this.balanceOf(chatId);
      if (balance === undefined) return "error";
      let result: CheckResult = "skipped";
      const led = await this.lead.run(async () => {
        result = await this.tell(chatId, balance);
      });
      if (!led) this.halt(); // another process leads: its alerts run, these stop
      return result;
    } catch (err) {
      this.opts.logger.error({ chatId, err }, "balance check crashed");
      return "error";
    }
  }

  /** What the balance means for the chat: an alert once per dip, re-armed above the threshold. */
  private async tell(chatId: number, balance: number): Promise<CheckResult> {
    // Read again: the threshold may have changed while the provider answered.
    const chat = await this.opts.store.getChat(chatId);
    if (!this.watched(chat)) return "skipped";
    const threshold = chat!.alertThreshold!;
    if (balance >= threshold) return this.rearm(chat!);
    if (chat!.alertFired) return "quiet";
    const lang = chat!.lang ?? "id";
    const t = this.opts.translate;
    const text = this.money(lang, t(lang, "alert-low", { balance: rupiah(balance, lang), threshold: rupiah(threshold, lang) }));
    const sent = await this.send(chatId, text, lowBalanceAlertKeyboard(t, lang));
    if (sent) await this.opts.store.updateChat(chatId, { alertFired: true });
    return sent ? "alerted" : "error";
  }

  private async rearm(chat: Readonly<ChatRecord>): Promise<CheckResult> {
    if (!chat.alertFired) return "ok";
    await this.opts.store.updateChat(chat.chatId, { alertFired: false });
    return "rearmed";
  }
}

/** Runs `fn` over `items` with at most `limit` in flight; results in input order. */
export async function eachLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
