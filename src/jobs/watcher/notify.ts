/**
 * What a chat is told when the watcher sees a transaction change, in the chat's language, and
 * how it reaches Telegram. Two messages may be touched:
 *
 *  - the original message (`tx.messageId`: the pending receipt, or the deposit's QRIS photo /
 *    payment instructions) is edited to show the outcome and loses its buttons (a QRIS photo's code
 *    is replaced by a card once it is paid or can no longer be paid). An edit can be
 *    repeated safely (the same content again is "not modified"), which the exactly-once
 *    protocol in announce.ts relies on;
 *  - a new notice message, so the phone actually notifies (edits are silent). When the original
 *    shows the outcome, the notice is short and replies to it (the full receipt is right there);
 *    otherwise it carries the full receipt. Expiry and cancellation of a deposit need none when
 *    its message could be edited.
 *
 * Knows grammY only through `MessageApi` (satisfied by `bot.api` and `ctx.api`). Requests go
 * through delivery.ts's deliver(), which classifies Telegram's answers as for the other bulk senders.
 */
import type { InlineKeyboardMarkup, InputMediaPhoto } from "grammy/types";
import type { Translate } from "../../render/i18n.js";
import { receiptText, snKind, type ReceiptTx } from "../../render/receipt.js";
import { html, rupiah } from "../../render/format.js";
import { withSandboxBanner } from "../../render/sandboxBanner.js";
import { deliver, isNotModified, type Delivery } from "../../telegram/delivery.js";
import type { Pacer } from "../../telegram/pacer.js";
import { cb } from "../../telegram/buttonData.js";
import { saleActionRows } from "../../render/saleActions.js";
import { qrCardMedia, type QrCard } from "../../render/voidImage.js";
import { detailOf, type Lang, type TxRecord, type TxStatus } from "../../store/index.js";

interface SendOptions {
  reply_markup?: InlineKeyboardMarkup;
  reply_parameters?: { message_id: number; allow_sending_without_reply?: boolean };
}

/** The part of grammY's `Api` the watcher uses. */
export interface MessageApi {
  sendMessage(chat_id: number, text: string, other?: SendOptions): Promise<{ message_id: number }>;
  editMessageText(chat_id: number, message_id: number, text: string, other?: SendOptions): Promise<unknown>;
  editMessageCaption(chat_id: number, message_id: number, other?: SendOptions & { caption?: string }): Promise<unknown>;
  editMessageMedia(chat_id: number, message_id: number, media: InputMediaPhoto, other?: SendOptions): Promise<unknown>;
  deleteMessage(chat_id: number, message_id: number): Promise<unknown>;
}

/** The card a payment photo shows instead of its code once `kind` is announced: unpayable, or paid (nobody pays twice). */
function cardFor(kind: NoticeKind): QrCard | undefined {
  if (kind === "expired" || kind === "cancel" || kind === "failed") return kind;
  return kind === "success" || kind === "processing" ? "paid" : undefined;
}

/** The announcements a transaction can get; `gaveup` = still open after its maximum age. */
export type NoticeKind = "success" | "failed" | "expired" | "cancel" | "processing" | "unknown" | "gaveup";

/** Which notice a status change deserves; undefined = recorded without telling the chat. */
export function noticeFor(tx: Pick<TxRecord, "kind" | "status" | "wallet">, next: TxStatus): NoticeKind | undefined {
  if (next === tx.status) return undefined;
  switch (next) {
    case "success":
      // A wallet deposit was told "paid" at processing, when its wallet was credited: the settlement adds nothing.
      if (tx.kind === "deposit" && tx.wallet && tx.status === "processing") return undefined;
      return next;
    case "failed":
    case "expired":
    case "cancel":
      return next;
    case "processing":
      // A paid deposit waiting for settlement: worth saying (instant release is possible).
      return tx.kind === "deposit" ? "processing" : undefined;
    case "unknown":
      // Only from "sending" (the process died during the create call); the engine announces its own.
      return tx.status === "sending" ? "unknown" : undefined;
    default:
      // unknown -> pending (the provider has it after all): the next real change is announced.
      return undefined;
  }
}

/** Result of delivering one notice. */
export type NoticeOutcome =
  /** The notice message went out. */
  | "sent"
  /** Only the original message was edited (enough for this notice, or a resend was not safe). */
  | "edited"
  /** 403: the chat blocked the bot (or the user is gone). */
  | "blocked"
  /** Telegram refused for good (400...): retrying cannot help. */
  | "refused"
  /** Known not sent (429; the shared pacer waits it out): try again later. */
  | "rate-limited"
  /** Unknown whether the message went out (network, 5xx): retried through the exactly-once protocol. */
  | "uncertain";

export interface NotifierOptions {
  /** Prefix money messages with the sandbox banner. */
  sandbox: boolean;
  /** Hours shown in the give-up notice. */
  maxAgeHours: (tx: TxRecord) => number;
  /** Buttons for a paid deposit waiting for settlement (e.g. the deposit feature's instant release). */
  processingMarkup?: (lang: Lang, tx: TxRecord) => InlineKeyboardMarkup | undefined;
  /** Shared pacing of background messages (pacer.ts); a 429 pauses it and is reported, not retried here. */
  pacer?: Pacer;
  /**
   * The chat's language now, read once the pacer lets the message go: a notice held by the pacer (a
   * 429 holds every sender) while the chat switched language goes out in the new one.
   */
  langOf?: (chatId: number) => Promise<Lang | undefined>;
}

const CAPTION_LIMIT = 1024;
/** The provider's failure remark says the balance came back (e.g. "... Saldo dikembalikan"). */
const REFUND_WORDS = /dikembalikan|refund/i;

export class Notifier {
  constructor(
    private readonly api: MessageApi,
    private readonly t: Translate,
    private readonly opts: NotifierOptions,
  ) {}

  /** The notice message's text (HTML). `tx` shows the state being announced. */
  noticeText(lang: Lang, tx: TxRecord, kind: NoticeKind): string {
    return this.money(lang, `${this.headline(lang, tx, kind)}\n\n${this.receipt(lang, tx, kind)}`);
  }

  /** The notice under an original that shows the full receipt: what changed, for what, the ids. */
  shortNoticeText(lang: Lang, tx: TxRecord, kind: NoticeKind): string {
    const t = this.t;
    const what = [tx.title && html(tx.title), tx.target && `<code>${html(tx.target)}</code>`].filter(Boolean).join(" · ");
    const lines = [
      this.headline(lang, tx, kind),
      ...(what ? [`<b>${t(lang, `kind-${tx.kind}`)}</b>: ${what}`] : []),
      ...(kind === "success" && tx.sn ? [`${t(lang, `receipt-sn-${snKind(tx)}`)}: <code>${html(tx.sn)}</code>`] : []),
      // The unknown headline names the reference already.
      ...(kind === "unknown" ? [] : [`${t(lang, "receipt-ref")}: <code>${html(tx.refId)}</code>`]),
    ];
    return this.money(lang, lines.join("\n"));
  }

  /**
   * Delivers one notice. `mayHaveBeenSent`: an earlier attempt of this very notice may have
   * reached the chat (its marker survived a crash or a network error); then a resend happens
   * only when the original message cannot show the outcome instead.
   */
  async deliver(lang: Lang, tx: TxRecord, kind: NoticeKind, mayHaveBeenSent: boolean): Promise<NoticeOutcome> {
    let shown = false;
    if (kind !== "gaveup") {
      const edit = await this.editOriginal(lang, tx, kind);
      if (edit === "blocked") return "blocked";
      // A 429: nothing goes before its retry_after (the pacer holds every send); tried again then.
      if (edit === "rate-limited") return edit;
      // The notice may be out already: a resend is for an original that cannot show the outcome
      // for good (none, refused), never for an edit that met a passing fault (it is tried again).
      if (mayHaveBeenSent && edit === "uncertain") return edit;
      shown = edit === "ok";
    }
    const quiet = kind === "expired" || kind === "cancel";
    if (shown && (quiet || mayHaveBeenSent)) return "edited";
    // Replying to the edited original makes the phone ring and points at the full receipt.
    const replyTo = shown && tx.messageId !== undefined ? { reply_parameters: { message_id: tx.messageId, allow_sending_without_reply: true } } : {};
    const r = await this.paced(async () => {
      const now = await this.langNow(tx.chatId, lang);
      return this.api.sendMessage(tx.chatId, shown ? this.shortNoticeText(now, tx, kind) : this.noticeText(now, tx, kind), {
        ...withMarkup(this.noticeMarkup(now, tx, kind)),
        ...replyTo,
      });
    });
    // No signal is given, so "stopped" cannot happen.
    return r.outcome === "stopped" ? "uncertain" : r.outcome;
  }

  /**
   * Rewrites the transaction's own message to show `kind` (caption of a QRIS photo, else the
   * text) and drops its buttons. "ok" also when it already showed exactly that; "refused": it cannot
   * (deleted, not editable), "uncertain"/"rate-limited": a passing fault.
   */
  async editOriginal(queuedLang: Lang, tx: TxRecord, kind: NoticeKind): Promise<"ok" | "none" | "blocked" | "refused" | "uncertain" | "rate-limited"> {
    if (tx.messageId === undefined) return "none";
    const messageId = tx.messageId;
    const r = await this.paced(async () => {
      const lang = await this.langNow(tx.chatId, queuedLang);
      const markup = kind === "processing" ? this.processingMarkup(lang, tx) : this.saleMarkup(lang, tx, kind);
      if (detailOf(tx, "deposit").photo === true) {
        const card = cardFor(kind);
        if (card) {
          return qrCardMedia(this.t, lang, card, this.caption(lang, tx, kind)).then((media) =>
            this.api.editMessageMedia(tx.chatId, messageId, media, { ...withMarkup(markup) }),
          );
        }
        return this.api.editMessageCaption(tx.chatId, messageId, {
          caption: this.caption(lang, tx, kind),
          ...withMarkup(markup),
        });
      }
      const text = this.noticeText(lang, tx, kind);
      return this.api.editMessageText(tx.chatId, messageId, text, { ...withMarkup(markup) });
    });
    if (r.outcome === "sent" || ("error" in r && isNotModified(r.error))) return "ok";
    // No signal is given, so "stopped" cannot happen.
    return r.outcome === "stopped" ? "uncertain" : r.outcome;
  }

  /** The chat's language as the message leaves (langOf), else the one it was queued with. */
  private async langNow(chatId: number, queued: Lang): Promise<Lang> {
    return (await this.opts.langOf?.(chatId).catch(() => undefined)) ?? queued;
  }

  /** One request through the shared deliver(): a 429 pauses the pacer and is reported at once. */
  private paced<T>(send: () => Promise<T>): Promise<Delivery<T>> {
    return deliver(send, { pacer: this.opts.pacer, maxRateLimited: 0 });
  }

  private headline(lang: Lang, tx: ReceiptTx, kind: NoticeKind): string {
    const t = this.t;
    const ref = tx.refId;
    const deposit = tx.kind === "deposit";
    switch (kind) {
      case "success":
        if (!deposit) return t(lang, "watch-success");
        if (tx.wallet) return this.walletPaid(lang, tx);
        return t(lang, "watch-deposit-success", { credited: rupiah(credited(tx), lang) });
      case "failed":
        return deposit ? t(lang, "watch-deposit-failed") : this.failedHeadline(lang, tx);
      case "expired":
        return t(lang, "watch-deposit-expired");
      case "cancel":
        return t(lang, "watch-deposit-cancel");
      case "processing":
        return tx.wallet ? this.walletPaid(lang, tx) : t(lang, "watch-deposit-processing");
      case "unknown":
        return t(lang, "watch-unknown", { ref });
      case "gaveup": {
        const hours = this.opts.maxAgeHours(tx);
        // Without the provider's id the provider may never have received it: say where to look.
        return tx.upstreamId === undefined ? t(lang, "watch-gave-up-unknown", { ref, hours }) : t(lang, "watch-gave-up", { ref, hours });
      }
    }
  }

  /** A downline's paid deposit: the one message saying what reached its wallet and what the wallet holds now. */
  private walletPaid(lang: Lang, tx: ReceiptTx): string {
    const credit = rupiah(tx.wallet?.credit ?? 0, lang);
    if (tx.walletLeft === undefined) return this.t(lang, "wallet-deposit-paid", { credit });
    return this.t(lang, "wallet-deposit-paid-balance", { credit, balance: rupiah(tx.walletLeft, lang) });
  }

  /** Why it failed (the provider's words, or a plain sentence) and what the provider said of the money. */
  private failedHeadline(lang: Lang, tx: TxRecord): string {
    const t = this.t;
    const reason = tx.message?.trim();
    const refunded = reason !== undefined && REFUND_WORDS.test(reason);
    // A staff member's own notice (announce.ts sends it to `by`): the balance is the owner's, and what
    // the staff member needs is what to tell the customer.
    const staff = tx.by !== undefined && tx.by === tx.chatId;
    const money = staff ? (refunded ? "watch-sale-failed-refunded-staff" : "watch-sale-failed-staff") : refunded ? "watch-money-refunded" : "watch-money-unstated";
    return [
      t(lang, "watch-failed"),
      reason ? t(lang, "watch-failed-reason", { reason: html(reason) }) : t(lang, "watch-failed-no-reason"),
      t(lang, money),
    ].join("\n");
  }

  /** The full receipt; a failure's reason is in its headline already. */
  private receipt(lang: Lang, tx: TxRecord, kind: NoticeKind): string {
    return receiptText(this.t, lang, kind === "failed" && tx.kind !== "deposit" ? { ...tx, message: undefined } : tx);
  }

  private caption(lang: Lang, tx: TxRecord, kind: NoticeKind): string {
    // A downline's wallet deposit is credited once paid (processing or success): its wallet, not the owner's balance.
    const paidToWallet = tx.kind === "deposit" && tx.wallet && (kind === "processing" || kind === "success");
    const head = this.t(lang, paidToWallet ? "wallet-deposit-caption-paid" : `watch-caption-${kind}`);
    const full = this.money(lang, `${head}\n\n${receiptText(this.t, lang, tx)}`);
    if (full.length <= CAPTION_LIMIT) return full;
    return this.money(lang, `${head}\n${this.t(lang, "receipt-ref")}: <code>${html(tx.refId)}</code>`);
  }

  private noticeMarkup(lang: Lang, tx: TxRecord, kind: NoticeKind): InlineKeyboardMarkup | undefined {
    if (kind === "processing") return this.processingMarkup(lang, tx);
    if (kind === "unknown" || kind === "gaveup") return checkButton(this.t, lang, tx.refId);
    return undefined;
  }

  /** A successful sale's original message keeps the shop actions (receipt, buy again…). */
  private saleMarkup(lang: Lang, tx: TxRecord, kind: NoticeKind): InlineKeyboardMarkup | undefined {
    const rows = kind === "success" ? saleActionRows(this.t, lang, tx) : [];
    return rows.length > 0 ? { inline_keyboard: rows } : undefined;
  }

  private processingMarkup(lang: Lang, tx: TxRecord): InlineKeyboardMarkup {
    return this.opts.processingMarkup?.(lang, tx) ?? checkButton(this.t, lang, tx.refId);
  }

  private money(lang: Lang, text: string): string {
    return withSandboxBanner(this.t, lang, this.opts.sandbox, text);
  }
}

/** What a deposit put on the balance: the provider's get_balance, else amount minus fee. */
function credited(tx: TxRecord): number {
  const c = detailOf(tx, "deposit").credited;
  return c !== undefined && c > 0 ? c : tx.amount - (tx.fee ?? 0);
}

export function checkButton(t: Translate, lang: Lang, refId: string): InlineKeyboardMarkup {
  return { inline_keyboard: [[{ text: t(lang, "button-check-status"), callback_data: cb.status.encode({ refId }) }]] };
}

function withMarkup(markup: InlineKeyboardMarkup | undefined): SendOptions {
  return markup ? { reply_markup: markup } : {};
}
