import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";

/** Counts the store's chat reads (each a round trip on PostgreSQL) from the next update on. */
function countChatReads(w: World): { reads: number } {
  const counter = { reads: 0 };
  const store = w.store;
  const getChat = store.getChat.bind(store);
  store.getChat = (chatId) => {
    counter.reads++;
    return getChat(chatId);
  };
  return counter;
}

describe("one chat read per update", () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(() => w.close());

  it("/saldo of a linked chat reads its chat record once", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    const counter = countChatReads(w);
    await u.sendCommand("saldo");
    expect(u.lastReply()).toContain("Saldo:");
    expect(counter.reads).toBe(1);
  });

  it("a menu button tap reads the chat record once", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("menu");
    const counter = countChatReads(w);
    await u.pressButton("💰 Saldo");
    expect(u.lastReply()).toContain("Saldo:");
    expect(counter.reads).toBe(1);
  });

  it("a language tap reads once, and the reply is already in the new language", async () => {
    const u = await w.linkedUser({ languageCode: "id" });
    await u.sendCommand("bahasa");
    const counter = countChatReads(w);
    await u.pressButton("🇬🇧 English");
    expect(u.lastReply()).toBe("✅ Language switched to English.");
    expect(counter.reads).toBe(1);
  });
});
