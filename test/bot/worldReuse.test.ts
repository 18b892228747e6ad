/**
 * On PostgreSQL a closed world gives its database back for the next world in the worker
 * (test/support/pg.ts): the next one must start as on a new copy of the template.
 */
import { describe, expect, it } from "vitest";
import { makeWorld } from "../support/world.js";

describe("a world after another", () => {
  it("starts with nothing of the one before, and leads at once", async () => {
    const first = await makeWorld();
    const budi = await first.linkedUser();
    await budi.sendCommand("saldo");
    await first.store.flush();
    expect(await first.savedChat(budi.chatId)).toBeDefined();
    await first.close();

    const second = await makeWorld();
    try {
      expect(await second.savedChat(budi.chatId)).toBeUndefined();
      expect(await second.store.getApiKey(budi.chatId)).toBeUndefined();
      expect(second.app.shared.leadership().isLeader()).toBe(true);
    } finally {
      await second.close();
    }
  });

  it("starts on a working store after one whose store was broken and never repaired", async () => {
    const broken = await makeWorld();
    await broken.breakStore();
    await broken.close();

    const next = await makeWorld();
    try {
      const ani = await next.linkedUser();
      expect(next.store.canPersist()).toBe(true);
      await next.store.flush();
      expect(await next.savedChat(ani.chatId)).toBeDefined();
    } finally {
      await next.close();
    }
  });
});
