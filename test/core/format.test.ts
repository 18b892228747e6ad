import { describe, expect, it } from "vitest";
import { billMonth, clipHtml, html, rupiah, wibClock, wibTime } from "../../src/render/format.js";
import { formatWib, parseWib } from "../../src/tools/time.js";

describe("formatting", () => {
  it("writes whole rupiah grouped as the reader's language groups numbers", () => {
    expect(rupiah(10000, "id")).toBe("Rp10.000");
    expect(rupiah(1234567, "id")).toBe("Rp1.234.567");
    expect(rupiah(0, "id")).toBe("Rp0");
    expect(rupiah(-2500, "id")).toBe("-Rp2.500");
    expect(rupiah(10000, "en")).toBe("Rp10,000");
    expect(rupiah(-1234567.4, "en")).toBe("-Rp1,234,567");
  });

  it("shows times in WIB whatever the server's zone", () => {
    const at = Date.UTC(2026, 10, 22, 17, 30); // 00:30 next day in WIB
    expect(wibTime(at, "id")).toMatch(/^23 Nov 2026.*00\.30 WIB$/);
    expect(wibTime(at, "en")).toMatch(/^23 Nov 2026.*00:30 WIB$/);
  });

  it("writes months and times in the chat's own language, a third one too, with no code for it", () => {
    expect(billMonth("202512", "id")).toBe("Des 2025");
    expect(billMonth("202512", "en")).toBe("Dec 2025");
    // Malay as a third locales/ms.ftl would bring it: ICU's words, not Indonesian or English ones.
    expect(billMonth("202512", "ms")).toBe("Dis 2025");
    expect(wibTime(Date.UTC(2025, 11, 1), "ms")).toMatch(/^1 Dis 2025.*07:00 WIB$/);
    expect(wibClock(Date.UTC(2025, 11, 1), "ms")).toBe("07:00 WIB");
    expect(billMonth("2025-12", "ms")).toBeUndefined();
  });

  it("parses the provider's zone-less timestamps as WIB and round-trips them", () => {
    const d = parseWib("2023-12-26 13:16:19");
    expect(d?.toISOString()).toBe("2023-12-26T06:16:19.000Z");
    expect(formatWib(d!)).toBe("2023-12-26 13:16:19");
    expect(parseWib("xxxxxxxx")).toBeNull();
  });

  it("escapes HTML so provider text cannot break a message", () => {
    expect(html("<b>A & B</b>")).toBe("&lt;b&gt;A &amp; B&lt;/b&gt;");
  });

  it("cuts HTML to a visible length outside tags and entities and closes what is open", () => {
    expect(clipHtml("<b>short</b>", 10)).toBe("<b>short</b>");
    const long = `<b>Title</b>\n<i>${"a&amp;b ".repeat(20)}</i><code>x</code>`;
    const cut = clipHtml(long, 30);
    expect(cut).toMatch(/…<\/i>$/);
    expect(cut.replace(/<[^>]+>/g, "").replace(/&[a-z]+;/g, "&").length).toBeLessThanOrEqual(30);
    expect(cut).not.toMatch(/&[a-z]*…/); // never inside an entity
    expect(clipHtml(`<a href="https://x.y/${"p".repeat(100)}">${"😀".repeat(20)}</a>`, 9)).toBe(`<a href="https://x.y/${"p".repeat(100)}">😀😀😀😀…</a>`);
  });
});

