/**
 * Two bot processes on one PostgreSQL behind a load balancer: a user's updates may reach
 * either. A flow started on one goes on on the other (its state is in the database), a Confirm
 * pressed on both creates once, and the rate limit counts on both. Each app has its own fake Bot
 * API and sandbox (same demo account and catalog); records and what processes share are in one database.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ManualClock } from "../../src/tools/clock.js";
import { silentLogger } from "../../src/logging/logger.js";
import { PgShared } from "../../src/cluster/pgShared.js";
import { makeUser } from "../support/chat.js";
import { freshDatabase, hasPg } from "../support/pg.js";
import { makeWorld, type World } from "../support/world.js";

const CREATE = "/transaksi/create";
const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close();
});

async function twoProcesses(opts: Parameters<typeof makeWorld>[0] = {}): Promise<[World, World]> {
  const url = await freshDatabase();
  // Each its own PgShared (as each process has), not started: neither leads, updates go to both.
  const shared = (clock: ManualClock) => PgShared.open(url, { clock, logger: silentLogger });
  const a = await makeWorld({ ...opts, shared, env: { STORE_URL: url } });
  worlds.push(a);
  const b = await makeWorld({ ...opts, shared, env: { STORE_URL: url } });
  worlds.push(b);
  // Telegram's update ids are unique across both; the two fakes count from the same start.
  for (let i = 0; i < 10_000; i++) b.fake.nextUpdateId();
  return [a, b];
}

describe.skipIf(!hasPg)("two processes on one PostgreSQL, updates on either", () => {
  it("a flow started on one goes on on the other; Confirm pressed on both creates once", async () => {
    const [a, b] = await twoProcesses();
    const onA = await a.linkedUser({ languageCode: "en" });
    const id = onA.chatId;
    await onA.sendCommand("beli", "S10");
    expect(onA.lastReply()).toContain("phone number");

    const onB = makeUser({ handleUpdate: (u) => b.bot.handleUpdate(u) }, b.fake, { id, languageCode: "en", clock: b.clock });
    await onB.sendText("081234567890");
    expect(onB.lastReply()).toContain("Target: 081234567890");
    expect(onB.lastReply()).toContain("Check before you confirm");

    // The confirm screen is in B's chat; the user taps Confirm twice and each tap reaches another process.
    const tapOnA = makeUser({ handleUpdate: (u) => a.bot.handleUpdate(u) }, b.fake, { id, languageCode: "en", clock: a.clock });
    const first = tapOnA.callbackUpdate(/Confirm/);
    const second = onB.callbackUpdate(/Confirm/);
    second.update_id = first.update_id + 1;
    await Promise.all([a.bot.handleUpdate(first), b.bot.handleUpdate(second)]);
    expect(a.sandbox.calls(CREATE).length + b.sandbox.calls(CREATE).length).toBe(1);
    const { items } = await a.store.listTxByChat(id);
    expect(items.map((t) => t.status)).toEqual(["pending"]);
  });

  it("the per-user rate limit counts updates on both", async () => {
    const [a, b] = await twoProcesses({ bot: { rateLimit: { timeFrameMs: 60_000, limit: 3 } } });
    const onA = a.user({ languageCode: "en", id: 888001 });
    const onB = makeUser({ handleUpdate: (u) => b.bot.handleUpdate(u) }, b.fake, { id: 888001, languageCode: "en", clock: b.clock });
    await onA.sendCommand("help");
    await onB.sendCommand("help");
    await onA.sendCommand("help");
    await onB.sendCommand("help"); // the 4th in the window
    const texts = [...a.fake.sentTo(888001), ...b.fake.sentTo(888001)].map((c) => String(c.payload.text));
    expect(texts.filter((t) => t.includes("Help"))).toHaveLength(3);
    expect(texts.filter((t) => t.includes("Too fast"))).toHaveLength(1);
  });
});
