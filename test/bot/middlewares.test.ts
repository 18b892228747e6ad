import { describe, expect, it } from "vitest";
import type { Update } from "grammy/types";
import { WayOuts } from "../../src/bot/middlewares/wayOuts.js";
import type { BotContext } from "../../src/bot/context.js";

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
