/**
 * A database that stops answering (a stopped PostgreSQL, a cut network) or refuses connections: every
 * update still gets an answer within 2 s, saying storage is unavailable where storage is needed; help,
 * the menu and the language picker need none and keep working; once the database is back, all works.
 */
import { helpText } from "../../src/telegram/roleCommands.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";
import { onPostgres } from "../support/pg.js";
import type { FakeUser } from "../support/chat.js";

/**
 * The answer is due within 2 s on the clock (the gate's deadlines run on it). Real time gets twice that
 * for a loaded machine: what the gate replaced waited on the driver's own connect timers, 5-10 s each.
 */
const REAL_LIMIT_MS = 4000;

/**
 * Runs `act` while the clock moves on in 100 ms steps up to `limitMs`; the database answers in real
 * time, so real time runs on too, up to `limitMs`. How long (clock and real ms) until it was done.
 */
async function answerTime(w: World, act: () => Promise<unknown>, limitMs = 2000): Promise<{ clockMs: number; realMs: number } | undefined> {
  const clockStart = w.clock.now();
  const realStart = performance.now();
  let done = false;
  void act().then(() => (done = true));
  while (!done && performance.now() - realStart < REAL_LIMIT_MS) {
    if (w.clock.now() - clockStart < limitMs) await w.clock.advance(100);
    await new Promise((resolve) => setTimeout(resolve, 5)); // real I/O: the database's answers
  }
  return done ? { clockMs: w.clock.now() - clockStart, realMs: performance.now() - realStart } : undefined;
}

const ways = [
  { name: "stops answering", down: (w: World) => w.freezeStore(), back: (w: World) => w.thawStore() },
  { name: "refuses connections", down: (w: World) => w.breakStore(), back: () => undefined },
];

describe.skipIf(!onPostgres).each(ways)("PostgreSQL $name", ({ down, back }) => {
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
    await back(w);
    await w.close();
  });

  it("/saldo, /beli, /start and /riwayat each hear within 2 s that storage is unavailable", async () => {
    await down(w);
    for (const command of ["saldo", "beli", "start", "riwayat"]) {
      const took = await answerTime(w, () => u.sendCommand(command));
      expect(took, `/${command} got no answer within 2 s`).toBeDefined();
      expect(took!.realMs).toBeLessThan(REAL_LIMIT_MS);
      expect(took!.clockMs).toBeLessThanOrEqual(2000);
      expect(storageDown, `/${command}`).toContain(u.lastReply());
    }
  });

  it("/bantuan, /menu and the language picker answer as usual; after the database is back everything works", async () => {
    await down(w);
    expect(await answerTime(w, () => u.sendCommand("bantuan")), "/bantuan").toBeDefined();
    // The owner's help: the chat's record (its role) cannot be read, so the full list.
    expect(u.lastReply()).toBe(helpText(w.deps.translate, "owner", "id").replace(/<[^>]+>/g, ""));
    expect(await answerTime(w, () => u.sendCommand("menu")), "/menu").toBeDefined();
    expect(u.lastReply()).toBe(visible("menu-title"));
    expect(await answerTime(w, () => u.sendCommand("bahasa")), "/bahasa").toBeDefined();
    expect(u.buttons()).toContain("🇬🇧 English");
    // Choosing one needs the store: told so, nothing half-done.
    expect(await answerTime(w, () => u.pressButton("🇬🇧 English")), "English").toBeDefined();
    expect(storageDown).toContain(u.lastReply());

    await back(w);
    await w.repairStore();
    await u.sendCommand("saldo");
    expect(u.lastReply()).toContain("Saldo:");
    await u.sendCommand("riwayat");
    expect(storageDown).not.toContain(u.lastReply());
  });
});
