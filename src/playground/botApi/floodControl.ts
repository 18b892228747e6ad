/**
 * Telegram's flood control: posting calls beyond a rate within a sliding 1 s window are answered
 * 429 with `retry_after` = seconds until the window frees (at least 1). Rejected calls do not count.
 */
import { isPostingMethod } from "../../telegram/pacedFetch.js";
import type { ClockLike } from "./clock.js";
import { TelegramErrors, type ApiFailure } from "./responses.js";

export interface RateLimitOptions {
  /** Accepted calls across all chats within any sliding 1s window (Telegram: ~30). */
  perSecond: number;
  /** Optional per-chat limit within the same window (Telegram: ~1 per private chat). */
  perChatPerSecond?: number;
  /** Time source; defaults to the emulator's clock. */
  clock?: ClockLike;
  /** Which methods count; default: those that post messages (send*, copy*, forward*). */
  counts?: (method: string) => boolean;
}

export class FloodControl {
  private readonly counts: (method: string) => boolean;
  private readonly global: number[] = [];
  private readonly byChat = new Map<string, number[]>();

  constructor(
    private readonly options: RateLimitOptions,
    private readonly now: () => number,
  ) {
    this.counts = options.counts ?? isPostingMethod;
  }

  /** The 429 for a call over the limit; otherwise counts the call and returns undefined. */
  check(method: string, payload: Record<string, unknown>): ApiFailure | undefined {
    if (!this.counts(method)) return undefined;
    const now = this.now();
    const prune = (list: number[]) => {
      while (list.length > 0 && list[0]! <= now - 1000) list.shift();
    };
    prune(this.global);
    const chatKey = payload.chat_id === undefined ? undefined : String(payload.chat_id);
    const chatList = chatKey === undefined ? undefined : (this.byChat.get(chatKey) ?? []);
    if (chatList) prune(chatList);
    const over = (list: number[] | undefined, max: number | undefined) =>
      list !== undefined && max !== undefined && list.length >= max ? list[0]! : undefined;
    const blockedSince = over(this.global, this.options.perSecond) ?? over(chatList, this.options.perChatPerSecond);
    if (blockedSince !== undefined) {
      const retryAfter = Math.max(1, Math.ceil((blockedSince + 1000 - now) / 1000));
      return TelegramErrors.tooManyRequests(retryAfter);
    }
    this.global.push(now);
    if (chatKey !== undefined && chatList) {
      chatList.push(now);
      this.byChat.set(chatKey, chatList);
    }
    return undefined;
  }
}
