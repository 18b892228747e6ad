/**
 * A database that stops answering (a stopped PostgreSQL, a cut network) rather than refusing: every
 * update still gets an answer within 2 s, saying storage is unavailable where storage is needed; help,
 * the menu and the language picker need none and keep working; once the database is back, all works.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { onPostgres } from "../support/pg.js";
import type { FakeUser } from "../support/chat.js";

/** Runs `act` while the clock moves on in 100 ms steps; how long (clock and real ms) until it was done. */
async function answerTime(w: World, act: () => Promise<unknown>, limitMs = 2000): Promise<{ clockMs: number; realMs: number } | undefined> {
  const clockStart = w.clock.now();
  const realStart = performance.now();
  let done = false;
  void act().then(() => (done = true));
  for (let turn = 0; turn < 20 && !done; turn++) await new Promise((resolve) => setImmediate(resolve));
  while (!done && w.clock.now() - clockStart < limitMs) {
    await w.clock.advance(100);
    for (let turn = 0; turn < 20 && !done; turn++) await new Promise((resolve) => setImmediate(resolve));
  }
  return done ? { clockMs: w.clock.now() - clockStart, realMs: performance.now() - realStart } : undefined;
}

describe.skipIf(!onPostgres)("PostgreSQL stops answering", () => {
  let w: World;
  let u: FakeUser;
  /** What a user reads when storage is down: "storage has a problem / is failing; nothing was sent". */
  let storageDown: string[];
  const visible = (key: string) => w.deps.translate("id", key).replace(/<[^>]+>/g, "");
  beforeEach(async () => {
    w = await makeWorld({ freezableStore: true });
    u = await w.linkedUser({ languageCode: "id" });
    storageDown = ["store-unavailable", "store-write-failed"].map(visible);
  });
  afterEach(async () => {
    w.thawStore();
    await w.close();
  });

  it("/saldo, /beli, /start and /riwayat each hear within 2 s that storage is unavailable", async () => {
    w.freezeStore();
    for (const command of ["saldo", "beli", "start", "riwayat"]) {
      const took = await answerTime(w, () => u.sendCommand(command));
      expect(took, `/${command} got no answer within 2 s`).toBeDefined();
      expect(took!.realMs).toBeLessThan(2000);
      expect(storageDown, `/${command}`).toContain(u.lastReply());
    }
  });

  it("/bantuan, /menu and the language picker answer as usual; after the database is back everything works", async () => {
    w.freezeStore();
    expect(await answerTime(w, () => u.sendCommand("bantuan"))).toBeDefined();
    expect(u.lastReply()).toBe(visible("help"));
    expect(await answerTime(w, () => u.sendCommand("menu"))).toBeDefined();
    expect(u.lastReply()).toBe(visible("menu-title"));
    expect(await answerTime(w, () => u.sendCommand("bahasa"))).toBeDefined();
    expect(u.buttons()).toContain("🇬🇧 English");
    // Choosing one needs the store: told so, nothing half-done.
    expect(await answerTime(w, () => u.pressButton("🇬🇧 English"))).toBeDefined();
    expect(storageDown).toContain(u.lastReply());

    w.thawStore();
    await w.repairStore();
    await u.sendCommand("saldo");
    expect(u.lastReply()).toContain("Saldo:");
    await u.sendCommand("riwayat");
    expect(storageDown).not.toContain(u.lastReply());
  });
});
