import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IP_BOUND_KEY } from "../../src/sandbox/index.js";
import { makeWorld, type World } from "../support/world.js";

async function allDataText(dir: string): Promise<string> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(await readFile(p, "utf8"));
    }
  };
  await walk(dir);
  return out.join("\n");
}

describe("linking an api key", () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(() => w.close());

  it("greets, deletes the key message, shows profile with a masked key, and keeps the raw key off disk", async () => {
    const budi = w.user({ firstName: "Budi", languageCode: "id" });
    await budi.sendCommand("start");
    expect(budi.lastReply()).toContain("Halo, Budi");
    expect(budi.lastReply()).toContain("API key");

    await budi.sendText(w.demoKey);
    const keyMessage = budi.messages().find((m) => m.from === "user" && m.text === w.demoKey);
    expect(w.fake.callsOf("deleteMessage").map((c) => c.payload.message_id)).toEqual([keyMessage!.messageId]);
    expect(keyMessage!.deleted).toBe(true);

    const reply = budi.lastReply()!;
    expect(reply).toContain("API key terhubung");
    expect(reply).toContain("Saldo: Rp");
    const masked = `${w.demoKey.slice(0, 4)}…${w.demoKey.slice(-4)}`;
    expect(reply).toContain(masked);
    // The full key is never echoed back.
    for (const call of w.fake.calls) expect(JSON.stringify(call.payload)).not.toContain(w.demoKey);

    await w.store.flush();
    expect(await allDataText(w.dir)).not.toContain(w.demoKey);
    expect(await w.store.getApiKey(budi.chatId)).toBe(w.demoKey);
  });

  it("explains a refused key with the provider's message and keeps the chat unlinked", async () => {
    const ani = w.user({ languageCode: "en" });
    await ani.sendCommand("start");
    await ani.sendText("WRONG-KEY-123456789");
    expect(ani.lastReply()).toContain("did not accept the API key");
    expect(await w.store.getApiKey(ani.chatId)).toBeUndefined();
    expect(w.fake.callsOf("deleteMessage")).toHaveLength(1);

    // An IP-bound key: the provider names the caller IP, and the user is told to whitelist it.
    await ani.sendText(IP_BOUND_KEY);
    expect(ani.lastReply()).toMatch(/127\.0\.0\.1/);
    expect(ani.lastReply()).toContain("whitelist");
  });

  it("refuses a key sent in a group: deletes it and warns it has leaked", async () => {
    const group = w.user({ chatType: "group", languageCode: "en" });
    await group.sendText("here is my key AbCdEf0123456789XyZ0123456789");
    expect(w.fake.callsOf("deleteMessage")).toHaveLength(1);
    expect(w.fake.textOf(w.fake.sentTo(group.user.id)[0]!)).toContain("Treat that API key as leaked");
    expect(await w.store.getApiKey(group.chatId)).toBeUndefined();

    await group.sendCommand("saldo");
    expect(group.lastReply()).toContain("only works in a private chat");
  });

  it("says when the key message could not be deleted", async () => {
    const u = w.user({ languageCode: "en" });
    await u.sendCommand("start");
    w.fake.failNext("deleteMessage", { error_code: 400, description: "Bad Request: message can't be deleted" });
    await u.sendText(w.demoKey);
    expect(u.replies().join("\n")).toContain("could not delete the message with your API key");
    expect(await w.store.getApiKey(u.chatId)).toBe(w.demoKey);
  });

  it("/kunci replaces the key and /keluar forgets it", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    w.sandbox.addKey("SECOND-KEY-ABCDEFGH", 5000, "Toko Kedua");
    await u.sendCommand("kunci");
    expect(u.lastReply()).toContain("API key yang baru");
    await u.sendText("SECOND-KEY-ABCDEFGH");
    expect(u.lastReply()).toContain("Toko Kedua");
    expect(await w.store.getApiKey(u.chatId)).toBe("SECOND-KEY-ABCDEFGH");

    await u.sendCommand("keluar");
    expect(await w.store.getApiKey(u.chatId)).toBeUndefined();
    await u.sendCommand("saldo");
    expect(u.lastReply()).toContain("belum terhubung");
  });

  it("keeps the link across a restart", async () => {
    const u = w.user({ languageCode: "id" });
    await u.sendCommand("start");
    await u.sendText(w.demoKey);
    await w.restart();
    await u.sendCommand("saldo");
    expect(u.lastReply()).toContain("Saldo");
    expect(u.lastReply()).toMatch(/Rp[\d.]+/);
  });
});

describe("a key linked in a second chat", () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(() => w.close());

  it("tells the chat that had the key first at once, in its language, with the mask only", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    await w.clock.advance(1000);
    // A later holder of the same key: only the first one is told, so a key in many chats costs one notice per link.
    const later = await w.linkedUser({ firstName: "Tono", languageCode: "id" });
    const ani = await w.linkedUser({ firstName: "Ani", languageCode: "en", key: "OTHER-KEY-0123456789" });
    w.sandbox.addKey("OTHER-KEY-0123456789", 5000, "Toko Ani");
    const budi = w.user({ firstName: "Budi", username: "budi_cell", languageCode: "en" });
    await budi.sendCommand("start");
    const before = w.fake.sentTo(rina.chatId).length;
    await budi.sendText(w.demoKey);

    const toRina = w.fake.sentTo(rina.chatId).slice(before).map((c) => w.fake.textOf(c)).join("\n");
    const masked = `${w.demoKey.slice(0, 4)}…${w.demoKey.slice(-4)}`;
    expect(toRina).toContain("juga dihubungkan");
    expect(toRina).toContain(masked);
    expect(toRina).toContain("Budi");
    expect(toRina).toContain("@budi_cell");
    expect(toRina).toContain("Sekarang 3 chat");
    expect(w.fake.sentTo(later.chatId)).toHaveLength(0);
    // The chat that linked it learns the first chat was told, and nobody sees the key in full.
    expect(budi.lastReply()).toContain("already linked in other chats too (other chats: 2)");
    for (const call of w.fake.calls) expect(JSON.stringify(call.payload)).not.toContain(w.demoKey);
    // A chat with another key hears nothing.
    expect(w.fake.sentTo(ani.chatId)).toHaveLength(0);
  });

  it("says nothing when a chat links the key it already had", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    await rina.sendCommand("kunci");
    await rina.sendText(w.demoKey);
    expect(rina.replies().join("\n")).not.toContain("juga dihubungkan");
    expect(rina.replies().join("\n")).not.toContain("chat lain");
  });
});
