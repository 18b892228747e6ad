/**
 * Admin broadcast: one message (text, or a photo with caption) to every linked chat, delivered in
 * the background at a pace Telegram accepts, surviving restarts.
 *
 * Content: the admin's own message is reused as is: text with its `entities` (bold, links... that
 * the admin typed in Telegram), or the photo's `file_id` with caption and `caption_entities`. No
 * parse_mode, so nothing needs escaping or can fail to parse, and recipients see exactly the preview.
 *
 * Pace: `SendPacer` keeps sends under `perSecond` (25) in any second of clock time, and a 429 pauses
 * every sender for `retry_after` on the injected clock, then the same chat is tried again (a 429
 * means nothing was delivered). The Api given here must not have auto-retry installed: it would
 * sleep real time, and its retries would bypass the pacer.
 *
 * Restart safety (meta key `broadcast`): recipients are walked in ascending chat id order, so the
 * cursor `doneThrough` (highest chat id whose outcome is recorded) is the "done" mark for every chat
 * before it. Just before each send the chat is recorded as `pending` and the store is flushed; after
 * the answer the cursor moves past it. A crash between the flush and the answer leaves one chat
 * whose outcome is unknown: on resume it is counted as `uncertain` and NOT sent again (at most one
 * such chat per crash; we prefer a missed copy to a double one). A graceful `stop()` waits for the
 * send in flight, so a clean restart loses nobody.
 *
 * A chat answering 403 (blocked, deactivated) is marked `inactive` in the store and is no longer a
 * recipient of anything. Other errors (400, 5xx, network) count as failed and are not retried: a
 * network error may hide a delivered message.
 */
import { GrammyError, type Api } from "grammy";
import type { Message, MessageEntity } from "grammy/types";
import type { Clock } from "../clock.js";
import type { Logger } from "../logger.js";
import type { Translate } from "../bot/i18n.js";
import type { Store } from "../store/store.js";
import type { Lang } from "../store/types.js";

// ---- pacing and delivery (shared with balance alerts) ---------------------------------------------

/** Resolves after `ms` of clock time, or at once when `signal` aborts. */
export function sleepUnless(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    };
    const timer = clock.setTimeout(done, ms);
    const onAbort = () => {
      timer.cancel();
      done();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Paces outgoing messages for the whole bot: at most `perSecond` in any sliding second of clock
 * time (grammY's flood guidance: about 30 per second overall), and nobody sends while a 429's
 * retry_after is running. Share one instance between everything that sends in bulk.
 */
export class SendPacer {
  private readonly stamps: number[] = [];
  private pausedUntil = 0;

  constructor(
    private readonly clock: Clock,
    readonly perSecond = 25,
  ) {}

  /** Waits for a free slot and takes it. False when `signal` aborted first (no slot taken). */
  async acquire(signal?: AbortSignal): Promise<boolean> {
    for (;;) {
      if (signal?.aborted) return false;
      const now = this.clock.now();
      while (this.stamps.length > 0 && this.stamps[0]! <= now - 1000) this.stamps.shift();
      const full = this.stamps.length >= this.perSecond ? this.stamps[0]! + 1000 - now : 0;
      const wait = Math.max(this.pausedUntil - now, full);
      if (wait <= 0) {
        this.stamps.push(now);
        return true;
      }
      await sleepUnless(this.clock, wait, signal);
    }
  }

  /** Telegram said 429: everyone waits `ms`. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
  }
}

export type Delivery<T> =
  | { outcome: "sent"; result: T }
  /** 403: the user blocked the bot or the account is gone. */
  | { outcome: "blocked"; error: unknown }
  | { outcome: "failed"; error: unknown }
  /** Aborted before the request went out: nothing was sent. */
  | { outcome: "stopped" };

export interface DeliverOptions {
  pacer: SendPacer;
  signal?: AbortSignal;
  /** 429s tolerated for one message before it counts as failed. */
  maxRateLimited?: number;
  /** Runs right before each request goes out (e.g. persist "this chat is in flight"). */
  beforeSend?: () => Promise<void>;
  /** A 429 came back: the message was not delivered. */
  onRateLimited?: () => void;
}

/** Sends one message through the pacer, waiting out 429s on the pacer's clock. Never throws for API errors. */
export async function deliver<T>(send: () => Promise<T>, opts: DeliverOptions): Promise<Delivery<T>> {
  const maxRateLimited = opts.maxRateLimited ?? 5;
  for (let limited = 0; ; ) {
    if (!(await opts.pacer.acquire(opts.signal))) return { outcome: "stopped" };
    await opts.beforeSend?.();
    try {
      return { outcome: "sent", result: await send() };
    } catch (error) {
      if (!(error instanceof GrammyError)) return { outcome: "failed", error };
      if (error.error_code === 403) return { outcome: "blocked", error };
      if (error.error_code !== 429 || ++limited > maxRateLimited) return { outcome: "failed", error };
      opts.pacer.pause(Math.max(1, error.parameters.retry_after ?? 1) * 1000);
      opts.onRateLimited?.();
    }
  }
}

// ---- broadcast ----------------------------------------------------------------------------------

export type BroadcastContent =
  | { kind: "text"; text: string; entities?: MessageEntity[] }
  | { kind: "photo"; fileId: string; caption?: string; captionEntities?: MessageEntity[] };

/** Sends the content exactly as every recipient (and the admin's preview) gets it. */
export function sendContent(api: Api, chatId: number, content: BroadcastContent): Promise<Message> {
  if (content.kind === "text") {
    return api.sendMessage(chatId, content.text, content.entities?.length ? { entities: content.entities } : {});
  }
  return api.sendPhoto(chatId, content.fileId, {
    ...(content.caption !== undefined ? { caption: content.caption } : {}),
    ...(content.captionEntities?.length ? { caption_entities: content.captionEntities } : {}),
  });
}

export interface BroadcastCounts {
  sent: number;
  failed: number;
  /** Answered 403 and were marked inactive. */
  blocked: number;
  /** In flight during a crash: maybe delivered, not sent again. */
  uncertain: number;
}

/** What lives in the store under META_KEY (JSON). */
export interface BroadcastState extends BroadcastCounts {
  id: string;
  status: "running" | "done";
  adminChatId: number;
  adminLang: Lang;
  content: BroadcastContent;
  startedAt: number;
  finishedAt?: number;
  /** Highest chat id whose outcome is recorded; chats are sent in ascending id order. */
  doneThrough: number | null;
  /** Chat whose send went out (flushed before the request) with no outcome recorded yet. */
  pending?: number;
  progressMessageId?: number;
}

export interface BroadcastProgress extends BroadcastCounts {
  remaining: number;
}

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
}

export type StartResult = { ok: true; total: number } | { ok: false; reason: "running" | "no-recipients" };

export const BROADCAST_META_KEY = "broadcast";

export class Broadcaster {
  private readonly pacer: SendPacer;
  private readonly progressEveryMs: number;
  private loop: Promise<void> | undefined;
  private abort: AbortController | undefined;
  private lastProgressAt = 0;
  private lastProgressText = "";

  constructor(private readonly opts: BroadcasterOptions) {
    this.pacer = opts.pacer ?? new SendPacer(opts.clock);
    this.progressEveryMs = opts.progressEveryMs ?? 3000;
  }

  /** The current or last broadcast, as stored. */
  state(): Readonly<BroadcastState> | undefined {
    return this.opts.store.getMeta<BroadcastState>(BROADCAST_META_KEY);
  }

  /** True while a broadcast is unfinished, also one stored before a restart and not resumed yet. */
  isRunning(): boolean {
    return this.state()?.status === "running";
  }

  /** Who would receive a broadcast now: linked chats that have not blocked the bot, ascending ids. */
  recipients(after: number | null = null): number[] {
    return this.opts.store
      .linkedChats()
      .map((c) => c.chatId)
      .filter((id) => after === null || id > after)
      .sort((a, b) => a - b);
  }

  /**
   * Saves a new broadcast and starts delivering it in the background. Refused while another runs.
   * Resolves once the broadcast is on disk (not when it is delivered).
   */
  async start(adminChatId: number, adminLang: Lang, content: BroadcastContent): Promise<StartResult> {
    if (this.isRunning()) return { ok: false, reason: "running" };
    const total = this.recipients().length;
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
    // Checked and saved in the same turn: two confirmations cannot both start.
    this.opts.store.setMeta(BROADCAST_META_KEY, state);
    await this.opts.store.flush();
    this.launch();
    return { ok: true, total };
  }

  /** Continues a broadcast left running by a previous process. True if one was resumed. */
  async resume(): Promise<boolean> {
    if (!this.isRunning() || this.loop) return false;
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

  progress(): BroadcastProgress | undefined {
    const s = this.state();
    if (!s) return undefined;
    const remaining = s.status === "done" ? 0 : this.recipients(s.doneThrough).filter((id) => id !== s.pending).length;
    return { sent: s.sent, failed: s.failed, blocked: s.blocked, uncertain: s.uncertain, remaining };
  }

  private launch(): void {
    const abort = new AbortController();
    this.abort = abort;
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

  /** Merges into the stored state (a property set to undefined is dropped, as JSON does). */
  private patch(p: Partial<BroadcastState>): BroadcastState {
    this.opts.store.setMeta(BROADCAST_META_KEY, { ...this.state()!, ...p });
    return this.state()!;
  }

  private async run(signal: AbortSignal): Promise<void> {
    const { store, api, logger } = this.opts;
    let state = this.state()!;
    if (state.pending !== undefined) {
      // The previous process crashed while this chat's message was in flight: maybe delivered.
      logger.warn({ chatId: state.pending }, "broadcast resumed; one chat's delivery is uncertain and is not repeated");
      state = this.patch({
        uncertain: state.uncertain + 1,
        doneThrough: Math.max(state.doneThrough ?? state.pending, state.pending),
        pending: undefined,
      });
    }
    if (state.progressMessageId === undefined) {
      const text = this.progressText(false);
      const r = await deliver(() => api.sendMessage(state.adminChatId, text), { pacer: this.pacer, signal });
      if (r.outcome === "stopped") return;
      if (r.outcome === "sent") {
        this.lastProgressText = text;
        state = this.patch({ progressMessageId: r.result.message_id });
      }
      // Otherwise the admin sees only the final summary; delivery goes on regardless.
    }

    for (const chatId of this.recipients(state.doneThrough)) {
      if (signal.aborted) break;
      const chat = store.getChat(chatId);
      if (!chat || chat.inactive || chat.apiKeyEnc === undefined) {
        state = this.patch({ doneThrough: chatId });
        continue;
      }
      const r = await deliver(() => sendContent(api, chatId, state.content), {
        pacer: this.pacer,
        signal,
        beforeSend: async () => {
          this.patch({ pending: chatId });
          try {
            await store.flush();
          } catch (err) {
            this.patch({ pending: undefined }); // not sent: the store could not promise "at most once"
            throw err;
          }
        },
        onRateLimited: () => void this.patch({ pending: undefined }),
      });
      if (r.outcome === "stopped") {
        this.patch({ pending: undefined });
        break;
      }
      state = this.state()!;
      if (r.outcome === "blocked") store.updateChat(chatId, { inactive: true });
      if (r.outcome === "failed") logger.warn({ chatId, err: r.error }, "broadcast message failed");
      state = this.patch({
        doneThrough: chatId,
        pending: undefined,
        sent: state.sent + (r.outcome === "sent" ? 1 : 0),
        failed: state.failed + (r.outcome === "failed" ? 1 : 0),
        blocked: state.blocked + (r.outcome === "blocked" ? 1 : 0),
      });
      if (this.opts.clock.now() - this.lastProgressAt >= this.progressEveryMs) await this.showProgress(signal, false);
    }

    if (signal.aborted) {
      await store.flush();
      return;
    }
    this.patch({ status: "done", finishedAt: this.opts.clock.now(), pending: undefined });
    await store.flush();
    await this.showProgress(signal, true);
    state = this.state()!;
    const t = this.opts.translate;
    await deliver(() => api.sendMessage(state.adminChatId, t(state.adminLang, "broadcast-summary", this.countVars())), {
      pacer: this.pacer,
      signal,
    });
    logger.info({ id: state.id, ...this.progress() }, "broadcast finished");
  }

  private countVars(): Record<string, number> {
    const p = this.progress()!;
    return { sent: p.sent, failed: p.failed, blocked: p.blocked, uncertain: p.uncertain, remaining: p.remaining };
  }

  private progressText(final: boolean): string {
    const s = this.state()!;
    return this.opts.translate(s.adminLang, final ? "broadcast-progress-done" : "broadcast-progress", this.countVars());
  }

  /** Edits the one progress message (a failed edit is only logged: delivery matters more). */
  private async showProgress(signal: AbortSignal, final: boolean): Promise<void> {
    this.lastProgressAt = this.opts.clock.now();
    const s = this.state()!;
    const text = this.progressText(final);
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
