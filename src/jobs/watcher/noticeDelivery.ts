/**
 * The watcher's notices on their way out: the exactly-once protocol over the notifier (announce.ts),
 * the notices a returning chat missed (chatBack, owed.ts), and the notices that met a Telegram
 * failure: one probes, the rest go when one gets through (telegramGate.ts).
 */
import { deadline, retryNotice } from "./decide.js";
import { Notifier } from "./notify.js";
import { NoticeProtocol } from "./announce.js";
import { sendOwed } from "./owed.js";
import { TelegramGate } from "./telegramGate.js";
import { HOUR } from "./watcherOptions.js";
import type { WatcherCore } from "./watchState.js";

export class NoticeDelivery {
  readonly protocol: NoticeProtocol;
  /** Notices waiting for Telegram to answer again: one probes, the rest go when one gets through. */
  private readonly telegram: TelegramGate;
  /** Chats whose owed notices met a Telegram failure: sent again when a notice gets through (or later). */
  private readonly owedWaiting = new Set<number>();

  constructor(private readonly core: WatcherCore) {
    const { deps, options } = core;
    const notifier = new Notifier(deps.api, deps.translate, {
      sandbox: options.sandbox,
      maxAgeHours: (tx) => Math.round((deadline(tx, options) - tx.createdAt) / HOUR),
      ...(deps.processingMarkup ? { processingMarkup: deps.processingMarkup } : {}),
      ...(deps.pacer ? { pacer: deps.pacer } : {}),
      langOf: async (chatId) => (await deps.store.getChat(chatId))?.lang,
    });
    this.telegram = new TelegramGate(options.telegramProbe);
    this.protocol = new NoticeProtocol(deps.store, notifier, deps.logger, deps.clock, deps.onNotice, () => this.telegramAnswered());
  }

  /**
   * The chat is back (it wrote, or unblocked the bot): sends the notices it missed, newest
   * transactions first, one each. Runs in the background; whenIdle() waits for it.
   */
  chatBack(chatId: number): void {
    const core = this.core;
    if (core.stopped || core.paused) return;
    const send = () => sendOwed(core.deps.store, this.protocol, chatId, () => {
      // As a watched notice's retry: the probe soon, else the slow retry or the first notice through.
      const now = core.deps.clock.now();
      const at = this.telegram.failed(`chat:${chatId}`, now, core.options.notifyRetryMs, core.deps.pacer?.resumesAt?.());
      this.owedWaiting.add(chatId);
      core.deps.clock.setTimeout(() => {
        if (this.owedWaiting.delete(chatId)) this.chatBack(chatId);
      }, at - now);
    });
    const run = core.leaderOnly(send).catch((err: unknown) => core.deps.logger.error({ err, chatId }, "owed notices failed"));
    core.inBackground(run);
  }

  /** Deletes a stale message (best effort: one already gone, or older than Telegram lets delete, stays). */
  async dropLine(chatId: number, messageId: number): Promise<void> {
    await this.core.deps.api.deleteMessage(chatId, messageId).catch(() => undefined);
  }

  /** The notice met a Telegram failure: tried again when the gate says (soon if it probes). */
  async retryLater(refId: string, now: number): Promise<void> {
    const core = this.core;
    const cur = await core.deps.store.getTx(refId);
    if (!cur) return;
    const retry = retryNotice(cur, this.telegram.failed(refId, now, core.options.notifyRetryMs, core.deps.pacer?.resumesAt?.()));
    await core.deps.store.updateTx(refId, { watch: retry.save });
    core.schedule(refId, retry.at);
  }

  /** A notice got through: the ones waiting for Telegram go now (their checks edit first, as any retry). */
  private telegramAnswered(): void {
    const core = this.core;
    const now = core.deps.clock.now();
    let woke = false;
    for (const refId of this.telegram.answered()) {
      const at = core.due.at(refId);
      if (at === undefined || at <= now) continue; // being checked, or no longer watched
      core.schedule(refId, now);
      woke = true;
    }
    if (woke) core.due.armNext();
    const chats = [...this.owedWaiting];
    this.owedWaiting.clear();
    for (const chatId of chats) this.chatBack(chatId);
  }
}
