/**
 * The deployment the README describes: two bot processes on one PostgreSQL (store and what they share),
 * long polling, one leading. The server stops (connections refused, every session ended, the lead's
 * lock with them): every update still gets the storage-unavailable answer within 2 s, as with one
 * process (databaseDown.test.ts), and once the server is back the bot answers as usual.
 */
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logging/logger.js";
import { PgShared } from "../../src/cluster/pgShared.js";
import { makeUser, type FakeUser } from "../support/chat.js";
import { bringDatabaseBack, freshDatabase, hasPg, takeDatabaseDown } from "../support/pg.js";
import { until } from "../support/settle.js";
import { makeWorld, type World } from "../support/world.js";

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closing.splice(0).reverse()) await c();
});

/** Real time for an answer due in 2 s of clock time: twice that, for a loaded machine. */
const REAL_LIMIT_MS = 4000;

/**
 * Pushes `send`'s update to Telegram (the fake) and moves both clocks in 100 ms steps, up to 2 s, with
 * real time for the database and the long poll; how much clock time passed until the chat got an answer.
 */
async function answerTime(worlds: World[], u: FakeUser, send: () => void): Promise<number | undefined> {
  const w = worlds[0]!;
  const before = w.fake.sentTo(u.chatId).length;
  const clockStart = w.clock.now();
  const realStart = performance.now();
  send();
  while (performance.now() - realStart < REAL_LIMIT_MS) {
    if (w.fake.sentTo(u.chatId).length > before) return w.clock.now() - clockStart;
    if (w.clock.now() - clockStart < 2000) for (const x of worlds) await x.clock.advance(100);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return undefined;
}

describe.skipIf(!hasPg)("PostgreSQL stopped under two bot processes", () => {
  it("/saldo, /beli, /start and /riwayat each hear within 2 s that storage is unavailable; after it is back, /saldo answers", async () => {
    const url = await freshDatabase();
    const name = new URL(url).pathname.slice(1);
    const app = async () => {
      const w = await makeWorld({ shared: (clock) => PgShared.open(url, { clock, logger: silentLogger }), env: { STORE_URL: url } });
      closing.push(() => w.close());
      return w;
    };
    const a = await app();
    const b = await app();
    closing.push(() => bringDatabaseBack(name)); // runs before the worlds close
    await a.app.start();
    await until(() => a.app.shared.leadership().isLeader() && a.fake.callsOf("getUpdates").length > 0, { clocks: [a.clock], stepMs: 1000, what: "a leads and polls" });
    await b.app.start();
    await until(() => b.app.shared.leadership().isLeader() === false, { clocks: [b.clock], stepMs: 1000, what: "b stands by" });

    // The user writes to Telegram, which the leading process polls.
    await a.store.setApiKey(700001, a.demoKey);
    const u = makeUser(null, a.fake, { id: 700001, languageCode: "id", clock: a.clock });
    const storageDown = ["store-unavailable", "store-write-failed"].map((key) => a.deps.translate("id", key).replace(/<[^>]+>/g, ""));

    await takeDatabaseDown(name);
    for (const command of ["saldo", "beli", "start", "riwayat"]) {
      const took = await answerTime([a, b], u, () => a.fake.pushUpdate(u.textUpdate(`/${command}`)));
      expect(took, `/${command} got no answer within 2 s`).toBeDefined();
      expect(took!).toBeLessThanOrEqual(2000);
      expect(storageDown, `/${command}`).toContain(u.lastReply());
    }

    // Back: whichever process leads now polls, and answers as usual.
    await bringDatabaseBack(name);
    const leader = () => [a, b].find((w) => w.app.shared.leadership().isLeader());
    await until(() => leader() !== undefined && a.store.canPersist() && b.store.canPersist(), { clocks: [a.clock, b.clock], stepMs: 1000, what: "a process leads again" });
    const l = leader()!;
    const again = makeUser(null, l.fake, { id: 700001, languageCode: "id", clock: l.clock });
    l.fake.pushUpdate(again.textUpdate("/saldo"));
    await until(() => (again.lastReply() ?? "").includes("Saldo:"), { clocks: [a.clock, b.clock], stepMs: 100, what: "/saldo answers once the database is back" });
  });
});
