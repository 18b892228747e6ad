import { describe, expect, it } from "vitest";
import type { Message } from "grammy/types";
import type { FakeMessage } from "../../src/playground/botApi/index.js";
import { messageView, viewHtml } from "../../src/playground/view.js";

describe("what the page shows of a message", () => {
  it("a /command in the bot's text is tappable, as in Telegram; not inside code, pre or a link, nor a path", () => {
    expect(viewHtml("Ketik /beli KODE TUJUAN atau /batal.", undefined)).toBe(
      'Ketik <span class="cmd" role="link" tabindex="0">/beli</span> KODE TUJUAN atau <span class="cmd" role="link" tabindex="0">/batal</span>.',
    );
    expect(viewHtml("<b>Lihat /status_ref</b> <code>/beli S10</code> <a href=\"https://x.test/a/b\">/menu</a> a/b", "HTML")).toBe(
      '<b>Lihat <span class="cmd" role="link" tabindex="0">/status_ref</span></b> <code>/beli S10</code> <a href="https://x.test/a/b" target="_blank" rel="noopener noreferrer">/menu</a> a/b',
    );
  });

  it("an edited message carries its edit time, not only its send time", () => {
    const message = { message_id: 5, date: 1_000, edit_date: 1_600, chat: { id: 1, type: "private", first_name: "R" }, text: "x" } as unknown as Message;
    const fm: FakeMessage = { messageId: 5, chatId: 1, from: "bot", kind: "text", text: "x", raw: "x", deleted: false, edited: true, message, touchedSeq: 0 };
    expect(messageView(fm)).toMatchObject({ date: 1_000, editDate: 1_600, edited: true });
    expect(messageView({ ...fm, edited: false, message: { ...message, edit_date: undefined } as unknown as Message })).not.toHaveProperty("editDate");
  });

  it("a copy button (Salin SN) is shown as one that copies its text, not as a dead button", () => {
    const message = { message_id: 6, date: 1_000, chat: { id: 1, type: "private", first_name: "R" }, text: "x" } as unknown as Message;
    const fm: FakeMessage = {
      messageId: 6, chatId: 1, from: "bot", kind: "text", text: "x", raw: "x", deleted: false, edited: false, message, touchedSeq: 0,
      inlineKeyboard: [[{ text: "📋 Salin SN", copy_text: { text: "1234-5678" } }]],
    } as FakeMessage;
    expect(messageView(fm).keyboard).toEqual([[{ text: "📋 Salin SN", copy: "1234-5678" }]]);
  });
});
