import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseThreshold } from "../../src/bot/features/alerts.js";
import { makeWorld, type World } from "../support/world.js";
import { settle } from "../support/settle.js";

describe("parseThreshold", () => {
  it.each([
    ["100000", 100_000],
    ["100.000", 100_000],
    ["100,000", 100_000],
    ["Rp 100.000", 100_000],
    ["rp100000", 100_000],
    ["100rb", 100_000],
    ["100 ribu", 100_000],
    ["50k", 50_000],
    ["1jt", 1_000_000],
    ["1,5jt", 1_500_000],
    ["1.5 juta", 1_500_000],
    ["2JT", 2_000_000],
  ])("%s -> %d", (text, value) => {
    expect(parseThreshold(text)).toEqual({ ok: true, value });
  });

  it.each(["off", "Mati", "0"])("%s turns alerts off", (text) => {
    expect(parseThreshold(text)).toEqual({ ok: true, value: "off" });
  });

  it.each(["abc", "", "10.00", "1.2.3jt", "-5000", "100rbu", "1e6", "12,5"])("%s is refused", (text) => {
    expect(parseThreshold(text)).toEqual({ ok: false });
  });
});

describe("/alerts", () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(() => w.close());

  /** Lets the balance checks finish: 1 ms of real time per step for HTTP, a little clock for pacing. */
  async function settleAlerts(): Promise<void> {
    await settle(w.clock, w.deps.alerts!.idle(), { stepMs: 10, tries: 500 });
  }


  it("sets a threshold after re-asking on bad input, in Indonesian", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("alerts");
    expect(u.lastReply()).toContain("Peringatan saldo: mati");
    expect(u.buttons()).toEqual(["❌ Batal"]);

    await u.sendText("seratus ribu");
    expect(u.lastReply()).toContain("Itu bukan nominal");
    await u.sendText("500");
    expect(u.lastReply()).toContain("antara Rp1.000 dan Rp1.000.000.000");
    expect((await w.store.getChat(u.chatId))!.alertThreshold).toBeUndefined();

    await u.sendText("100rb");
    expect(u.lastReply()).toContain("di bawah Rp100.000");
    expect(await w.store.getChat(u.chatId)).toMatchObject({ alertThreshold: 100_000, alertFired: false });
  });

  it("takes the threshold typed after the command: /peringatan 100rb sets it at once; a bad one is explained and asked again", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("peringatan", "100rb");
    expect(u.lastReply()).toContain("di bawah Rp100.000");
    expect(await w.store.getChat(u.chatId)).toMatchObject({ alertThreshold: 100_000, alertFired: false });

    await u.sendCommand("peringatan", "500");
    expect(u.replies().join("\n")).toContain("antara Rp1.000 dan Rp1.000.000.000");
    expect(u.lastReply()).toContain("aktif, Anda diberi tahu saat saldo di bawah");
    expect((await w.store.getChat(u.chatId))!.alertThreshold).toBe(100_000);
    await u.sendText("Rp 250.000,00");
    expect(u.lastReply()).toContain("di bawah Rp250.000");

    await u.sendCommand("peringatan", "mati");
    expect(u.lastReply()).toContain("Peringatan saldo dimatikan");
    expect((await w.store.getChat(u.chatId))!.alertThreshold).toBeUndefined();
  });

  it("shows the current threshold and turns alerts off with the button or by typing off", async () => {
    const u = await w.linkedUser({ languageCode: "en" });
    await w.store.updateChat(u.chatId, { alertThreshold: 250_000, alertFired: true });
    await u.sendCommand("alerts");
    expect(u.lastReply()).toContain("below Rp250,000");
    expect(u.buttons()).toEqual(["🔕 Turn alerts off", "❌ Cancel"]);
    await u.sendText("nope");
    expect(u.buttons()).toEqual(["🔕 Turn alerts off", "❌ Cancel"]);
    await u.pressButton("🔕 Turn alerts off");
    expect(u.lastReply()).toContain("Balance alerts are off");
    expect((await w.store.getChat(u.chatId))!.alertThreshold).toBeUndefined();
    expect((await w.store.getChat(u.chatId))!.alertFired).toBeUndefined();

    await w.store.updateChat(u.chatId, { alertThreshold: 250_000 });
    await u.sendCommand("alerts");
    await u.sendText("off");
    expect((await w.store.getChat(u.chatId))!.alertThreshold).toBeUndefined();
  });

  it("opens from the menu, and cancel keeps the old threshold", async () => {
    const u = await w.linkedUser({ languageCode: "en" });
    await w.store.updateChat(u.chatId, { alertThreshold: 75_000 });
    await u.sendCommand("menu");
    await u.pressButton(/Balance alerts/);
    expect(u.lastReply()).toContain("below Rp75,000");
    await u.pressButton("❌ Cancel");
    await u.sendText("1jt");
    expect((await w.store.getChat(u.chatId))!.alertThreshold).toBe(75_000);
  });

  it("needs a linked key in a private chat", async () => {
    const stranger = w.user({ languageCode: "en" });
    await stranger.sendCommand("alerts");
    expect(stranger.lastReply()).toContain("not linked yet");
    const group = w.user({ chatType: "group", languageCode: "en" });
    await group.sendCommand("alerts");
    expect(group.lastReply()).toContain("only works in a private chat");
  });

  it("checks the balance soon after a threshold is set, and alerts once if already under it", async () => {
    const u = await w.linkedUser({ languageCode: "en" });
    w.sandbox.setBalance(w.demoKey, 80_000);
    await u.sendCommand("alerts");
    await u.sendText("100.000");
    await w.clock.advance(10_000);
    await settleAlerts();
    expect(u.lastReply()).toContain("Your balance is now Rp80,000");
    expect((await w.store.getChat(u.chatId))!.alertFired).toBe(true);
  });
  it("a purchase that takes the balance under the threshold is told once, after one balance check", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await w.store.updateChat(u.chatId, { alertThreshold: 990_000 });
    const profiles = () => w.sandbox.calls("/get_profile").length;
    for (const target of ["0896 1234 5678", "0896 1234 5679"]) {
      await u.sendCommand("beli", `dana25 ${target}`);
      await u.pressButton(/Konfirmasi|Confirm/);
    }
    const before = profiles();
    await w.clock.advance(10_000);
    await settleAlerts();
    expect(profiles()).toBe(before + 1);
    const told = w.fake.sentTo(u.chatId).filter((c) => w.fake.textOf(c)?.includes("Saldo menipis"));
    expect(told).toHaveLength(1);
    expect(w.fake.textOf(told[0]!)).toContain("di bawah batas peringatan Rp990.000");
  });
});
