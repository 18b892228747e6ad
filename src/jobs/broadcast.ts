/**
 * Over 350 lines because starting, delivering, resuming and stopping share one saved cursor whose
 * exactly-once rule (no chat sent twice across restarts and hand-overs) must hold across all of them.
 *
 * Admin broadcast: one message (text, or a photo with caption) to every linked chat, delivered in
 * the background at a pace Telegram accepts, surviving restarts.
 *
 * Content and stored state: broadcastState.ts.
 *
 * Pace: `SendPacer` (pacer.ts) keeps sends under `perSecond` in any second of clock time (BULK_PACE),
 * and a 429 pauses every sender for `retry_after` on the injected clock, then the same chat is tried
 * again (a 429 means nothing was delivered). The Api given here must not have auto-retry installed:
 * it would sleep real time, and its retries would bypass the pacer.
 *
 * In flight: up to `concurrency` sends at once (default 1; app.ts: BROADCAST_CONCURRENCY). The pacer
 * alone sets the rate; concurrency only hides the round trip, which a single sender cannot: at
 * 150 ms per sendMessage one at a time is at most ~6.7 messages a second.
 *
 * Restart safety (meta key `broadcast`): recipients are walked in ascending chat id order, so the
 * cursor `doneThrough` (highest chat id with every outcome up to it recorded) is the "done" mark for
 * every chat before it; answers that come back out of order are kept in `doneAhead` until the
 * cursor passes them (bounded: no send starts more than AHEAD_LIMIT places past the cursor). Just
 * before each send the chat is added to `inFlight` and the store is flushed; its answer moves it to
 * done. A crash between the flush and the answer leaves the chats in `inFlight` with unknown
 * outcomes: on resume they are counted as `uncertain` and NOT sent again (at most `concurrency`
 * such chats per crash; we prefer a missed copy to a double one). A graceful `stop()` waits for the
 * sends in flight, so a clean restart loses nobody.
 *
 * A chat answering 403 (blocked, deactivated) is marked `inactive` in the store and is no longer a
 * recipient of anything. Other errors (400, 5xx, network) count as failed and are not retried: a
 * network error may hide a delivered message.
 *
 * Two processes: each send (with its marks) and each state change runs under the lead's term read when
 * delivery began; refused, delivery stops here and the new leader resumes from the stored state.
 */
import type { Api } from "grammy";
import type { Clock } from "../tools/clock.js";
import type { Logger } from "../logging/logger.js";
import type { Translate } from "../render/i18n.js";
import type { Store } from "../store/index.js";
import type { Lang } from "../store/index.js";
import { counted, deliver } from "../telegram/delivery.js";
import { BROADCAST_META_KEY, sendContent, type BroadcastContent, type BroadcastProgress, type BroadcastState } from "./broadcastState.js";
import { DoneMarks } from "./doneMarks.js";
import { SendPacer } from "../telegram/pacer.js";
import type { LeadFence } from "../cluster/index.js";
import { LeaderTerm } from "./leaderTerm.js";

/**
 * Broadcast sends in flight in production (app.ts). Telegram's round trip from Indonesia is about
 * 150-250 ms, so 8 in flight sustain 29/s up to ~275 ms. The price: a crash can leave up to 8
 * chats `uncertain` (not sent again) instead of 1.
 */
export const BROADCAST_CONCURRENCY = 8;

/** No send starts further than this many recipients past the first one without an outcome. */
const AHEAD_LIMIT = 64;

export interface BroadcasterOptions {
  store: Store;
  /** An Api WITHOUT auto-retry (see the file comment). */
  api: Api;
  clock: Clock;
  logger: Logger;
  translate: Translate;
  pacer?: SendPacer;
  /** Clock time between edits of the admin's progress message (default 3 s). */
  progressEveryMs?: number;
  /** Sends in flight at once (default 1; see BROADCAST_CONCURRENCY). */
  concurrency?: number;
  /**
   * Two bot processes: true when another process leads and so delivers broadcasts; it is told (a
   * hint) and resumes the saved broadcast. Here start() then only saves it. Default: never.
   */
  elsewhere?: () => boolean;
  /** The lead's term: delivery writes and sends only while the term it began in is current. */
  fence?: LeadFence;
}

export type StartResult = { ok: true; total: number } | { ok: false; reason: "running" | "no-recipients" };

export class Broadcaster {
  private readonly pacer: SendPacer;
  private readonly progressEveryMs: number;
  private readonly concurrency: number;
  /** Chats of this run whose request may have gone out (mirrors the stored `inFlight`). */
  private readonly inFlight = new Set<number>();
  private loop: Promise<void> | undefined;
  private abort: AbortController | undefined;
  private lastProgressAt = 0;
  private lastProgressText = "";
  /** The stored state's changes, one after another (see `exclusive`). */
  private writing: Promise<unknown> = Promise.resolve();
  private readonly lead: LeaderTerm;

  constructor(private readonly opts: BroadcasterOptions) {
    this.lead = new LeaderTerm(opts.fence, opts.logger, "broadcast");
    this.pacer = opts.pacer ?? new SendPacer(opts.clock);
    this.progressEveryMs = opts.progressEveryMs ?? 3000;
    this.concurrency = Math.max(1, Math.floor(opts.concurrency ?? 1));
  }

  /** The current or last broadcast, as stored. */
  state(): Promise<Readonly<BroadcastState> | undefined> {
    return this.opts.store.getMeta<BroadcastState>(BROADCAST_META_KEY);
  }

  /** True while a broadcast is unfinished, also one stored before a restart and not resumed yet. */
  async isRunning(): Promise<boolean> {
    return (await this.state())?.status === "running";
  }

  /**
   * Who would receive a broadcast of `adminChatId` now: linked chats that have not blocked the bot,
   * ascending ids; the admin's own chat is not a recipient (it has the preview).
   */
  async recipients(adminChatId: number, after: number | null = null): Promise<number[]> {
    return (await this.opts.store.linkedChats())
      .map((c) => c.chatId)
      .filter((id) => id !== adminChatId && (after === null || id > after))
      .sort((a, b) => a - b);
  }

  /**
   * Saves a new broadcast and starts delivering it in the background. Refused while another runs.
   * Resolves once the broadcast is on disk (not when it is delivered).
   */
  start(adminChatId: number, adminLang: Lang, content: BroadcastContent): Promise<StartResult> {
    return this.exclusive(() => this.startNow(adminChatId, adminLang, content));
  }

  private async startNow(adminChatId: number, adminLang: Lang, content: BroadcastContent): Promise<StartResult> {
    if (await this.isRunning()) return { ok: false, reason: "running" };
    const total = (await this.recipients(adminChatId)).length;
    if (total === 0) return { ok: false, reason: "no-recipients" };
    const now = this.opts.clock.now();
    const state: BroadcastState = {
      id: now.toString(36),
      status: "running",
      adminChatId,
      adminLang,
      content,
      startedAt: now,
      doneThrough: null,
      sent: 0,
      failed: 0,
      blocked: 0,
      uncertain: 0,
    };
    // Checked and saved in one exclusive step: two confirmations cannot both start.
    await this.opts.store.setMeta(BROADCAST_META_KEY, state);
    await this.opts.store.flush();
    if (!this.opts.elsewhere?.()) this.launch();
    return { ok: true, total };
  }

  /** Continues a broadcast left running by a previous process. True if one was resumed. */
  async resume(): Promise<boolean> {
    if (!await this.isRunning() || this.loop) return false;
    this.launch();
    return true;
  }

  /** Stops after the send in flight; the stored state lets `resume()` continue later. */
  async stop(): Promise<void> {
    this.abort?.abort();
    await this.loop;
  }

  /** True while this process is delivering (the loop runs). */
  get delivering(): boolean {
    return this.loop !== undefined;
  }

  /** Resolves when the background delivery ends (tests). */
  idle(): Promise<void> {
    return this.loop ?? Promise.resolve();
  }

  async progress(): Promise<BroadcastProgress | undefined> {
    const s = await this.state();
    if (!s) return undefined;
    const left = new Set([...(s.doneAhead ?? []), ...(s.inFlight ?? []), ...(s.pending !== undefined ? [s.pending] : [])]);
    const remaining = s.status === "done" ? 0 : (await this.recipients(s.adminChatId, s.doneThrough)).filter((id) => !left.has(id)).length;
    return { sent: s.sent, failed: s.failed, blocked: s.blocked, uncertain: s.uncertain, remaining };
  }

  private launch(): void {
    const abort = new AbortController();
    this.abort = abort;
    this.lead.begin();
    this.lastProgressAt = this.opts.clock.now();
    this.lastProgressText = "";
    this.loop = this.run(abort.signal)
      .catch((err: unknown) => this.opts.logger.error({ err }, "broadcast stopped by an error; resume() continues it"))
      .finally(() => {
        if (this.abort === abort) {
          this.loop = undefined;
          this.abort = undefined;
        }
      });
  }

  /**
   * Runs `fn` after every state change already asked for. The store's reads are asynchronous: a
   * read-change-write of the state must not interleave with another (concurrent sends would lose counts).
   */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.writing.then(fn);
    this.writing = run.catch(() => undefined);
    return run;
  }

  /** Merges into the stored state (a property set to undefined is dropped, as JSON does). */
  private patch(p: Partial<BroadcastState> | ((s: Readonly<BroadcastState>) => Partial<BroadcastState>)): Promise<BroadcastState> {
    return this.exclusive(async () => {
      const s = (await this.state())!;
      await this.opts.store.setMeta(BROADCAST_META_KEY, { ...s, ...(typeof p === "function" ? p(s) : p) });
      return (await this.state())!;
    });
  }

  private async run(signal: AbortSignal): Promise<void> {
    const { store, api, logger } = this.opts;
    let state = (await this.state())!;
    const unknown = [...(state.inFlight ?? []), ...(state.pending !== undefined ? [state.pending] : [])];
    if (unknown.length > 0) {
      // The previous process stopped while these chats' messages were in flight: maybe delivered.
      logger.warn({ chats: unknown.length }, "broadcast resumed; chats whose delivery is uncertain are not repeated");
      const resumed = await this.lead.run(async () => {
        state = await this.patch({
          uncertain: state.uncertain + unknown.length,
          doneAhead: [...(state.doneAhead ?? []), ...unknown],
          inFlight: undefined,
          pending: undefined,
        });
      });
      if (!resumed) return;
    }
    if (state.progressMessageId === undefined) {
      let stopped = false;
      const shown = await this.lead.run(async () => {
        const text = await this.progressText();
        const r = await deliver(() => api.sendMessage(state.adminChatId, text), { pacer: this.pacer, signal });
        stopped = r.outcome === "stopped";
        if (r.outcome === "sent") {
          this.lastProgressText = text;
          state = await this.patch({ progressMessageId: r.result.message_id });
        }
        // Otherwise the admin sees only the final summary; delivery goes on regardless.
      });
      if (!shown || stopped) return;
    }

    const queue = await this.recipients(state.adminChatId, state.doneThrough);
    const done = new DoneMarks(queue, state.doneAhead ?? []);
    this.inFlight.clear();
    const running = new Set<Promise<void>>();
    // Ends on stop() or when a send hits an error (the store could not flush): the others finish.
    const halt = new AbortController();
    const onStop = () => halt.abort();
    signal.addEventListener("abort", onStop, { once: true });
    if (signal.aborted) halt.abort();
    let failure: { error: unknown } | undefined;
    // The admin's progress edit runs beside the sends (awaiting it would stall new sends a round trip).
    let progressEdit: Promise<void> | undefined;

    for (let i = done.firstOpen; i < queue.length && !halt.signal.aborted; i++) {
      if (done.has(i)) continue;
      while (running.size >= this.concurrency || (running.size > 0 && i - done.firstOpen >= AHEAD_LIMIT)) await Promise.race(running);
      if (halt.signal.aborted) break;
      const chatId = queue[i]!;
      const chat = await store.getChat(chatId);
      if (!chat || chat.inactive || chat.apiKeyEnc === undefined) {
        if (!(await this.lead.run(() => this.record(done, i, undefined)))) halt.abort();
        continue;
      }
      const job: Promise<void> = this.lead.run(() => this.sendOne(done, i, state.content, halt.signal))
        .then((led) => {
          if (!led) halt.abort();
        })
        .catch((error: unknown) => {
          failure ??= { error };
          halt.abort();
        })
        .finally(() => running.delete(job));
      running.add(job);
      if (!progressEdit && this.opts.clock.now() - this.lastProgressAt >= this.progressEveryMs) {
        progressEdit = this.lead.run(() => this.showProgress(halt.signal)).then(() => undefined).finally(() => (progressEdit = undefined));
      }
    }
    await Promise.all([...running, progressEdit]);
    signal.removeEventListener("abort", onStop);
    if (failure) {
      await store.flush().catch(() => undefined);
      throw failure.error;
    }

    if (signal.aborted || this.lead.lost) {
      await store.flush();
      return;
    }
    await this.lead.run(() => this.finish(signal));
  }

  /** Marks the broadcast done and tells the admin how it went. */
  private async finish(signal: AbortSignal): Promise<void> {
    const { store, api, logger } = this.opts;
    await this.patch({ status: "done", finishedAt: this.opts.clock.now(), pending: undefined, inFlight: undefined, doneAhead: undefined });
    await store.flush();
    const state = (await this.state())!;
    const t = this.opts.translate;
    const summary = t(state.adminLang, "broadcast-summary", await this.countVars());
    // Told once: the summary replaces the progress message; a new message only when there is none to edit.
    const progressId = state.progressMessageId;
    const edited =
      progressId !== undefined &&
      (await deliver(() => api.editMessageText(state.adminChatId, progressId, summary), { pacer: this.pacer, signal, maxRateLimited: 1 })).outcome === "sent";
    if (!edited && !signal.aborted) {
      await deliver(() => api.sendMessage(state.adminChatId, summary), {
        pacer: this.pacer,
        signal,
      });
    }
    logger.info({ id: state.id, ...(await this.progress()) }, "broadcast finished");
  }

  /** Delivers the content to `done.queue[i]`, recording the chat in flight (flushed) before the request. */
  private async sendOne(done: DoneMarks, i: number, content: BroadcastContent, signal: AbortSignal): Promise<void> {
    const { store, api, logger } = this.opts;
    const chatId = done.queue[i]!;
    const leave = async () => {
      this.inFlight.delete(chatId);
      await this.patch(() => ({ inFlight: this.inFlight.size > 0 ? [...this.inFlight] : undefined }));
    };
    const r = await deliver(() => sendContent(api, chatId, content), {
      pacer: this.pacer,
      signal,
      beforeSend: async () => {
        this.inFlight.add(chatId);
        await this.patch(() => ({ inFlight: [...this.inFlight] }));
        try {
          await store.flush();
        } catch (err) {
          await leave(); // not sent: the store could not promise "at most once"
          throw err;
        }
      },
      onRateLimited: leave, // a 429 delivered nothing
    });
    const outcome = counted(r);
    if (outcome === "stopped") return; // nothing went out; the chat stays ahead of the cursor
    if (outcome === "blocked") await store.updateChat(chatId, { inactive: true });
    if (outcome === "failed" && "error" in r) logger.warn({ chatId, err: r.error }, "broadcast message failed");
    this.inFlight.delete(chatId);
    await this.record(done, i, outcome);
  }

  /** Records recipient `i`'s outcome (undefined: skipped) and moves the cursor over what is done. */
  private async record(done: DoneMarks, i: number, outcome: "sent" | "failed" | "blocked" | undefined): Promise<void> {
    done.mark(i);
    await this.patch((s) => {
      const ahead = done.ahead();
      return {
        doneThrough: done.doneThrough(s.doneThrough),
        doneAhead: ahead.length > 0 ? ahead : undefined,
        inFlight: this.inFlight.size > 0 ? [...this.inFlight] : undefined,
        sent: s.sent + (outcome === "sent" ? 1 : 0),
        failed: s.failed + (outcome === "failed" ? 1 : 0),
        blocked: s.blocked + (outcome === "blocked" ? 1 : 0),
      };
    });
  }

  private async countVars(): Promise<Record<string, number>> {
    const p = (await this.progress())!;
    return { sent: p.sent, failed: p.failed, blocked: p.blocked, uncertain: p.uncertain, remaining: p.remaining };
  }

  private async progressText(): Promise<string> {
    const s = (await this.state())!;
    return this.opts.translate(s.adminLang, "broadcast-progress", await this.countVars());
  }

  /** Edits the one progress message (a failed edit is only logged: delivery matters more). */
  private async showProgress(signal: AbortSignal): Promise<void> {
    this.lastProgressAt = this.opts.clock.now();
    const s = (await this.state())!;
    const text = await this.progressText();
    if (s.progressMessageId === undefined || text === this.lastProgressText) return;
    const id = s.progressMessageId;
    const r = await deliver(() => this.opts.api.editMessageText(s.adminChatId, id, text), {
      pacer: this.pacer,
      signal,
      maxRateLimited: 1,
    });
    if (r.outcome === "sent") this.lastProgressText = text;
    else if (r.outcome !== "stopped") this.opts.logger.warn({ err: r.error }, "could not edit the broadcast progress message");
  }
}
