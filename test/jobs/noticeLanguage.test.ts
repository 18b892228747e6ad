/**
 * A notice is written in the chat's language at the moment it goes out: one that waited in the send
 * pacer (another sender's 429 holds everyone) while the chat switched language is not sent in the old
 * one (a deposit notice came in English right after a switch to Indonesian).
 */
import { describe, expect, it } from "vitest";
import { Notifier } from "../../src/jobs/watcher/notify.js";
import { createTranslate } from "../../src/render/i18n.js";
import type { Pacer, PaceSlot } from "../../src/telegram/pacer.js";
import type { Lang, TxRecord } from "../../src/store/index.js";

const at = Date.UTC(2026, 0, 15, 3);
const deposit = {
  refId: "DP260115ABCDEFGH", chatId: 42, kind: "deposit", status: "success", code: "qris", title: "QRIS", amount: 50_000,
  upstreamId: "D1", detail: { credited: 49_650 }, createdAt: at, updatedAt: at,
} as TxRecord;

describe("a watcher notice held by the pacer", () => {
  it("goes out in the language the chat has when it is sent, not when it was queued", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const pacer: Pacer = { take: async () => (await held, { goingOut: () => undefined } satisfies PaceSlot), pause: () => undefined };
    const sent: string[] = [];
    const api = { sendMessage: async (_chat: number, text: string) => (sent.push(text), { message_id: 1 }) };
    let chatLang: Lang = "en";
    const notifier = new Notifier(api as never, createTranslate(), { sandbox: false, maxAgeHours: () => 24, pacer, langOf: async () => chatLang });

    const delivering = notifier.deliver("en", deposit, "success", false);
    await Promise.resolve();
    chatLang = "id"; // /bahasa while the notice waits for its slot
    release();
    expect(await delivering).toBe("sent");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain("Deposit masuk");
    expect(sent[0]).not.toContain("Deposit received");
  });
});
