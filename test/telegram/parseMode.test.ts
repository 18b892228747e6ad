/** The default parse mode (telegram/parseMode.ts): what each request goes out with, also when sent again. */
import { describe, expect, it } from "vitest";
import { htmlByDefault, MAX_TEXT } from "../../src/telegram/parseMode.js";

/** Passes a request through the transformer and returns the payload it went out with. */
function sent(method: string, payload: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  void htmlByDefault((_m, p) => ((out = p as Record<string, unknown>), Promise.resolve({ ok: true, result: true }) as never), method as never, payload as never);
  return { ...out! };
}

describe("HTML by default", () => {
  it("a message goes out as HTML, a long one clipped, and the same when auto-retry sends its payload again", async () => {
    const payload = { chat_id: 1, text: `<b>${"x".repeat(5000)}</b>` };
    const first = sent("sendMessage", payload);
    expect(first.parse_mode).toBe("HTML");
    expect((first.text as string).endsWith("…</b>")).toBe(true);
    expect((first.text as string).replace(/<\/?b>/g, "").length).toBeLessThanOrEqual(MAX_TEXT);
    expect(sent("sendMessage", payload)).toEqual(first);
    expect(sent("sendPhoto", { chat_id: 1, photo: "id", caption: "<i>c</i>" })).toEqual({ chat_id: 1, photo: "id", caption: "<i>c</i>", parse_mode: "HTML" });
  });

  it("a request with a parse mode or entities of its own, or with no text, goes out as it came", async () => {
    const own = [
      ["sendMessage", { chat_id: 1, text: "*x*", parse_mode: "MarkdownV2" }],
      ["sendMessage", { chat_id: 1, text: "x", entities: [{ type: "bold", offset: 0, length: 1 }] }],
      ["sendPhoto", { chat_id: 1, photo: "id", caption: "x", caption_entities: [] }],
      ["sendPhoto", { chat_id: 1, photo: "id" }],
      ["answerCallbackQuery", { callback_query_id: "q", text: "<b>x</b>" }],
    ] as const;
    for (const [method, payload] of own) expect(sent(method, { ...payload })).toEqual(payload);
  });
});
