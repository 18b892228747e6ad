/**
 * Leader-only jobs fenced by the lead's term: once another process began a newer term (this one has not
 * heard yet that its lock is gone), the broadcast, the daily summary, the relink notices and the balance
 * alerts of the old leader write and send nothing more, and the new leader finishes the work once.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Clock } from "../../src/tools/clock.js";
import type { LeadFence } from "../../src/cluster/index.js";
import { LocalShared } from "../../src/cluster/localShared.js";
import { RelinkNotices } from "../../src/jobs/relink.js";
import { SendPacer } from "../../src/telegram/pacer.js";
import { silentLogger } from "../../src/logging/logger.js";
import { BROADCAST_META_KEY, type BroadcastState } from "../../src/jobs/broadcastState.js";
import type { FakeUser } from "../support/chat.js";
import { makeWorld, type World } from "../support/world.js";

const ADMIN = 990_001;
const HOUR = 3_600_000;

/** LocalShared whose term the test moves: `mine` is the term this process leads in, `current` the shared one. */
class MovingTerm extends LocalShared {
  mine = 1;
  current = 1;
  constructor(clock: Clock, dir: string) {
    super(clock, dir);
  }
  override fence(): LeadFence {
    return {
      term: () => this.mine,
      fenced: async (term, write) => {
        if (term !== this.current) return false;
        await write();
        return true;
      },
    };
  }
  /** Another process took the lead. */
  lost(): void {
    this.current = this.mine + 1;
  }
  /** This process leads again, in the newest term. */
  leadsAgain(): void {
    this.mine = this.current;
  }
}

let w: World;
let shared: MovingTerm;
afterEach(() => w.close());

async function world(): Promise<void> {
  w = await makeWorld({ adminIds: [ADMIN], shared: (clock, dir) => (shared = new MovingTerm(clock, dir)) });
}

async function users(n: number): Promise<FakeUser[]> {
  const list: FakeUser[] = [];
  for (let i = 0; i < n; i++) list.push(await w.linkedUser({ languageCode: "en" }));
  return list;
}

/** Moves the clock in small steps, with real time for I/O in between, until `p` settles. */
async function settle(p: Promise<unknown>, stepMs = 100): Promise<void> {
  let done = false;
  void p.finally(() => (done = true)).catch(() => undefined);
  for (let i = 0; i < 3000 && !done; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    await w.clock.advance(stepMs);
  }
  expect(done, "background work did not finish").toBe(true);
}

const messagesTo = (chatId: number) => w.fake.sentTo(chatId).filter((c) => c.method === "sendMessage");

describe("leader-only jobs under an old term", () => {
  it("broadcast: the old leader stops sending once a newer term began; the new leader sends the rest, each chat once", async () => {
    await world();
    const list = await users(6);
    const ids = new Set(list.map((u) => u.chatId));
    let sends = 0;
    w.fake.setResponder((method, payload) => {
      if (method === "sendMessage" && ids.has(Number(payload.chat_id)) && ++sends === 2) shared.lost();
      return undefined;
    });
    const b = w.deps.broadcaster!;
    expect(await b.start(ADMIN, "en", { kind: "text", text: "Maintenance 23.00" })).toEqual({ ok: true, total: 6 });
    await settle(b.idle());
    expect(list.map((u) => messagesTo(u.chatId).length)).toEqual([1, 1, 0, 0, 0, 0]);
    const left = (await w.store.getMeta<BroadcastState>(BROADCAST_META_KEY))!;
    expect(left).toMatchObject({ status: "running", sent: 2 });

    shared.leadsAgain();
    expect(await b.resume()).toBe(true);
    await settle(b.idle());
    expect(list.map((u) => messagesTo(u.chatId).length)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(await w.store.getMeta<BroadcastState>(BROADCAST_META_KEY)).toMatchObject({ status: "done", sent: 6 });
  });

  it("daily summary: nothing is marked or sent under an old term; the next lead sends it once", async () => {
    await world();
    const [u] = await users(1);
    await w.store.updateChat(u!.chatId, { dailySummary: true });
    await w.clock.advance(11 * HOUR + 60_000); // 21.01 WIB
    shared.lost();
    w.app.dailySummary.start();
    await settle(w.app.dailySummary.idle());
    expect(messagesTo(u!.chatId)).toHaveLength(0);
    expect((await w.store.getChat(u!.chatId))?.summaryDay).toBeUndefined();

    await w.app.dailySummary.stop();
    shared.leadsAgain();
    w.app.dailySummary.start();
    await settle(w.app.dailySummary.idle());
    expect(messagesTo(u!.chatId)).toHaveLength(1);
    expect((await w.store.getChat(u!.chatId))?.summaryDay).toBe("2026-01-15");
  });

  it("relink notices: an old leader asks no chat and leaves the marks for the new leader", async () => {
    await world();
    const list = await users(3);
    for (const u of list) {
      await w.store.clearApiKey(u.chatId);
      await w.store.updateChat(u.chatId, { keyLost: true });
    }
    const relink = () =>
      new RelinkNotices({ store: w.store, api: w.bot.api, pacer: new SendPacer(w.clock), translate: w.app.translate, logger: silentLogger, fence: shared.fence() });
    const old = relink();
    shared.lost();
    old.start();
    await settle(old.idle());
    expect(list.flatMap((u) => messagesTo(u.chatId))).toHaveLength(0);
    for (const u of list) expect((await w.store.getChat(u.chatId))?.keyLost).toBe(true);

    shared.leadsAgain();
    const next = relink();
    next.start();
    await settle(next.idle());
    expect(list.map((u) => messagesTo(u.chatId).length)).toEqual([1, 1, 1]);
    for (const u of list) expect((await w.store.getChat(u.chatId))?.keyLost).toBeUndefined();
  });

  it("balance alerts: a check under an old term neither alerts nor marks the dip, and the old leader's alerts stop", async () => {
    await world();
    const [u] = await users(1);
    await w.store.updateChat(u!.chatId, { alertThreshold: 1_000_000_000 });
    const alerts = w.app.alerts;
    alerts.start();
    shared.lost();
    expect(await alerts.checkChat(u!.chatId)).toBe("skipped");
    expect(messagesTo(u!.chatId)).toHaveLength(0);
    expect((await w.store.getChat(u!.chatId))?.alertFired).toBeUndefined();
    expect(alerts.signal.aborted).toBe(true);

    shared.leadsAgain();
    alerts.start();
    expect(await alerts.checkChat(u!.chatId)).toBe("alerted");
    expect(messagesTo(u!.chatId)).toHaveLength(1);
    expect((await w.store.getChat(u!.chatId))?.alertFired).toBe(true);
  });
});
