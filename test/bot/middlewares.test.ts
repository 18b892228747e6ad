import { describe, expect, it } from "vitest";
import type { Update } from "grammy/types";
import { WayOuts } from "../../src/bot/middlewares/wayOuts.js";
import { apiKeyOf, ChatRecordContext, ChatRecords, knownChatRecord } from "../../src/bot/middlewares/chatRecord.js";
import { sequentializeChats } from "../../src/bot/middlewares/sequentialize.js";
import type { BaseContext, BotContext } from "../../src/bot/context.js";
import type { ChatRecord } from "../../src/store/index.js";

let updateId = 1;
function update(chatId: number, text: string): { chat: { id: number }; update: Update } {
  const chat = { id: chatId, type: "private" as const, first_name: "T" };
  const message = { message_id: updateId, date: 0, chat, from: { id: chatId, is_bot: false, first_name: "T" }, text };
  return { chat, update: { update_id: updateId++, message } as Update };
}

/** Runs `ctx` through the counting middleware; `during` runs while it is in flight. */
async function run(wayOuts: WayOuts, ctx: ReturnType<typeof update>, during: () => Promise<unknown> = async () => undefined): Promise<void> {
  await wayOuts.count(ctx as unknown as BotContext, async () => void (await during()));
}

describe("way-out counting", () => {
  it("an update overtaken by /batal of its chat knows it; one of another chat, or a later one, does not", async () => {
    const wayOuts = new WayOuts();
    const slow = update(1, "/beli");
    const other = update(2, "/beli");
    let seen: boolean[] = [];
    await run(wayOuts, slow, () =>
      run(wayOuts, other, async () => {
        await run(wayOuts, update(1, "/batal"));
        seen = [wayOuts.overtaken(slow), wayOuts.overtaken(other)];
      }),
    );
    expect(seen).toEqual([true, false]);
    const later = update(1, "halo");
    await run(wayOuts, later, async () => void (seen = [wayOuts.overtaken(later)]));
    expect(seen).toEqual([false]);
  });

  it("remembers only chats with an update in flight: 10,000 chats' ways out leave nothing behind", async () => {
    const wayOuts = new WayOuts();
    let peak = 0;
    for (let chat = 1; chat <= 10_000; chat++) {
      await run(wayOuts, update(chat, chat % 2 ? "/batal" : "/menu"), async () => void (peak = Math.max(peak, wayOuts.chatsTracked)));
    }
    expect(peak).toBe(1);
    expect(wayOuts.chatsTracked).toBe(0);
  });
});

describe("the chat record of an update", () => {
  /** A store whose chat 1 is `current`, counting reads. */
  function store(current: { record: ChatRecord }) {
    const s = { reads: 0, getChat: async () => (s.reads++, current.record), canPersist: () => true };
    return s;
  }
  const ctxOf = (u: ReturnType<typeof update>) => ({ chat: u.chat, update: u.update }) as unknown as BaseContext;

  it("a flow's context for the update in flight shares the record: a change through either is seen by both, with no new read", async () => {
    const current = { record: { chatId: 1, lang: "id", createdAt: 0, updatedAt: 0 } as ChatRecord };
    const s = store(current);
    const records = new ChatRecords(s);
    const u = update(1, "/beli");
    const outer = ctxOf(u);
    const flow = ctxOf(u);
    await records.load(outer, async () => {
      await records.inFlow(flow, async () => undefined);
      flow.chatRecord = { ...current.record, lang: "en" };
    });
    expect(outer.chatRecord?.lang).toBe("en");
    expect(s.reads).toBe(1);
  });

  it("an older update a flow replays gets the record as it is now, not the one of its own time", async () => {
    const current = { record: { chatId: 1, lang: "id", createdAt: 0, updatedAt: 0 } as ChatRecord };
    const s = store(current);
    const records = new ChatRecords(s);
    const older = update(1, "10000");
    await records.load(ctxOf(older), async () => undefined);
    current.record = { ...current.record, apiKeyEnc: "sealed" };
    const now = update(1, "20000");
    const replayed = ctxOf(older);
    await records.load(ctxOf(now), async () => void (await records.inFlow(replayed, async () => undefined)));
    expect(replayed.chatRecord?.apiKeyEnc).toBe("sealed");
  });

  it("a store that cannot be reached leaves the record unknown, not absent: the update goes on, and whatever needs the record gets the store's error", async () => {
    const down = new Error("database unreachable");
    const records = new ChatRecords({ getChat: () => Promise.reject(down), canPersist: () => false });
    const ctx = ctxOf(update(1, "/bantuan"));
    let ran = false;
    await records.load(ctx, async () => {
      ran = true;
      expect(() => ctx.chatRecord).toThrow(down);
      expect(knownChatRecord(ctx)).toBeUndefined();
      await expect(apiKeyOf(ctx)).rejects.toBe(down);
      // A record saved later (the store came back) is known again.
      ctx.chatRecord = { chatId: 1, lang: "en", createdAt: 0, updatedAt: 0 };
      expect(knownChatRecord(ctx)?.lang).toBe("en");
    });
    expect(ran).toBe(true);
  });

  it("the bot's own context class keeps the same record: shared with a flow's context, unknown while unreadable, known once set", async () => {
    const current = { record: { chatId: 1, lang: "id", createdAt: 0, updatedAt: 0 } as ChatRecord };
    const records = new ChatRecords(store(current));
    const u = update(1, "/beli");
    const outer = new ChatRecordContext(u.update, {} as never, {} as never) as unknown as BaseContext;
    await records.load(outer, async () => {
      await records.inFlow(ctxOf(u), async () => undefined);
      const flow = ctxOf(u);
      await records.inFlow(flow, async () => undefined);
      flow.chatRecord = { ...current.record, lang: "en" };
    });
    expect(outer.chatRecord?.lang).toBe("en");
    const down = new Error("database unreachable");
    const unreachable = new ChatRecords({ getChat: () => Promise.reject(down), canPersist: () => false });
    const ctx = new ChatRecordContext(update(1, "/bantuan").update, {} as never, {} as never) as unknown as BaseContext;
    await unreachable.load(ctx, async () => {
      expect(() => ctx.chatRecord).toThrow(down);
      expect(knownChatRecord(ctx)).toBeUndefined();
      ctx.chatRecord = { chatId: 1, lang: "en", createdAt: 0, updatedAt: 0 };
      expect(knownChatRecord(ctx)?.lang).toBe("en");
    });
  });

  it("a read that fails while the store can still persist (a damaged row) fails the update as before", async () => {
    const damaged = new Error("row damaged");
    const records = new ChatRecords({ getChat: () => Promise.reject(damaged), canPersist: () => true });
    await expect(records.load(ctxOf(update(1, "/bantuan")), async () => undefined)).rejects.toBe(damaged);
  });
});

describe("one chat's updates in order", () => {
  const seq = sequentializeChats();
  const ctxOf = (u: ReturnType<typeof update>) => ({ chat: u.chat, from: u.chat, update: u.update }) as unknown as BotContext;
  const later = () => new Promise<void>((resolve) => setImmediate(resolve));

  it("a chat's second update waits for its first (even a failed one); another chat's and a way out do not", async () => {
    const log: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = seq(ctxOf(update(1, "/beli")), async () => {
      log.push("1 start");
      await held;
      log.push("1 end");
      throw new Error("handler failed");
    });
    const second = seq(ctxOf(update(1, "halo")), async () => void log.push("1 second"));
    const other = seq(ctxOf(update(2, "halo")), async () => void log.push("2"));
    const wayOut = seq(ctxOf(update(1, "/batal")), async () => void log.push("1 batal"));
    await later();
    expect(log).toEqual(["1 start", "2", "1 batal"]);
    release();
    await expect(first).rejects.toThrow("handler failed");
    await Promise.all([second, other, wayOut]);
    expect(log).toEqual(["1 start", "2", "1 batal", "1 end", "1 second"]);
    // Nothing held: the chat's next update runs at once.
    await seq(ctxOf(update(1, "lagi")), async () => void log.push("1 next"));
    expect(log.at(-1)).toBe("1 next");
  });
});
