/**
 * The chats as their users see them: every message by id (message ids are per chat, shared by
 * the bot and the user), its current text, keyboard and file after edits and deletions, and the
 * reply keyboard shown. Each change is told to the change feed.
 */
import type { Chat, InlineKeyboardButton, KeyboardButton, Message, User } from "grammy/types";
import type { ChangeFeed } from "./changeFeed.js";
import type { FakeMessage } from "./fakeMessage.js";
import type { StoredFiles } from "./files.js";
import type { UploadedFile } from "./requestDecoding.js";

export interface ChatState {
  chat: Chat;
  lastMessageId: number;
  messages: Map<number, FakeMessage>;
  /** Rows of the reply keyboard currently shown (undefined: none / removed). */
  replyKeyboard?: string[][];
  /** The user blocked the bot: Telegram refuses what the bot sends here (403). */
  blocked?: boolean;
  /** The bot's last message with force_reply: a Telegram app answers it with the next text typed. */
  forceReplyTo?: number;
}

/** A chat as snapshot() saves it. */
export interface SavedChat {
  chat: Chat;
  lastMessageId: number;
  replyKeyboard?: string[][];
  blocked?: boolean;
  messages: (Omit<FakeMessage, "file"> & { file?: { filename?: string; base64: string } })[];
}

/** What the bot posts: its visible text or caption, as sent, with its keyboard and media. */
export interface PostedContent {
  text?: string;
  caption?: string;
  raw: string | undefined;
  parseMode: string | undefined;
  inlineKeyboard: InlineKeyboardButton[][] | undefined;
  messageFields: Partial<Message>;
  file: UploadedFile | undefined;
}

/** What an edit sets; a field left undefined is removed. */
export type EditedContent = Pick<FakeMessage, "text" | "caption" | "raw" | "parseMode" | "inlineKeyboard"> & {
  kind?: string;
  media?: { fields: Partial<Message>; file?: UploadedFile };
};

export class ChatModel {
  private readonly chats = new Map<string, ChatState>();

  constructor(
    private readonly parts: { botUser: () => User; now: () => number; feed: ChangeFeed; files: StoredFiles },
  ) {}

  state(chatId: number | string): ChatState {
    const key = String(chatId);
    let state = this.chats.get(key);
    if (!state) {
      state = { chat: defaultChat(chatId), lastMessageId: 0, messages: new Map() };
      this.chats.set(key, state);
    }
    return state;
  }

  /** Messages of a chat by message_id, including deleted ones (flagged `deleted`). */
  messages(chatId: number | string): FakeMessage[] {
    const state = this.chats.get(String(chatId));
    return state ? [...state.messages.values()].sort((a, b) => a.messageId - b.messageId) : [];
  }

  message(chatId: number | string, messageId: number): FakeMessage | undefined {
    return this.chats.get(String(chatId))?.messages.get(messageId);
  }

  replyKeyboard(chatId: number | string): string[][] | undefined {
    return this.chats.get(String(chatId))?.replyKeyboard;
  }

  /** The message a force_reply asks to be answered, once: the text that answers it takes it. */
  takeForceReply(chatId: number | string): number | undefined {
    const state = this.chats.get(String(chatId));
    const id = state?.forceReplyTo;
    if (state) delete state.forceReplyTo;
    return id;
  }

  /** Whether the chat's user blocked the bot (a chat never seen has not). */
  blocked(chatId: number | string): boolean {
    return this.chats.get(String(chatId))?.blocked === true;
  }

  clear(): void {
    this.chats.clear();
  }

  /** Every chat as plain JSON (file bytes in base64), for a restart to show them again. */
  snapshot(): SavedChat[] {
    return [...this.chats.values()].map((c) => ({
      chat: c.chat,
      lastMessageId: c.lastMessageId,
      ...(c.replyKeyboard ? { replyKeyboard: c.replyKeyboard } : {}),
      ...(c.blocked ? { blocked: true } : {}),
      messages: [...c.messages.values()].map(({ file, ...m }) => ({
        ...m,
        ...(file ? { file: { ...(file.filename !== undefined ? { filename: file.filename } : {}), base64: file.bytes.toString("base64") } } : {}),
      })),
    }));
  }

  /** Chats from snapshot(), replacing any of the same id. */
  restore(saved: SavedChat[]): void {
    for (const c of saved) {
      const messages = new Map<number, FakeMessage>();
      for (const { file, ...m } of c.messages) {
        messages.set(m.messageId, { ...m, touchedSeq: 0, ...(file ? { file: { ...(file.filename !== undefined ? { filename: file.filename } : {}), bytes: Buffer.from(file.base64, "base64") } } : {}) });
      }
      this.chats.set(String(c.chat.id), { chat: c.chat, lastMessageId: c.lastMessageId, messages, ...(c.replyKeyboard ? { replyKeyboard: c.replyKeyboard } : {}), ...(c.blocked ? { blocked: true } : {}) });
    }
  }

  /** A message the user sent, so the chat history is complete. */
  recordIncoming(message: Message, seq: number): FakeMessage {
    const state = this.state(message.chat.id);
    state.lastMessageId = Math.max(state.lastMessageId, message.message_id);
    const photoBytes = message.photo ? this.parts.files.bytes(message.photo.at(-1)?.file_id ?? "") : undefined;
    const fm: FakeMessage = {
      messageId: message.message_id,
      chatId: message.chat.id,
      from: "user",
      kind: contentKind(message),
      ...(photoBytes ? { file: { bytes: photoBytes } } : {}),
      ...(message.text !== undefined ? { text: message.text, raw: message.text } : {}),
      ...(message.caption !== undefined ? { caption: message.caption, raw: message.caption } : {}),
      deleted: false,
      edited: false,
      message,
      touchedSeq: seq,
    };
    state.messages.set(message.message_id, fm);
    this.told(fm);
    return fm;
  }

  /** A message the bot posts (send*, copy*, forward*) with the next message id of the chat. */
  post(state: ChatState, seq: number, kind: string, c: PostedContent): FakeMessage {
    const messageId = ++state.lastMessageId;
    const message = {
      message_id: messageId,
      from: this.parts.botUser(),
      chat: state.chat,
      date: Math.floor(this.parts.now() / 1000),
      ...c.messageFields,
      ...(c.text !== undefined ? { text: c.text } : {}),
      ...(c.caption !== undefined ? { caption: c.caption } : {}),
      ...(c.inlineKeyboard ? { reply_markup: { inline_keyboard: c.inlineKeyboard } } : {}),
    } as Message;
    const fm: FakeMessage = {
      messageId,
      chatId: state.chat.id,
      from: "bot",
      kind,
      ...(c.text !== undefined ? { text: c.text } : {}),
      ...(c.caption !== undefined ? { caption: c.caption } : {}),
      ...(c.raw !== undefined ? { raw: c.raw } : {}),
      ...(c.parseMode !== undefined ? { parseMode: c.parseMode } : {}),
      ...(c.inlineKeyboard ? { inlineKeyboard: c.inlineKeyboard } : {}),
      ...(c.file ? { file: c.file } : {}),
      deleted: false,
      edited: false,
      message,
      touchedSeq: seq,
    };
    state.messages.set(messageId, fm);
    this.told(fm);
    return fm;
  }

  /** Applies an edit the API accepted; returns the Message as it now reads. */
  edit(fm: FakeMessage, next: EditedContent, seq: number): Message {
    for (const key of ["text", "caption", "raw", "parseMode", "inlineKeyboard"] as const) {
      if (next[key] === undefined) delete fm[key];
      else (fm as unknown as Record<string, unknown>)[key] = next[key];
    }
    if (next.kind) fm.kind = next.kind;
    if (next.media?.file) fm.file = next.media.file;
    fm.edited = true;
    fm.touchedSeq = seq;

    const old = fm.message as unknown as Record<string, unknown>;
    const { text: _t, caption: _c, reply_markup: _r, edit_date: _e, ...rest } = old;
    if (next.media) for (const k of ["photo", "document", "video", "animation", "audio"]) delete rest[k];
    fm.message = {
      ...rest,
      ...(next.media?.fields ?? {}),
      ...(fm.text !== undefined ? { text: fm.text } : {}),
      ...(fm.caption !== undefined ? { caption: fm.caption } : {}),
      ...(fm.inlineKeyboard ? { reply_markup: { inline_keyboard: fm.inlineKeyboard } } : {}),
      edit_date: Math.floor(this.parts.now() / 1000),
    } as unknown as Message;
    this.told(fm);
    return fm.message;
  }

  markDeleted(fm: FakeMessage, seq: number): void {
    fm.deleted = true;
    fm.touchedSeq = seq;
    this.told(fm);
  }

  /** Applies reply keyboard markup (ReplyKeyboardMarkup / ReplyKeyboardRemove) to the chat. */
  applyReplyKeyboard(state: ChatState, markup: unknown, messageId?: number): void {
    if (!markup || typeof markup !== "object") return;
    if ("force_reply" in markup && markup.force_reply === true) state.forceReplyTo = messageId;
    if ("keyboard" in markup && Array.isArray(markup.keyboard)) {
      state.replyKeyboard = (markup.keyboard as (KeyboardButton | string)[][]).map((row) =>
        row.map((b) => (typeof b === "string" ? b : b.text)),
      );
    } else if ("remove_keyboard" in markup) {
      state.replyKeyboard = undefined;
    }
  }

  private told(fm: FakeMessage): void {
    this.parts.feed.emit({ type: "message", message: { ...fm } }); // a snapshot: fm changes on later edits
  }
}

/** Which Message field carries the content ("text", "photo", ...). */
function contentKind(message: Message): string {
  for (const k of ["text", "photo", "document", "video", "animation", "audio", "voice", "sticker", "contact", "location"]) {
    if (k in message) return k;
  }
  return "other";
}

/** A plausible Chat for an id never registered: private for positive ids, groups for negative. */
function defaultChat(chatId: number | string): Chat {
  if (typeof chatId === "string" && !/^-?\d+$/.test(chatId)) {
    return { id: -1001000000000, type: "channel", title: chatId.replace(/^@/, ""), username: chatId.replace(/^@/, "") };
  }
  const id = Number(chatId);
  if (id > 0) return { id, type: "private", first_name: `User ${id}` };
  if (id < -1_000_000_000_000) return { id, type: "supergroup", title: `Group ${id}` };
  return { id, type: "group", title: `Group ${id}` };
}
