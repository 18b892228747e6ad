/** The bot identity tests run as; it lives beside the emulator that answers getMe with it. */
export * from "../../src/playground/botInfo.js";
