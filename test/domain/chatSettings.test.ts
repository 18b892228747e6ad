import { describe, expect, it } from "vitest";
import { ChatSettings } from "../../src/domain/chatSettings.js";
import { openStore, tempDir } from "../store/helpers.js";

describe("a chat's settings", () => {
  it("selling-price rules are read back as saved; removing them reads as no rules", async () => {
    const settings = new ChatSettings(await openStore(await tempDir()));
    expect(await settings.pricing(1)).toEqual({});
    await settings.setPricing(1, { all: { percent: 5 }, fixed: { S10: 11_500 } });
    expect(await settings.pricing(1)).toEqual({ all: { percent: 5 }, fixed: { S10: 11_500 } });
    expect(await settings.pricing(2)).toEqual({}); // another chat's rules are its own
    await settings.setPricing(1, undefined);
    expect(await settings.pricing(1)).toEqual({});
  });

  it("a new alert threshold starts armed; turning alerts off forgets it", async () => {
    const store = await openStore(await tempDir());
    const settings = new ChatSettings(store);
    expect(await settings.alertThreshold(1)).toBeUndefined();
    await store.updateChat(1, { alertThreshold: 50_000, alertFired: true });
    await settings.setAlertThreshold(1, 100_000);
    expect(await settings.alertThreshold(1)).toBe(100_000);
    expect((await store.getChat(1))?.alertFired).toBe(false); // the balance under it is told again
    await settings.turnAlertsOff(1);
    expect(await settings.alertThreshold(1)).toBeUndefined();
    expect((await store.getChat(1))?.alertFired).toBeUndefined();
  });

  it("the daily summary switches on and off; switched on late, today's round counts as sent", async () => {
    const store = await openStore(await tempDir());
    const settings = new ChatSettings(store);
    expect(await settings.dailySummaryOn(1)).toBe(false);
    await settings.setDailySummary(1, true, "2026-01-10");
    expect(await settings.dailySummaryOn(1)).toBe(true);
    expect((await store.getChat(1))?.summaryDay).toBe("2026-01-10");
    await settings.setDailySummary(1, false);
    expect(await settings.dailySummaryOn(1)).toBe(false);
    await settings.setDailySummary(2, true);
    expect((await store.getChat(2))?.summaryDay).toBeUndefined();
  });

  it("the shop's name and footer change one at a time and clear together", async () => {
    const settings = new ChatSettings(await openStore(await tempDir()));
    expect(await settings.shop(1)).toEqual({ shopName: undefined, shopFooter: undefined });
    expect(await settings.setShop(1, { shopName: "Toko Budi" })).toEqual({ shopName: "Toko Budi", shopFooter: undefined });
    expect(await settings.setShop(1, { shopFooter: "WA 0812" })).toEqual({ shopName: "Toko Budi", shopFooter: "WA 0812" });
    expect(await settings.setShop(1, { shopFooter: undefined })).toEqual({ shopName: "Toko Budi", shopFooter: undefined });
    await settings.clearShop(1);
    expect(await settings.shop(1)).toEqual({ shopName: undefined, shopFooter: undefined });
  });

  it("a chat's language is the one saved, none for a chat never seen", async () => {
    const store = await openStore(await tempDir());
    const settings = new ChatSettings(store);
    expect(await settings.language(1)).toBeUndefined();
    await store.updateChat(1, { lang: "en" });
    expect(await settings.language(1)).toBe("en");
  });
});
