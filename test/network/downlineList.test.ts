/**
 * The owner's /downline with many downlines (up to DOWNLINES_MAX): 20 a page with "Berikutnya", each
 * page within Telegram's 4,096 characters, the count and what the wallets hold on every page.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support/world.js";

let w: World;
beforeEach(async () => {
  w = await makeWorld();
});
afterEach(() => w.close());

const name = (i: number) => `D${String(i).padStart(4, "0")}`;

describe("the owner's /downline with many downlines", () => {
  it("1,000 downlines page 20 at a time, each page within Telegram's limit", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const network = w.app.deps.network;
    for (let i = 0; i < 1_000; i++) {
      const invite = await network.invite(rina.chatId, 1);
      if (typeof invite === "string") throw new Error(invite);
      const joined = await network.join(invite.token, { chat: 5_000_000 + i, name: name(i), ownsKey: false });
      if (typeof joined === "string") throw new Error(joined);
    }
    await rina.sendCommand("downline");
    const first = rina.messages().at(-1)!;
    expect(first.text!.length).toBeLessThanOrEqual(4_096);
    expect(first.text).toContain("Downline Anda (1.000)");
    expect(first.text).toContain("Halaman 1 dari 50");
    expect(first.text).toContain(name(19));
    expect(first.text).not.toContain(name(20));
    expect(first.text).toContain("Dompet downline berisi");
    const buttons = rina.buttons({ messageId: first.messageId });
    expect(buttons.filter((b) => /^D\d{4}$/.test(b))).toHaveLength(20);
    expect(buttons).toContain("Berikutnya ➡️");
    expect(buttons).not.toContain("⬅️ Sebelumnya");
    expect(buttons.some((b) => /Undang downline Gold/.test(b))).toBe(true);

    await rina.pressButton(/Berikutnya/, { messageId: first.messageId });
    const second = w.fake.message(rina.chatId, first.messageId)!.message;
    expect(second.text).toContain("Halaman 2 dari 50");
    expect(second.text).toContain(name(20));
    expect(second.text).toContain(name(39));
    expect(second.text).not.toContain(name(19));
    expect(rina.buttons({ messageId: first.messageId })).toEqual(expect.arrayContaining(["⬅️ Sebelumnya", "Berikutnya ➡️", name(20)]));
    // A tap opens that downline's card, as from the first page.
    await rina.pressButton(new RegExp(`^${name(25)}$`), { messageId: first.messageId });
    expect(rina.lastReply()).toContain(name(25));
  });

  it("a few downlines: one page, no pager", async () => {
    const rina = await w.linkedUser({ firstName: "Rina", languageCode: "id" });
    const invite = await w.app.deps.network.invite(rina.chatId, 1);
    if (typeof invite === "string") throw new Error(invite);
    await w.app.deps.network.join(invite.token, { chat: 5_000_000, name: "Andi", ownsKey: false });
    await rina.sendCommand("downline");
    expect(rina.lastReply()).not.toContain("Halaman");
    expect(rina.buttons()).not.toContain("Berikutnya ➡️");
  });
});
