/**
 * What Telegram refuses in a message and bots commonly get wrong: unparsable `parse_mode` text,
 * texts over 4096 and captions over 1024 characters, callback_data over 64 bytes. Not strict:
 * only what the emulator cannot go on without is refused.
 */
import type { InlineKeyboardButton } from "grammy/types";
import { parseFormatted } from "../telegramFormat.js";
import { ApiErrorResponse, apiError, badRequest } from "./responses.js";

/** Validates a text or caption per Telegram's rules; returns the visible text. */
export function checkText(raw: unknown, parseMode: unknown, kind: "text" | "caption", strict: boolean): string | undefined {
  if (raw === undefined) {
    if (kind === "text") throw badRequest("message text is empty");
    return undefined;
  }
  const text = String(raw);
  const parsed = parseFormatted(text, parseMode);
  if (!parsed.ok) {
    if (strict) throw new ApiErrorResponse(apiError(400, parsed.description));
    return text;
  }
  if (strict) {
    if (kind === "text" && parsed.text.trim() === "") throw badRequest("message text is empty");
    if (kind === "text" && parsed.text.length > 4096) throw badRequest("message is too long");
    if (kind === "caption" && parsed.text.length > 1024) throw badRequest("message caption is too long");
  }
  return parsed.text;
}

/** Checks an inline keyboard like Telegram does and returns it (undefined if none). */
export function checkInlineKeyboard(markup: unknown, strict: boolean): InlineKeyboardButton[][] | undefined {
  if (!markup || typeof markup !== "object" || !("inline_keyboard" in markup)) return undefined;
  const rows = (markup as { inline_keyboard: InlineKeyboardButton[][] }).inline_keyboard;
  if (!Array.isArray(rows)) throw badRequest("field \"inline_keyboard\" must be an Array");
  if (strict) {
    for (const row of rows) {
      for (const button of row) {
        if (!button.text) throw badRequest("text buttons are unallowed in the inline keyboard");
        if ("callback_data" in button) {
          const len = Buffer.byteLength(button.callback_data, "utf8");
          if (len < 1 || len > 64) throw badRequest("BUTTON_DATA_INVALID");
        } else if (Object.keys(button).length === 1) {
          throw badRequest("text buttons are unallowed in the inline keyboard");
        }
      }
    }
  }
  return rows;
}
