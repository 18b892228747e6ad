import { afterEach, describe, expect, it, vi } from "vitest";
import { Api } from "grammy";
import { ManualClock } from "../../src/tools/clock.js";
import { silentLogger } from "../../src/logging/logger.js";
import { Broadcaster } from "../../src/jobs/broadcast.js";
import { BROADCAST_META_KEY, type BroadcastState } from "../../src/jobs/broadcastState.js";
import { SendPacer } from "../../src/telegram/pacer.js";
import { FAKE_BOT_TOKEN } from "../support/botInfo.js";
import type { FakeUser } from "../support/chat.js";
import { TelegramErrors, type RecordedCall } from "../support/fakeBotApi.js";
import { makeWorld, type World } from "../support/world.js";
import { REAL_TIME_BOUND, settle, until } from "../support/settle.js";

const ADMIN = 990_001;
const TEXT = { kind: "text", text: "Promo akhir pekan" } as const;

let w: World;
let gate: Gate;
let b: Broadcaster | undefined;
afterEach(async () => {
  gate?.releaseAll(true);
  await b?.stop();
  b = undefined;
  await w.close();
});

/**
 * An Api whose sendMessage requests to users wait at the gate until released: "the request went
 * out, the answer has not come back". The fake sees (and delivers) a request when it is released.
 */
class Gate {
  readonly held = new Map<number, () => void>();
  private open = false;

  constructor(private readonly world: World) {}

  api(): Api {
    return new Api(FAKE_BOT_TOKEN, {
      fetch: (async (url: string, init: { body?: unknown }) => {
        const body = typeof init.body === "string" ? (JSON.parse(init.body) as { chat_id?: number }) : {};
        if (!this.open && String(url).endsWith("/sendMessage") && body.chat_id !== undefined && body.chat_id !== ADMIN) {
          await new Promise<void>((resolve) => this.held.set(body.chat_id!, resolve));
        }
        return this.world.fake.fetch(url, init as never);
      }) as never,
    });
  }

  release(chatId: number): void {
    const r = this.held.get(chatId);
    expect(r, `chat ${chatId} is not held`).toBeDefined();
    this.held.delete(chatId);
    r!();
  }

  releaseAll(forever = false): void {
    if (forever) this.open = true;
    for (const id of [...this.held.keys()]) this.release(id);
  }
}

async function setup(n: number): Promise<FakeUser[]> {
  w = await makeWorld({ adminIds: [ADMIN] });
  const users: FakeUser[] = [];
  for (let i = 0; i < n; i++) users.push(await w.linkedUser({ languageCode: "en" }));
  gate = new Gate(w);
  return users;
}

function broadcaster(concurrency: number): Broadcaster {
  return new Broadcaster({
    store: w.store,
    api: gate.api(),
    clock: w.clock,
    logger: silentLogger,
    translate: w.app.translate,
    pacer: new SendPacer(w.clock, 25),
    concurrency,
  });
}

const state = async () => (await w.store.getMeta<BroadcastState>(BROADCAST_META_KEY))!;
const delivered = (chatId: number): RecordedCall[] =>
  w.fake.sentTo(chatId).filter((c) => c.method === "sendMessage");
const sorted = (xs: readonly number[]) => [...xs].sort((x, y) => x - y);
const heldIds = () => sorted([...gate.held.keys()]);

describe("Broadcaster with several sends in flight", () => {
  it("keeps at most N in flight, records them before the request, and takes answers in any order", async () => {
    const users = await setup(10);
    const ids = users.map((u) => u.chatId);
    b = broadcaster(4);
    await b.start(ADMIN, "en", TEXT);

    await vi.waitFor(() => expect(gate.held.size).toBe(4), REAL_TIME_BOUND);
    expect(heldIds()).toEqual(ids.slice(0, 4));
    await w.store.flush();
    expect(sorted((await state()).inFlight!)).toEqual(ids.slice(0, 4));

    // Answers out of order: the cursor waits for the first, the rest are "done ahead".
    gate.release(ids[2]!);
    gate.release(ids[1]!);
    await vi.waitFor(() => expect(gate.held.size).toBe(4), REAL_TIME_BOUND);
    expect(await state()).toMatchObject({ doneThrough: null, doneAhead: [ids[1], ids[2]], sent: 2 });
    expect(heldIds()).toEqual([ids[0], ids[3], ids[4], ids[5]]);
    gate.release(ids[0]!);
    await vi.waitFor(async () => expect((await state()).doneThrough).toBe(ids[2]), REAL_TIME_BOUND);
    expect((await state()).doneAhead).toBeUndefined();

    gate.releaseAll(true);
    await settle(w.clock, b.idle(), { stepMs: 100 });
    for (const id of ids) expect(delivered(id)).toHaveLength(1);
    expect(await state()).toMatchObject({ status: "done", sent: 10, uncertain: 0 });
    expect((await state()).inFlight).toBeUndefined();
  });

  it("after a crash with N in flight: those N are uncertain and not sent again, answers recorded out of order are kept", async () => {
    const users = await setup(12);
    const ids = users.map((u) => u.chatId);
    b = broadcaster(4);
    await b.start(ADMIN, "en", TEXT);
    await vi.waitFor(() => expect(gate.held.size).toBe(4), REAL_TIME_BOUND);
    gate.release(ids[1]!);
    gate.release(ids[2]!);
    await vi.waitFor(() => expect(gate.held.size).toBe(4), REAL_TIME_BOUND);
    await w.store.flush();
    // What the disk holds at this moment; a crash now leaves exactly this.
    const atCrash = structuredClone(await state());
    expect(atCrash).toMatchObject({ doneThrough: null, doneAhead: [ids[1], ids[2]], sent: 2 });
    expect(sorted(atCrash.inFlight!)).toEqual([ids[0], ids[3], ids[4], ids[5]]);

    // The held requests did reach Telegram (the worst case for duplicates); then the process "dies".
    gate.releaseAll(true);
    await b.stop();
    await w.store.setMeta(BROADCAST_META_KEY, atCrash);
    await w.restart();
    b = broadcaster(4);
    expect(await b.resume()).toBe(true);
    await settle(w.clock, b.idle(), { stepMs: 100 });

    for (const id of ids) expect(delivered(id), `chat ${id}`).toHaveLength(1);
    expect(await state()).toMatchObject({ status: "done", sent: 8, uncertain: 4 });
    expect(w.fake.textOf(w.fake.sentTo(ADMIN).at(-1)!)).toContain("4 chat(s) were being sent to");
  });

  it("a 429 for one chat while others are in flight: that chat is sent again after the pause, nobody twice", async () => {
    const users = await setup(8);
    gate.releaseAll(true); // no holding: answers come straight back
    w.fake.failNext("sendMessage", TelegramErrors.tooManyRequests(2), { chatId: users[1]!.chatId });
    w.fake.failNext("sendMessage", TelegramErrors.blocked(), { chatId: users[5]!.chatId });
    b = broadcaster(4);
    await b.start(ADMIN, "en", TEXT);
    await settle(w.clock, b.idle(), { stepMs: 100 });
    for (const u of users) expect(delivered(u.chatId)).toHaveLength(u === users[5] ? 0 : 1);
    expect(await state()).toMatchObject({ status: "done", sent: 7, blocked: 1, failed: 0, uncertain: 0 });
    expect((await w.store.getChat(users[5]!.chatId))!.inactive).toBe(true);
  });

  it("a stuck request holds the cursor: no send starts more than 64 places past it, then all go on", async () => {
    const users = await setup(70);
    const ids = users.map((u) => u.chatId);
    b = broadcaster(4);
    await b.start(ADMIN, "en", TEXT);
    await vi.waitFor(() => expect(gate.held.size).toBe(4), REAL_TIME_BOUND);
    // Everyone but the first answers at once, as their requests come in.
    await until(
      async () => {
        for (const id of heldIds()) if (id !== ids[0]) gate.release(id);
        return (await state()).doneAhead?.length === 63 && gate.held.size === 1;
      },
      { clocks: [w.clock], stepMs: 200, what: "the sends 63 places past the stuck one never all answered" },
    );
    expect((await state()).doneAhead).toHaveLength(63); // indices 1..63
    expect((await state()).doneThrough).toBeNull();
    expect(delivered(ids[64]!)).toHaveLength(0);
    gate.releaseAll(true);
    await settle(w.clock, b.idle(), { stepMs: 100 });
    for (const id of ids) expect(delivered(id)).toHaveLength(1);
    expect(await state()).toMatchObject({ status: "done", sent: 70 });
  });
});

describe("SendPacer after a 429", () => {
  it("waits out the pause, goes `step` slower, and wins 1/s back per calm `recoverMs`", async () => {
    const clock = new ManualClock();
    const pacer = new SendPacer(clock, 4, { afterRateLimit: { step: 2, floor: 1, recoverMs: 3000 } });
    const start = clock.now();
    const times: number[] = [];
    const take = async (n: number) => {
      for (let i = 0; i < n; i++) {
        await pacer.acquire();
        times.push(clock.now() - start);
      }
    };
    await take(4); // free slots: no clock time needed
    expect(times).toEqual([0, 0, 0, 0]);
    pacer.pause(1000);
    pacer.pause(1000); // answers of the same burst: one step, not two
    expect(pacer.currentPerSecond()).toBe(2);
    const p = take(6);
    await clock.advance(3500);
    await p;
    // 2 per second from the end of the pause (the 4 earlier stamps have left the window by then).
    expect(times.slice(4)).toEqual([1000, 1000, 2000, 2000, 3000, 3000]);
    expect(pacer.currentPerSecond(start + 3999)).toBe(2);
    expect(pacer.currentPerSecond(start + 4000)).toBe(3);
    expect(pacer.currentPerSecond(start + 7000)).toBe(4);

    // Repeated 429s step down to the floor, no further.
    for (let i = 0; i < 5; i++) {
      pacer.pause(100);
      await clock.advance(200);
    }
    expect(pacer.currentPerSecond()).toBe(1);
  });

  it("with a small burst spreads a second's budget evenly instead of releasing it at once", async () => {
    const clock = new ManualClock();
    const pacer = new SendPacer(clock, 10, { burst: 1.5 });
    const start = clock.now();
    const times: number[] = [];
    const all = (async () => {
      for (let i = 0; i < 12; i++) {
        await pacer.acquire();
        times.push(clock.now() - start);
      }
    })();
    await clock.advance(2000);
    await all;
    // The first two 50 ms apart (the half token), then one every 100 ms; the 11th waits for the
    // first to leave the 1 s window (never more than 10 in any second).
    expect(times).toEqual([0, 50, 150, 250, 350, 450, 550, 650, 750, 850, 1000, 1050]);
  });
});
