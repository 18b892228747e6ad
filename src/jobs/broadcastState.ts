/**
 * What an admin broadcast sends and what it keeps in the store (meta key `broadcast`) so a
 * restart resumes it; the delivery itself is in broadcast.ts.
 *
 * Content: the admin's own message is reused as is: text with its `entities` (bold, links... that
 * the admin typed in Telegram), or the photo's `file_id` with caption and `caption_entities`. No
 * parse_mode, so nothing needs escaping or can fail to parse, and recipients see exactly the preview.
 */
import type { Api } from "grammy";
import type { Message, MessageEntity } from "grammy/types";
import type { Lang } from "../store/index.js";

export const BROADCAST_META_KEY = "broadcast";

export type BroadcastContent =
  | { kind: "text"; text: string; entities?: MessageEntity[] }
  | { kind: "photo"; fileId: string; caption?: string; captionEntities?: MessageEntity[] };

/**
 * Sends the content exactly as every recipient (and the admin's preview) gets it. Entities are
 * always given (maybe none), so the app's default HTML parse mode never touches the admin's text.
 */
export function sendContent(api: Api, chatId: number, content: BroadcastContent): Promise<Message> {
  if (content.kind === "text") return api.sendMessage(chatId, content.text, { entities: content.entities ?? [] });
  return api.sendPhoto(chatId, content.fileId, {
    ...(content.caption !== undefined ? { caption: content.caption, caption_entities: content.captionEntities ?? [] } : {}),
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
  /** Highest chat id with its outcome and every one before it recorded; chats go in ascending id order. */
  doneThrough: number | null;
  /** Chats past `doneThrough` whose outcome is recorded (answers that came back out of order). */
  doneAhead?: number[];
  /** Chats whose send went out (flushed before the request) with no outcome recorded yet. */
  inFlight?: number[];
  /** The one chat in flight, as versions before `inFlight` stored it; read on resume only. */
  pending?: number;
  progressMessageId?: number;
}

export interface BroadcastProgress extends BroadcastCounts {
  remaining: number;
}
