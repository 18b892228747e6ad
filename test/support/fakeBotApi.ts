/** The tests' Bot API is the playground's emulator (one emulator, not two): src/playground/botApi.ts. */
export * from "../../src/playground/botApi.js";
