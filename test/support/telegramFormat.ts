/** Telegram's parse_mode rules as the emulator applies them: src/playground/telegramFormat.ts. */
export * from "../../src/playground/telegramFormat.js";
