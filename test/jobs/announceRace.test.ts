/**
 * Two watchers (an old leader still draining, the new one started) see the same change at once.
 * Both read the record before either marked it: the notice must still go out once.
 */
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logging/logger.js";
import type { Store } from "../../src/store/api.js";
import { PgStore } from "../../src/store/pg/pgStore.js";
import { NoticeProtocol } from "../../src/jobs/watcher/announce.js";
import type { Notifier } from "../../src/jobs/watcher/notify.js";
import { freshDatabase, hasPg } from "../support/pg.js";
import { openStore, tempDir } from "../store/helpers.js";
import { makeWorld, type World } from "../support/world.js";
import { pendingPrepaid } from "./support.js";

const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

const SECRET = "0123456789abcdef0123";
const places: { name: string; skip: boolean; open: () => Promise<[Store, Store]> }[] = [
  {
    name: "one file store, two watchers",
    skip: false,
    open: async () => {
      const s = await openStore(await tempDir());
      return [s, s];
    },
  },
  {
    name: "two processes on one PostgreSQL",
    skip: !hasPg,
    open: async () => {
      const url = await freshDatabase();
      return [await PgStore.open({ url, secret: SECRET }), await PgStore.open({ url, secret: SECRET })];
    },
  },
];

/**
 * Each watcher's view of the store counts its first transitionTx (the "announcing" mark); the
 * notifier holds every delivery until both marks were tried, so the two watchers surely overlap.
 */
function overlapping(stores: [Store, Store]): { views: [Store, Store]; notifier: Notifier; sent: () => number } {
  let marked = 0;
  let bothMarked!: () => void;
  const gate = new Promise<void>((r) => (bothMarked = r));
  const view = (s: Store): Store => {
    let first = true;
    return new Proxy(s, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (prop !== "transitionTx" || typeof v !== "function") return typeof v === "function" ? v.bind(target) : v;
        return async (...args: unknown[]) => {
          const out: unknown = await (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          if (first && (first = false, ++marked === 2)) bothMarked();
          return out;
        };
      },
    });
  };
  let sent = 0;
  const notifier = {
    deliver: async () => {
      await gate;
      sent++;
      return "sent";
    },
  } as unknown as Notifier;
  return { views: [view(stores[0]), view(stores[1])], notifier, sent: () => sent };
}

describe.each(places)("two watchers announce the same change: $name", ({ open, skip }) => {
  it.skipIf(skip)("the success notice goes out once and is recorded", async () => {
    const [s1, s2] = await open();
    opened.push(...new Set([s1, s2]));
    await s1.createTx({ refId: "TP1", chatId: 5, kind: "prepaid", status: "pending", amount: 10_000, code: "S10", target: "0812" } as never);
    const cur1 = (await s1.getTx("TP1"))!;
    const cur2 = (await s2.getTx("TP1"))!;
    const { views, notifier, sent } = overlapping([s1, s2]);
    const p1 = new NoticeProtocol(views[0], notifier, silentLogger);
    const p2 = new NoticeProtocol(views[1], notifier, silentLogger);
    await Promise.all([p1.announce(cur1, "success", {}, "success"), p2.announce(cur2, "success", {}, "success")]);
    expect(sent()).toBe(1);
    expect(await s1.getTx("TP1")).toMatchObject({ status: "success", watch: { notified: "success" } });
  });

  it.skipIf(skip)("a notice that keeps the status (owed, gave up) also goes out once, even when the other watcher read late", async () => {
    const [s1, s2] = await open();
    opened.push(...new Set([s1, s2]));
    await s1.createTx({ refId: "TP2", chatId: 5, kind: "prepaid", status: "failed", amount: 10_000, code: "S10", target: "0812" } as never);
    const cur1 = (await s1.getTx("TP2"))!;
    const cur2 = (await s2.getTx("TP2"))!;
    let sent = 0;
    const notifier = { deliver: async () => (sent++, "sent") } as unknown as Notifier;
    // The first finishes entirely (status unchanged, marker dropped) before the second claims.
    await new NoticeProtocol(s1, notifier, silentLogger).announce(cur1, "failed", {}, "failed");
    await new NoticeProtocol(s2, notifier, silentLogger).announce(cur2, "failed", {}, "failed");
    expect(sent).toBe(1);
  });
});

describe("a transaction event on a standby while the leader is sending its notice", () => {
  let w: World | undefined;
  afterEach(async () => {
    await w?.close();
    w = undefined;
  });

  it("does not clear the leader's announcing mark: the outcome is still recorded after the notice", async () => {
    w = await makeWorld({ watcher: true });
    const world = w;
    const u = await w.linkedUser();
    const tx = await pendingPrepaid(w, u.chatId, "081234567890");
    const cur = (await w.store.getTx(tx.refId))!;
    let sent = 0;
    const notifier = {
      // While the leader's notice is on its way, the same transaction's event reaches a watcher (trackNow).
      deliver: async () => {
        world.watcher!.track(cur);
        await world.watcher!.whenIdle();
        sent++;
        return "sent";
      },
    } as unknown as Notifier;
    await new NoticeProtocol(w.store, notifier, silentLogger).announce(cur, "success", {}, "success");
    expect(sent).toBe(1);
    expect(await w.store.getTx(tx.refId)).toMatchObject({ status: "success", watch: { notified: "success" } });
  });
});
