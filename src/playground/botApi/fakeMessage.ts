import type { InlineKeyboardButton, Message } from "grammy/types";
import type { UploadedFile } from "./requestDecoding.js";

/** A message in a chat as the user currently sees it. */
export interface FakeMessage {
  messageId: number;
  chatId: number | string;
  /** Who posted it: the bot (API calls) or the user (chat.ts helpers). */
  from: "bot" | "user";
  /** "text", "photo", "document", ... (the Message field that carries the content). */
  kind: string;
  /** Visible text (markup removed) for text messages. */
  text?: string;
  /** Visible caption (markup removed) for media messages. */
  caption?: string;
  /** Text or caption exactly as sent, with its parse_mode. */
  raw?: string;
  parseMode?: string;
  /** Inline keyboard currently attached (undefined once removed by an edit). */
  inlineKeyboard?: InlineKeyboardButton[][];
  /** Bytes of the photo/document/etc., when the bot uploaded (or re-sent) a file or the user sent a stored photo. */
  file?: UploadedFile;
  deleted: boolean;
  edited: boolean;
  /** The Message object as the API would return it now (kept in sync with edits). */
  message: Message;
  /** `seq` of the request that last created or changed it (used for "latest reply"). */
  touchedSeq: number;
}
