/**
 * Exactly-once notices. A change that deserves a notice is handled in three steps:
 *   1. persist what was learned plus the marker `watch.announcing = <notice>` (status unchanged), flush
 *      that record (flushTx: not the rest of the store, which may be many files behind);
 *   2. edit the transaction's own message to show the outcome (repeatable: same content again
 *      is "not modified"), then send the notice message;
 *   3. persist the new status together with `watch.notified`, drop the marker, flush.
 * The status stays open until step 3, so a crash anywhere leaves the transaction watched. On the
 * next check a surviving marker means "the notice may or may not have gone out": the original
 * message is edited again and the notice is re-sent only when that edit is impossible (no
 * message, deleted). Choice: when we cannot know, the outcome is never lost (the edited message
 * shows it, or the notice is repeated, receipts carry the reference id so a repeat reads as the
 * same transaction), and a duplicate message happens only when there is nothing to edit.
 * Telegram refusing for good (400) or a blocked chat (403, the chat is then marked inactive)
 * count as done. When step 1 cannot be saved (disk full, database down) nothing is sent and the
 * status stays open: the watcher retries soon after, and a final status is never stored untold.
 *
 * A check the user asked for (/status, the "check status" button) shows its own answer: then the
 * notice message is left out (`shownByCaller`), and the original message is edited unless it is
 * the very message the caller rewrites.
 */
import type { Clock } from "../../tools/clock.js";
import type { Logger } from "../../logging/logger.js";
import type { Store, TxPatch } from "../../store/index.js";
import type { Lang, TxRecord, TxStatus, WatchState } from "../../store/index.js";
import type { ReceiptTx } from "../../render/receipt.js";
import type { NoticeKind, Notifier } from "./notify.js";
import { DEFAULT_LANG } from "../../render/i18n.js";
import { noticeChatOf, noticeViewOf, ownerCopyOf } from "./recipients.js";
import { madeOverH2h, queueH2hCallback } from "../h2hCallbacks/outbox.js";
import { isPayout } from "../../domain/payouts.js";

/** The saved watch state plus the in-flight notice marker (kept in the same JSON field). */
export interface Watch extends WatchState {
  announcing?: NoticeKind;
}

export function watchOf(tx: TxRecord): Watch {
  return (tx.watch as Watch | undefined) ?? { nextCheckAt: 0, attempts: 0 };
}

/** How the change is shown: by notice (the watcher's own checks) or by the caller's answer. */
export interface AnnounceMode {
  shownByCaller?: boolean;
  /** The message the caller rewrites with its answer: not edited here. */
  pressedMessageId?: number;
}

export class NoticeProtocol {
  constructor(
    private readonly store: Store,
    private readonly notifier: Notifier,
    private readonly logger: Logger,
    private readonly clock?: Clock,
    private readonly onNotice?: (kind: NoticeKind, seconds: number) => void,
    /** Telegram answered a notice's delivery (sent, edited, blocked, refused): notices waiting for it may go. */
    private readonly onTelegramAnswered?: () => void,
  ) {}

  /**
   * Returns false when delivery is uncertain: the marker stays and the caller retries later.
   * `next` is the status being announced.
   */
  async announce(cur: TxRecord, notice: NoticeKind, fields: TxPatch, next: TxStatus, mode: AnnounceMode = {}): Promise<boolean> {
    const store = this.store;
    const refId = cur.refId;
    const w = watchOf(cur);
    const mayHaveBeenSent = w.announcing === notice;
    const startedAt = this.clock?.now();

    // Claimed only if the mark is still as read: another watcher (a hand-over overlap, another
    // process) that read the same record loses here, also when the status stays the same.
    const claim = (w.claim ?? 0) + 1;
    // Ours unless a later claim was made; a stale write of the watch state (lower claim) does not
    // stop the outcome from being recorded.
    const mine = (c: Readonly<TxRecord>) => (watchOf(c).claim ?? 0) <= claim;
    const marked = await store.transitionTx(
      refId,
      [cur.status],
      { ...fields, watch: { ...w, announcing: notice, claim } as Watch },
      (c) => watchOf(c).announcing === w.announcing && watchOf(c).claim === w.claim,
    );
    if (!marked) return true; // changed by someone else meanwhile: theirs stands
    try {
      // This record only: the notice waits for its own marker, not for every other change in the store.
      await store.flushTx(refId);
    } catch (err) {
      // Nothing went out: the marker must not read "maybe sent" to the retry (it would only edit,
      // and the phone never rings). The learned fields stay; the store writes this once it can.
      await store.transitionTx(refId, [cur.status], { watch: { ...watchOf(marked), announcing: w.announcing } as Watch }, mine);
      throw err;
    }

    // A staff member's purchase is told in that person's chat (its message is there); a staff chat
    // known to have blocked the bot is not tried (the watcher only knows whether the owner's has).
    const to = noticeChatOf(cur);
    const recipient = await store.getChat(to);
    const lang = recipient?.lang ?? DEFAULT_LANG;
    const staffAway = to !== cur.chatId && recipient?.inactive === true && !mode.shownByCaller;
    const view: ReceiptTx = { ...(await noticeViewOf(store, { ...marked, status: next })), chatId: to };
    // An H2H sale is told to the downline's system by callback, queued durably here, never in its chat.
    // A payout request over H2H is the owner's transfer: its system gets the callback, the owner the notice.
    if (madeOverH2h(cur) && notice !== "gaveup") await queueH2hCallback(store, { ...marked, status: next }, this.clock?.now() ?? Date.now());
    const h2h = madeOverH2h(cur) && !isPayout(cur);
    const delivery = h2h
      ? "sent"
      : staffAway
        ? "blocked"
        : mode.shownByCaller
          ? await this.editForCaller(lang, view, notice, mode)
          : await this.notifier.deliver(lang, view, notice, mayHaveBeenSent);
    if (!h2h && !staffAway && !mode.shownByCaller && delivery !== "uncertain" && delivery !== "rate-limited") this.onTelegramAnswered?.();
    if (delivery === "uncertain") {
      this.logger.warn({ refId, notice }, "notice delivery uncertain; will retry (edit first)");
      return false;
    }
    if (delivery === "rate-limited") {
      // Known not sent (429): the marker goes back to what it was, so the retry sends normally.
      const now = await store.getTx(refId);
      if (now) await store.transitionTx(refId, [cur.status], { watch: { ...watchOf(now), announcing: w.announcing } as Watch }, mine);
      return false;
    }
    if (delivery === "refused") {
      this.logger.warn({ refId, notice }, "Telegram refused the notice; not retried");
    }

    const copyTo = delivery === "sent" || delivery === "edited" ? await ownerCopyOf(store, cur).catch(() => undefined) : undefined;
    if (copyTo !== undefined && notice !== "gaveup") {
      // The owner's copy: a notice of its own (the message it would edit is in the staff chat); best effort.
      const ownerLang = (await store.getChat(copyTo))?.lang ?? DEFAULT_LANG;
      const { messageId: _inStaffChat, ...copy } = { ...marked, status: next };
      await this.notifier.deliver(ownerLang, { ...copy, chatId: copyTo }, notice, false).catch(() => undefined);
    }
    if (startedAt !== undefined && (delivery === "sent" || delivery === "edited")) {
      this.onNotice?.(notice, (this.clock!.now() - startedAt) / 1000);
    }
    const latest = await store.getTx(refId) ?? marked;
    const { announcing: _done, ...kept } = watchOf(latest);
    // A missed notice now delivered is no longer owed: dropped in this same write, so a second return of
    // the chat that reads the record next finds nothing to send. A notice that found the chat blocked is
    // owed in this same write too (an owner's chat is not owed its give-up notice).
    const { owed: _owed, ...notOwed } = kept;
    const owedHere = delivery === "blocked" && (notice !== "gaveup" || to !== cur.chatId);
    // A notice delivered also ends an earlier one still owed (a paid deposit's "processing" owed, now
    // told "success"): sent later, it would show the chat an older state than the one it has.
    const rest = owedHere ? { ...kept, owed: notice } : delivery === "blocked" ? kept : notOwed;
    const patch: TxPatch =
      notice === "gaveup" ? { watch: { ...rest, gaveUp: true } } : { status: next, watch: { ...rest, notified: next } };
    await store.transitionTx(refId, [cur.status], patch, mine);
    if (delivery === "blocked") {
      // Only now, with the notice owed on the record: a return of the chat from here on finds it.
      await store.updateChat(to, owedHere ? { inactive: true, owedNotices: true } : { inactive: true });
      this.logger.info({ chatId: to }, "chat blocked the bot; its transactions are no longer polled");
    }
    await store.flush();
    return true;
  }

  /** The caller's answer is the notice: only the original message needs to show the outcome. */
  private async editForCaller(lang: Lang, tx: TxRecord, notice: NoticeKind, mode: AnnounceMode): Promise<"edited" | "blocked"> {
    if (notice === "gaveup" || tx.messageId === undefined || tx.messageId === mode.pressedMessageId) return "edited";
    const edit = await this.notifier.editOriginal(lang, tx, notice);
    return edit === "blocked" ? "blocked" : "edited";
  }
}
