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

/**
 * Set on the payload itself, not a copy (a spread copy cost ~2–5 µs a message on Node 20): grammY's
 * methods build a fresh payload for every call, and setting it twice (auto-retry sends the same
 * payload again) changes nothing. Nothing in the app hands a payload of its own to `api.raw`.
 */
export const htmlByDefault: Transformer = (prev, method, payload, signal) => {
  const p = payload as Record<string, unknown> | undefined;
  if (p && (!("parse_mode" in p) || p.parse_mode === "HTML")) {
    if (TEXT_METHODS.has(method) && !("entities" in p) && typeof p.text === "string") {
      p.parse_mode = "HTML";
      const text = clipHtml(p.text, MAX_TEXT);
      if (text !== p.text) p.text = text;
    } else if (CAPTION_METHODS.has(method) && typeof p.caption === "string" && !("caption_entities" in p)) {
      p.parse_mode = "HTML";
      const caption = clipHtml(p.caption, MAX_CAPTION);
      if (caption !== p.caption) p.caption = caption;
    }
  }
  return prev(method, payload, signal);
};
