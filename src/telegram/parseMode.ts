/**
 * Every text and caption the bot writes is Telegram HTML (locales hold the markup; outside strings
 * go through `html()`), so HTML is the default parse mode of every Api the app makes. A request
 * that brings its own `parse_mode` or entities (a broadcast keeps the admin's own formatting) is
 * left as it is.
 *
 * It is also the last guard on length: an HTML text over Telegram's 4,096 characters (1,024 for a
 * caption) is cut with an ellipsis, tags kept valid, instead of being refused.
 */
import type { Transformer } from "grammy";
import { clipHtml } from "../render/format.js";

const TEXT_METHODS: ReadonlySet<string> = new Set(["sendMessage", "editMessageText"]);
const CAPTION_METHODS: ReadonlySet<string> = new Set(["sendPhoto", "sendDocument", "editMessageCaption"]);
export const MAX_TEXT = 4096;
export const MAX_CAPTION = 1024;

export const htmlByDefault: Transformer = (prev, method, payload, signal) => {
  const p = payload as Record<string, unknown> | undefined;
  if (p && (!("parse_mode" in p) || p.parse_mode === "HTML")) {
    const text = TEXT_METHODS.has(method) && !("entities" in p) && typeof p.text === "string";
    const caption = CAPTION_METHODS.has(method) && typeof p.caption === "string" && !("caption_entities" in p);
    if (text) return prev(method, { ...payload, parse_mode: "HTML", text: clipHtml(p.text as string, MAX_TEXT) } as typeof payload, signal);
    if (caption) return prev(method, { ...payload, parse_mode: "HTML", caption: clipHtml(p.caption as string, MAX_CAPTION) } as typeof payload, signal);
  }
  return prev(method, payload, signal);
};
