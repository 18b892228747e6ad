/** The Bot API emulator: one class (emulator.ts) built from one file per job. */
export { BotApiEmulator, type EmulatorOptions, type SavedChats } from "./emulator.js";
export type { EmulatorEvent } from "./changeFeed.js";
export type { FakeMessage } from "./fakeMessage.js";
export type { ClockLike } from "./clock.js";
export type { BotCommandEntry } from "./commandMenus.js";
export { imageSize } from "./files.js";
export type { RateLimitOptions } from "./floodControl.js";
export type { ApiRequest } from "./methods.js";
export type { UploadedFile } from "./requestDecoding.js";
export { apiError, apiOk, TelegramErrors, type ApiFailure, type ApiResponse, type ApiSuccess } from "./responses.js";
export type { FakeFetchInit, FakeServer, LostRequest } from "./transport.js";
