/**
 * What the Bot API methods do: send, copy, forward, edit and delete messages in the chats, files,
 * command menus, getUpdates. Errors are thrown as ApiErrorResponse, worded like Telegram's; in
 * strict mode also what Telegram refuses (messageRules.ts) and edits that change nothing.
 */
import type { Message, UserFromGetMe } from "grammy/types";
import type { ChangeFeed } from "./changeFeed.js";
import type { ChatModel, EditedContent } from "./chats.js";
import type { FakeMessage } from "./fakeMessage.js";
import type { CommandMenus } from "./commandMenus.js";
import { uniqueIdOf, type StoredFiles } from "./files.js";
import type { UpdateQueue } from "./longPolling.js";
import { checkInlineKeyboard, checkText } from "./messageRules.js";
import type { DecodedRequest } from "./requestDecoding.js";
import { apiOk, badRequest, type ApiResponse } from "./responses.js";

/** One Bot API request as the emulator received it. */
export interface ApiRequest extends DecodedRequest {
  /** Position among the requests since construction; increases monotonically. */
  seq: number;
  method: string;
  /** Clock time (ms) when the request arrived. */
  at: number;
  /** `"fetch"` for the in-process client, `"http"` for the real server. */
  via: "fetch" | "http";
}

export interface MethodParts {
  botInfo: UserFromGetMe;
  strict: boolean;
  chats: ChatModel;
  files: StoredFiles;
  updates: UpdateQueue;
  commands: CommandMenus;
  feed: ChangeFeed;
  /** The seq the next request will get (a deletion marks the message with it). */
  nextSeq: () => number;
}

export class TelegramMethods {
  constructor(private readonly parts: MethodParts) {}

  /** Telegram's answer to `request`. Throws ApiErrorResponse for errors. */
  async answer(request: ApiRequest, signal: AbortSignal | undefined): Promise<ApiResponse> {
    const { method, payload } = request;
    const { chats, commands, files, updates, feed } = this.parts;
    switch (method) {
      case "getMe":
        return apiOk(this.parts.botInfo);
      case "getUpdates":
        return apiOk(await updates.take(payload, signal));
      case "getWebhookInfo":
        return apiOk({ url: "", has_custom_certificate: false, pending_update_count: updates.pending().length });
      case "sendMessage":
      case "sendPhoto":
      case "sendDocument":
      case "sendVideo":
      case "sendAnimation":
      case "sendAudio":
      case "sendVoice":
      case "sendVideoNote":
      case "sendSticker":
        return apiOk(this.send(request).message);
      case "sendMediaGroup":
        return apiOk(this.sendMediaGroup(request));
      case "copyMessage":
        return apiOk({ message_id: this.copy(request, payload.message_id).messageId });
      case "copyMessages":
        return apiOk(asArray(payload.message_ids).map((id) => ({ message_id: this.copy(request, id).messageId })));
      case "forwardMessage":
        return apiOk(this.copy(request, payload.message_id, true).message);
      case "editMessageText":
      case "editMessageCaption":
      case "editMessageReplyMarkup":
      case "editMessageMedia":
        return apiOk(this.edit(request));
      case "deleteMessage":
        this.delete(payload.chat_id, payload.message_id, true);
        return apiOk(true);
      case "deleteMessages":
        for (const id of asArray(payload.message_ids)) this.delete(payload.chat_id, id, false);
        return apiOk(true);
      case "setMyCommands":
        commands.set(payload);
        feed.emit({ type: "commands" });
        return apiOk(true);
      case "answerCallbackQuery": {
        const text = typeof payload.text === "string" ? payload.text : undefined;
        // Telegram: 0-200 characters, shown as a toast or (show_alert) a dialog.
        if (this.parts.strict && text !== undefined && text.length > 200) throw badRequest("MESSAGE_TOO_LONG");
        feed.emit({
          type: "callbackAnswer",
          callbackQueryId: String(payload.callback_query_id ?? ""),
          ...(text ? { text } : {}),
          showAlert: payload.show_alert === true,
        });
        return apiOk(true);
      }
      case "deleteMyCommands":
        commands.delete(payload);
        return apiOk(true);
      case "getMyCommands":
        return apiOk(commands.get(payload));
      case "getChat": {
        const chat = chats.state(requireChatId(payload)).chat;
        return apiOk({ ...chat, accent_color_id: 0, max_reaction_count: 11, accepted_gift_types: {} });
      }
      case "getFile": {
        const fileId = String(payload.file_id);
        const f = files.get(fileId);
        if (!f) throw badRequest("invalid file_id");
        return apiOk({ file_id: fileId, file_unique_id: uniqueIdOf(fileId), file_size: f.size, file_path: f.path });
      }
      default:
        // sendChatAction, setChatMenuButton, setWebhook, ... and any method not modelled.
        if (method.startsWith("send") && method !== "sendChatAction") return apiOk(this.send(request).message);
        return apiOk(true);
    }
  }

  private checkText(raw: unknown, parseMode: unknown, kind: "text" | "caption"): string | undefined {
    return checkText(raw, parseMode, kind, this.parts.strict);
  }

  private checkInlineKeyboard(markup: unknown) {
    return checkInlineKeyboard(markup, this.parts.strict);
  }

  /** sendMessage, sendPhoto, sendDocument, ... and any other send* method. */
  private send(request: ApiRequest): FakeMessage {
    const { method, payload, files } = request;
    const { chats } = this.parts;
    const chatId = requireChatId(payload);
    const isText = method === "sendMessage";
    const kind = isText ? "text" : snakeCase(method.slice("send".length));
    const visible = this.checkText(isText ? payload.text : payload.caption, payload.parse_mode, isText ? "text" : "caption");
    const keyboard = this.checkInlineKeyboard(payload.reply_markup);
    const state = chats.state(chatId);
    const media = isText || !(kind in payload) ? undefined : this.parts.files.media(kind, payload[kind], files[kind]);
    const fm = chats.post(state, request.seq, kind, {
      ...(isText ? { text: visible } : {}),
      ...(!isText && visible !== undefined ? { caption: visible } : {}),
      raw: (isText ? payload.text : payload.caption) as string | undefined,
      parseMode: payload.parse_mode as string | undefined,
      inlineKeyboard: keyboard,
      messageFields: media?.fields ?? {},
      file: media?.file,
    });
    chats.applyReplyKeyboard(state, payload.reply_markup, fm.messageId);
    return fm;
  }

  private sendMediaGroup(request: ApiRequest): Message[] {
    const { payload, files } = request;
    const { chats } = this.parts;
    const state = chats.state(requireChatId(payload));
    const groupId = String(10_000_000 + request.seq);
    return asArray(payload.media).map((item) => {
      const it = (item ?? {}) as Record<string, unknown>;
      const kind = String(it.type ?? "photo");
      const ref = typeof it.media === "string" ? it.media : "";
      const upload = ref.startsWith("attach://") ? files[ref.slice("attach://".length)] : undefined;
      const visible = this.checkText(it.caption, it.parse_mode, "caption");
      const media = this.parts.files.media(kind, ref, upload);
      return chats.post(state, request.seq, kind, {
        ...(visible !== undefined ? { caption: visible } : {}),
        raw: it.caption as string | undefined,
        parseMode: it.parse_mode as string | undefined,
        inlineKeyboard: undefined,
        messageFields: { ...media.fields, media_group_id: groupId },
        file: media.file,
      }).message;
    });
  }

  /** copyMessage / forwardMessage: duplicates a known message. */
  private copy(request: ApiRequest, messageId: unknown, forward = false): FakeMessage {
    const { payload } = request;
    const { chats } = this.parts;
    const from = payload.from_chat_id as number | string;
    const source = chats.message(from, Number(messageId));
    if (!source || source.deleted) throw badRequest("message to copy not found");
    const state = chats.state(requireChatId(payload));
    const captionOverride = !forward && payload.caption !== undefined;
    const visibleCaption = captionOverride ? this.checkText(payload.caption, payload.parse_mode, "caption") : source.caption;
    const keyboard = forward ? undefined : this.checkInlineKeyboard(payload.reply_markup);
    const { message_id: _id, chat: _chat, date: _date, from: _from, reply_markup: _rm, text: _t, caption: _c, ...content } = source.message;
    const { id, is_bot, first_name, username } = this.parts.botInfo;
    const fm = chats.post(state, request.seq, source.kind, {
      ...(source.text !== undefined ? { text: source.text } : {}),
      ...(visibleCaption !== undefined ? { caption: visibleCaption } : {}),
      raw: captionOverride ? (payload.caption as string) : source.raw,
      parseMode: captionOverride ? (payload.parse_mode as string | undefined) : source.parseMode,
      inlineKeyboard: keyboard,
      messageFields: {
        ...content,
        ...(forward
          ? { forward_origin: { type: "user", date: source.message.date, sender_user: source.message.from ?? { id, is_bot, first_name, username } } }
          : {}),
      } as Partial<Message>,
      file: source.file,
    });
    if (!forward) chats.applyReplyKeyboard(state, payload.reply_markup);
    return fm;
  }

  /** editMessageText / Caption / ReplyMarkup / Media. Returns the edited Message (or true inline). */
  private edit(request: ApiRequest): Message | true {
    const { method, payload, files } = request;
    if (payload.inline_message_id !== undefined) return true;
    const chatId = requireChatId(payload);
    const fm = this.parts.chats.message(chatId, Number(payload.message_id));
    if (!fm || fm.deleted) throw badRequest("message to edit not found");
    if (fm.from !== "bot") throw badRequest("message can't be edited");

    // An edit without reply_markup removes the inline keyboard (real Telegram behaviour).
    const next: EditedContent = { inlineKeyboard: this.checkInlineKeyboard(payload.reply_markup) };
    if (method === "editMessageText") {
      if (fm.kind !== "text") throw badRequest("there is no text in the message to edit");
      next.text = this.checkText(payload.text, payload.parse_mode, "text");
      next.raw = String(payload.text);
      next.parseMode = payload.parse_mode as string | undefined;
    } else if (method === "editMessageCaption") {
      if (fm.kind === "text") throw badRequest("there is no caption in the message to edit");
      next.caption = this.checkText(payload.caption, payload.parse_mode, "caption");
      next.raw = payload.caption as string | undefined;
      next.parseMode = payload.parse_mode as string | undefined;
    } else if (method === "editMessageMedia") {
      const media = (payload.media ?? {}) as Record<string, unknown>;
      const kind = String(media.type ?? fm.kind);
      const ref = typeof media.media === "string" ? media.media : "";
      const upload = ref.startsWith("attach://") ? (files.media ?? files[ref.slice("attach://".length)]) : undefined;
      next.media = this.parts.files.media(kind, ref, upload);
      next.kind = kind;
      next.caption = this.checkText(media.caption, media.parse_mode, "caption");
      next.raw = media.caption as string | undefined;
      next.parseMode = media.parse_mode as string | undefined;
    } else {
      // editMessageReplyMarkup: content unchanged
      next.text = fm.text;
      next.caption = fm.caption;
      next.raw = fm.raw;
      next.parseMode = fm.parseMode;
    }

    const unchanged =
      next.media === undefined &&
      next.raw === fm.raw &&
      next.parseMode === fm.parseMode &&
      JSON.stringify(next.inlineKeyboard ?? null) === JSON.stringify(fm.inlineKeyboard ?? null);
    if (unchanged && this.parts.strict) {
      throw badRequest(
        "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
      );
    }
    return this.parts.chats.edit(fm, next, request.seq);
  }

  private delete(chatId: unknown, messageId: unknown, strict: boolean): void {
    const fm = this.parts.chats.message(chatId as number | string, Number(messageId));
    if (!fm || fm.deleted) {
      if (strict) throw badRequest("message to delete not found");
      return;
    }
    this.parts.chats.markDeleted(fm, this.parts.nextSeq());
  }
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function requireChatId(payload: Record<string, unknown>): number | string {
  const id = payload.chat_id;
  if (typeof id === "number" || (typeof id === "string" && id !== "")) return id;
  throw badRequest("chat_id is empty");
}

function snakeCase(s: string): string {
  return s.replace(/^[A-Z]/, (c) => c.toLowerCase()).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
