/**
 * What a chat chose for itself, read and changed by the feature that owns it: its language, selling-price rules,
 * the low-balance alert, the daily summary, the shop's name and footer. Each is kept on the chat record.
 */
import type { ChatRecord, Lang, PricingRules, Store } from "../store/index.js";

/** The shop's name and footer line on customer receipts. */
export type ShopSettings = Pick<ChatRecord, "shopName" | "shopFooter">;

export class ChatSettings {
  constructor(private readonly store: Store) {}

  /** The language the chat chose or was first seen with; undefined for a chat never seen. */
  async language(chatId: number): Promise<Lang | undefined> {
    return (await this.store.getChat(chatId))?.lang;
  }

  /** The chat's selling-price rules; none set is `{}`. */
  async pricing(chatId: number): Promise<PricingRules> {
    return (await this.store.getChat(chatId))?.pricing || {};
  }

  /** Replaces the rules; undefined removes them. */
  async setPricing(chatId: number, rules: PricingRules | undefined): Promise<void> {
    await this.store.updateChat(chatId, { pricing: rules });
  }

  /** The low-balance alert threshold in rupiah; undefined when alerts are off. */
  async alertThreshold(chatId: number): Promise<number | undefined> {
    return (await this.store.getChat(chatId))?.alertThreshold;
  }

  /** A new threshold starts armed: the next dip under it is told. */
  async setAlertThreshold(chatId: number, threshold: number): Promise<void> {
    await this.store.updateChat(chatId, { alertThreshold: threshold, alertFired: false });
  }

  async turnAlertsOff(chatId: number): Promise<void> {
    await this.store.updateChat(chatId, { alertThreshold: undefined, alertFired: undefined });
  }

  async dailySummaryOn(chatId: number): Promise<boolean> {
    return (await this.store.getChat(chatId))?.dailySummary === true;
  }

  /** Turns the daily summary on or off; `sentDay` (a WIB day) counts that day's round as done. */
  async setDailySummary(chatId: number, on: boolean, sentDay?: string): Promise<void> {
    await this.store.updateChat(chatId, on ? { dailySummary: true, ...(sentDay !== undefined ? { summaryDay: sentDay } : {}) } : { dailySummary: false });
  }

  async shop(chatId: number): Promise<ShopSettings> {
    const chat = await this.store.getChat(chatId);
    return { shopName: chat?.shopName, shopFooter: chat?.shopFooter };
  }

  /** Changes the fields present in `patch` (a field set to undefined is removed); returns the result. */
  async setShop(chatId: number, patch: ShopSettings): Promise<ShopSettings> {
    const chat = await this.store.updateChat(chatId, patch);
    return { shopName: chat.shopName, shopFooter: chat.shopFooter };
  }

  async clearShop(chatId: number): Promise<void> {
    await this.store.updateChat(chatId, { shopName: undefined, shopFooter: undefined });
  }
}
