/** What each kind of money action (prepaid, postpaid, transfer, deposit) plugs into the confirm screen. */
import type { InlineKeyboard, InputFile } from "grammy";
import type { Lang, TxKind, TxRecord } from "../../store/index.js";
import type { UpstreamRejected } from "../../upstream/errors.js";
import type { TranslateVars } from "../../render/i18n.js";
import type { BaseContext, BotDeps } from "../context.js";
import type { Sale } from "../../domain/pricing.js";

/** The fields of a new draft; the engine adds refId, chatId, status and times. */
export type DraftFields = Omit<TxRecord, "refId" | "chatId" | "status" | "createdAt" | "updatedAt" | "kind"> & {
  refId?: string;
};

/**
 * Where a kind shows an outcome: one chat, in its language. From an update's context (replierOf), or
 * outside any update (at start, for a chat of the store).
 */
export interface Replier {
  readonly chatId: number;
  readonly lang: Lang;
  t(key: string, vars?: TranslateVars): string;
  send(text: string, other?: { reply_markup?: InlineKeyboard | undefined }): Promise<{ message_id: number }>;
  sendPhoto(photo: InputFile, other?: { caption?: string; reply_markup?: InlineKeyboard | undefined }): Promise<{ message_id: number }>;
  /** Deletes a message this chat was sent (one that turned out outdated before it was recorded). */
  remove(messageId: number): Promise<unknown>;
}

/** The update's chat as a Replier (through the context's own api, retries and all). */
export function replierOf(ctx: BaseContext): Replier {
  return {
    chatId: ctx.chat!.id,
    get lang() {
      return ctx.lang;
    },
    t: (key, vars) => ctx.t(key, vars),
    send: (text, other) => ctx.reply(text, other),
    sendPhoto: (photo, other) => ctx.replyWithPhoto(photo, other),
    remove: (messageId) => ctx.api.deleteMessage(ctx.chat!.id, messageId),
  };
}

export interface MoneyKind {
  kind: TxKind;
  /** The body of the confirm screen: exactly what will happen (HTML); `hideCost`: no cost or profit (a cashier). */
  confirmText(ctx: BaseContext, tx: TxRecord, view?: { hideCost?: boolean }): string;
  /**
   * What may leave the balance if it goes through (checked against the balance up front); none for
   * a deposit. A transfer counts the highest fee the provider has charged: its fee is known only after.
   */
  cost?(tx: TxRecord, ctx: BaseContext): number | undefined | Promise<number | undefined>;
  /** A sale's selling price and profit under the chat's rules now; kept on the draft when its confirm screen is made. */
  sale?(ctx: BaseContext, tx: TxRecord): Promise<Sale | undefined>;
  /** Calls the create endpoint once. Returns what to record (status, upstreamId, sn, amounts...). */
  create(ctx: BaseContext, apiKey: string, tx: TxRecord): Promise<Partial<TxRecord>>;
  /** A refusal this kind reads as the balance too low beyond isLowBalanceRefusal (a downline then reads the upline-short words). */
  lowBalance?(err: UpstreamRejected): boolean;
  /** Optional extra explanation for a refusal (e.g. the new price after a limit_price refusal). */
  explainRejection?(ctx: BaseContext, apiKey: string, tx: TxRecord, err: UpstreamRejected): Promise<string | undefined>;
  /** Fields of a fresh draft to try again after a refusal; undefined = start the flow from scratch. */
  retryDraft?(ctx: BaseContext, apiKey: string, tx: TxRecord): Promise<DraftFields | undefined>;
  /** Shows the outcome after the create call; the engine's generic receipt is used when absent. */
  announce?(deps: BotDeps, to: Replier, tx: TxRecord): Promise<boolean>;
}
