/** Key hygiene in chats: what is taken as an api key, what is deleted, and that no key is ever repeated. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findKeys, isKeyShaped } from "../../src/domain/keyShape.js";
import { TelegramErrors } from "../support/fakeBotApi.js";
import { makeWorld, type World } from "../support/world.js";

/** A key in the shape the provider hands out: base64 marks, 22 characters. */
const B64_KEY = "Xk9fQ2+Lm8/ZpA3wT7rB==";
/** A shorter key. */
const SHORT_KEY = "aB3dE5gH7jK9mN1p";

const ORDINARY = [
  "cek https://atlantich2h.com/docs/deposit?page=2&ref=AbCdEf0123456789XyZ ya",
  "resi JNE CGK1A23B4567890123 sudah dikirim",
  "SN: 0412 3456 7890 1234 5678 token R230101ABCDEF12345678",
  "00020101021226670016COM.NOBUBANK.WWW01189360050300000879140214Sejahtera6015Jakarta0303UMI51440014ID.CO.QRIS.WWW0215ID20232834567890303UMI5204481253033605405500005802ID5913Toko Sejahtera6007Jakarta61051234062070703A016304AB12",
  "voucher FF-9XK2-PL7Q-ZZ31 buat kamu",
  "tagihan PLN 532100123456 bulan ini Rp250.000",
];

describe("the key-shape rule", () => {
  it("takes the provider's key shapes and leaves words, numbers and links alone", () => {
    for (const k of [B64_KEY, SHORT_KEY, "DEMO-PPOB-SANDBOX-2026", "IPBOUND-KEY"]) expect(isKeyShaped(k), k).toBe(true);
    for (const t of ["halo", "terimakasih", "081234567890", "indosat-ooredoo", "https://t.me/x", "cara pakai?"]) {
      expect(isKeyShaped(t), t).toBe(false);
    }
    for (const t of ORDINARY) expect(findKeys(t), t).toEqual([]);
    expect(findKeys(`ini key saya: ${B64_KEY}`)).toEqual([B64_KEY]);
    expect(findKeys(`key ${SHORT_KEY}.`)).toEqual([SHORT_KEY]);
    expect(findKeys(`curl -d api_key=${SHORT_KEY}x https://atlantich2h.com/get_profile?api_key=${SHORT_KEY}`)).toContain(SHORT_KEY);
  });
});

describe("keys in chats", () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
    w.sandbox.addKey(B64_KEY, 75_000, "Toko Base");
  });
  afterEach(() => w.close());

  it("an unlinked chat: chatter is explained, kept, and never sent to the provider; a key-shaped text links", async () => {
    const u = w.user({ languageCode: "id" });
    for (const text of ["halo, bagaimana cara pakai bot ini?", "terimakasih", "081234567890"]) {
      await u.sendText(text);
      expect(u.lastReply()).toContain("Akun Anda belum terhubung");
      expect(u.lastReply()).toContain("API key");
    }
    expect(w.fake.callsOf("deleteMessage")).toHaveLength(0);
    expect(w.sandbox.calls("/get_profile")).toHaveLength(0);

    await u.sendText(B64_KEY);
    expect(w.fake.callsOf("deleteMessage")).toHaveLength(1);
    expect(u.lastReply()).toContain("API key terhubung");
    expect(u.lastReply()).toContain("Toko Base");
  });

  it("a key pasted again after linking is deleted and answered: same key 'already linked', another key offers /key", async () => {
    const u = await w.linkedUser({ languageCode: "en", key: B64_KEY });
    await u.sendText(B64_KEY);
    expect(w.fake.callsOf("deleteMessage")).toHaveLength(1);
    expect(u.lastReply()).toContain("already linked");

    await u.sendText(w.demoKey);
    expect(w.fake.callsOf("deleteMessage")).toHaveLength(2);
    expect(u.lastReply()).toContain("/key");
    expect(await w.store.getApiKey(u.chatId)).toBe(B64_KEY); // nothing replaced without /key
    expect(w.sandbox.calls("/get_profile")).toHaveLength(0);
    for (const call of w.fake.calls) {
      expect(JSON.stringify(call.payload)).not.toContain(B64_KEY);
      expect(JSON.stringify(call.payload)).not.toContain(w.demoKey);
    }
  });

  it("the chat's own key pasted in the middle of a flow is deleted and answered; the flow goes on", async () => {
    const u = await w.linkedUser({ languageCode: "en", key: w.demoKey });
    await u.sendCommand("transfer");
    await u.sendText(`my key is ${w.demoKey}`);
    expect(w.fake.callsOf("deleteMessage")).toHaveLength(1);
    expect(u.lastReply()).toContain("already linked");
    await u.sendText("bca");
    expect(u.buttons()).toContain("🏦 Bank Central Asia (BCA)");
    for (const call of w.fake.calls) expect(JSON.stringify(call.payload)).not.toContain(w.demoKey);
  });

  it("another key pasted where a flow expects a number or a search is deleted and points to /key; the step is asked again", async () => {
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("transfer");
    await u.sendText(B64_KEY); // a bank search
    expect(w.fake.callsOf("deleteMessage")).toHaveLength(1);
    expect(u.lastReply()).toContain("/key");
    await u.sendText("bca");
    await u.pressButton(/BCA/);
    await u.sendText(SHORT_KEY); // where the account number goes
    expect(w.fake.callsOf("deleteMessage")).toHaveLength(2);
    expect(u.lastReply()).toContain("/key");
    await u.sendText("1234567890");
    expect(u.replies().join("\n")).toMatch(/found|Account/i);
    expect(await w.store.getApiKey(u.chatId)).toBe(w.demoKey);
    for (const call of w.fake.calls) {
      expect(JSON.stringify(call.payload)).not.toContain(B64_KEY);
      expect(JSON.stringify(call.payload)).not.toContain(SHORT_KEY);
    }
  });

  it("no flow repeats a key: a bank search and an unknown product code answer without it", async () => {
    const u = await w.linkedUser({ languageCode: "en" });
    await u.sendCommand("transfer");
    await u.sendText(`bank ${SHORT_KEY}`);
    expect(u.lastReply()).toContain("No bank or e-wallet matches");
    await u.sendCommand("cancel");
    await u.sendCommand("topup", `${B64_KEY} 081234567890`);
    for (const call of w.fake.calls) {
      expect(JSON.stringify(call.payload)).not.toContain(B64_KEY);
      expect(JSON.stringify(call.payload)).not.toContain(SHORT_KEY);
    }
  });

  it("a group: ordinary messages stay; a key is deleted and its author warned in private, nothing of it echoed", async () => {
    const owner = await w.linkedUser({ languageCode: "id", key: w.demoKey, firstName: "Sari" });
    const group = w.user({ id: owner.chatId, chatType: "group", chatId: -5005, chatTitle: "Reseller Jaya", firstName: "Sari" });
    for (const text of ORDINARY) await group.sendText(text);
    expect(w.fake.callsOf("deleteMessage")).toHaveLength(0);
    expect(w.fake.sentTo(group.chatId)).toHaveLength(0);

    await group.sendText(`tolong cek ${B64_KEY}`);
    await group.sendText(`key toko: ${w.demoKey}`); // the author's own linked key, whatever its shape
    expect(w.fake.callsOf("deleteMessage")).toHaveLength(2);
    expect(w.fake.sentTo(group.chatId)).toHaveLength(0); // warned in private, not in public
    const warnings = w.fake.sentTo(owner.chatId).map((c) => w.fake.textOf(c) ?? "");
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain("Reseller Jaya");
    expect(warnings[0]).toContain("sudah bocor");

    // The author never opened the private chat: a short public warning, still without the key.
    const stranger = w.user({ chatType: "group", chatId: -5005, firstName: "Joko", languageCode: "en" });
    w.fake.failNext("sendMessage", TelegramErrors.blocked(), { chatId: stranger.user.id });
    await stranger.sendText(SHORT_KEY);
    expect(w.fake.callsOf("deleteMessage")).toHaveLength(3);
    expect(stranger.lastReply()).toContain("Joko, your message looked like an API key");
    for (const call of w.fake.calls) {
      for (const k of [B64_KEY, SHORT_KEY, w.demoKey]) expect(JSON.stringify(call.payload)).not.toContain(k);
    }
  });

  it("/menu in a group offers a button that opens the private chat", async () => {
    const group = w.user({ chatType: "group", languageCode: "en" });
    await group.sendCommand("menu");
    expect(group.lastReply()).toContain("private chat");
    const open = group.findButton(/private chat/);
    expect(open?.button).toMatchObject({ url: "https://t.me/ppob_test_bot" });
    expect(group.buttons()).toHaveLength(1);
  });
});
