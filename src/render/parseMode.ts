/**
 * Every text and caption the bot writes is Telegram HTML (locales hold the markup; outside strings
 * go through `html()`), so HTML is the default parse mode of every Api the app makes. A request
 * that brings its own `parse_mode` or entities (a broadcast keeps the admin's own formatting) is
 * left as it is.
 */
import type { Transformer } from "grammy";

const TEXT_METHODS: ReadonlySet<string> = new Set(["sendMessage", "editMessageText"]);
const CAPTION_METHODS: ReadonlySet<string> = new Set(["sendPhoto", "sendDocument", "editMessageCaption"]);

export const htmlByDefault: Transformer = (prev, method, payload, signal) => {
  const p = payload as Record<string, unknown> | undefined;
  if (p && !("parse_mode" in p)) {
    const text = TEXT_METHODS.has(method) && !("entities" in p);
    const caption = CAPTION_METHODS.has(method) && "caption" in p && !("caption_entities" in p);
    if (text || caption) return prev(method, { ...payload, parse_mode: "HTML" } as typeof payload, signal);
  }
  return prev(method, payload, signal);
};
