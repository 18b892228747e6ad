/** Self-tests of the best-effort parse_mode emulation used by the fake Bot API. */
import { describe, expect, it } from "vitest";
import { parseFormatted } from "../support/telegramFormat.js";
import { FakeBotApi } from "../support/fakeBotApi.js";

const ok = (text: string, mode: string) => parseFormatted(text, mode);

describe("parseFormatted", () => {
  it("MarkdownV2: renders entities and escapes, rejects reserved characters", () => {
    expect(ok("*Saldo:* Rp10\\.000 _\\(aktif\\)_ [web](https://x.y/a_b) `a.b` ||s||", "MarkdownV2")).toEqual({
      ok: true,
      text: "Saldo: Rp10.000 (aktif) web a.b s",
    });
    expect(ok("Rp10.000", "MarkdownV2")).toMatchObject({ ok: false, description: expect.stringContaining("Character '.' is reserved") });
    expect(ok("ppob_bot", "MarkdownV2")).toMatchObject({ ok: false, description: expect.stringContaining("Italic") });
    expect(ok("a - b", "MarkdownV2")).toMatchObject({ ok: false });
    expect(ok("> quoted\n\\> not", "MarkdownV2")).toEqual({ ok: true, text: " quoted\n> not" });
  });

  it("HTML: strips allowed tags, decodes entities, rejects unknown/unbalanced tags", () => {
    expect(ok('<b>A</b> &lt;3 &amp; <a href="https://x">link</a> &#65;', "HTML")).toEqual({ ok: true, text: "A <3 & link A" });
    expect(ok("1 < 2", "HTML")).toMatchObject({ ok: false });
    expect(ok("<b>x</i>", "HTML")).toMatchObject({ ok: false, description: expect.stringContaining("Unmatched end tag") });
    expect(ok("<b>x", "HTML")).toMatchObject({ ok: false });
    expect(ok("<br>", "HTML")).toMatchObject({ ok: false, description: expect.stringContaining('Unsupported start tag "br"') });
  });

  it("legacy Markdown: unclosed entity is an error", () => {
    expect(ok("*bold* [t](u)", "Markdown")).toEqual({ ok: true, text: "bold t" });
    expect(ok("ppob_bot", "Markdown")).toMatchObject({ ok: false });
  });
});

describe("request decoding", () => {
  it("accepts URL-encoded bodies and GET query parameters", async () => {
    const fake = new FakeBotApi();
    await fake.fetch("https://api.telegram.org/botT/sendMessage", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "chat_id=5&text=hi%20there&reply_markup=%7B%22inline_keyboard%22%3A%5B%5D%7D",
    });
    expect(fake.lastCall()!.payload).toEqual({ chat_id: 5, text: "hi there", reply_markup: { inline_keyboard: [] } });
    await fake.fetch("https://api.telegram.org/botT/sendMessage?chat_id=6&text=q");
    expect(fake.sentTo(6).map((c) => fake.textOf(c))).toEqual(["q"]);
    const res = await fake.fetch("https://api.telegram.org/botT/someFutureMethod", { method: "POST" });
    expect(await res.json()).toEqual({ ok: true, result: true });
  });
});
