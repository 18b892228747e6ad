import { describe, expect, it } from "vitest";
import { createTranslate } from "../../src/render/i18n.js";
import { pngSize, svgToPng } from "../../src/render/png.js";
import { customerReceipt, plnToken, RECEIPT_WIDTH, receiptCaption, receiptSvg } from "../../src/render/receiptImage.js";
import { sellingPrice } from "../../src/domain/sale.js";
import type { TxRecord } from "../../src/store/index.js";

const t = createTranslate();
const at = Date.UTC(2026, 10, 23, 7, 5); // 14.05 WIB

function prepaid(over: Partial<TxRecord> = {}): TxRecord {
  return {
    refId: "TX261123PABCD1234", chatId: 1, kind: "prepaid", status: "success", code: "PLN50", title: "PLN 50.000",
    target: "12345678901", amount: 50_113, sn: "1234-5678-9012-3456-7890/BUDI/R1/1300VA/32,5kWh",
    detail: { category: "PLN" }, createdAt: at, updatedAt: at + 60_000, ...over,
  } as TxRecord;
}

describe("customer receipt (pure)", () => {
  it("escapes text for XML: a shop name with markup renders as text, never breaks the SVG", async () => {
    const shop = { shopName: `<svg onload="x">&'Ani'`, shopFooter: "a < b & c > d" };
    const r = customerReceipt(t, "id", prepaid(), shop, false);
    const svg = receiptSvg(r);
    expect(svg).toContain("&lt;svg onload=&quot;x&quot;&gt;&amp;&apos;Ani&apos;");
    expect(svg).toContain("a &lt; b &amp; c &gt; d");
    expect(svg).not.toContain(`onload="x"`);
    const png = await svgToPng(svg, RECEIPT_WIDTH);
    expect(pngSize(png)?.width).toBe(RECEIPT_WIDTH);
    expect(receiptCaption(r)).toContain("&lt;svg onload=&quot;x&quot;&gt;");
  });

  it("a control character from the provider (serial number, product name) cannot break the image", async () => {
    const r = customerReceipt(t, "id", prepaid({ sn: "SN\u0001123\u001b", title: "Telkomsel\u000b 10.000" }), {}, false);
    const png = await svgToPng(receiptSvg(r), RECEIPT_WIDTH);
    expect(pngSize(png)?.width).toBe(RECEIPT_WIDTH);
  });

  it("groups a PLN token in fours (any separators), keeps the provider's details; other serials stay as they are", () => {
    expect(plnToken(prepaid())).toEqual({ token: "1234 5678 9012 3456 7890", rest: "BUDI / R1 / 1300VA / 32,5kWh" });
    expect(plnToken(prepaid({ sn: "12345678901234567890" }))?.token).toBe("1234 5678 9012 3456 7890");
    expect(plnToken(prepaid({ code: "S10", title: "Telkomsel 10.000", detail: {}, sn: "12345678901234567890" }))).toBeUndefined();
    expect(plnToken(prepaid({ sn: "123456" }))).toBeUndefined();
  });

  it("shows the selling price when one was fixed, else the cost; the time of the sale in WIB", () => {
    expect(sellingPrice(prepaid())).toBe(50_113);
    expect(sellingPrice(prepaid({ sale: { price: 52_500, profit: 2_387 } }))).toBe(52_500);
    const r = customerReceipt(t, "id", prepaid({ sale: { price: 52_500, profit: 2_387 } }), {}, false);
    const svg = receiptSvg(r);
    expect(svg).toContain("Rp52.500");
    expect(svg).not.toContain("Rp50.113");
    expect(svg).not.toContain("Rp2.387");
    expect(r.time).toBe("23 Nov 2026, 14.05 WIB");
  });

  it("a sandbox sale says on the image and in the caption that it is not real", () => {
    const r = customerReceipt(t, "en", prepaid(), {}, true);
    expect(receiptSvg(r)).toContain("NOT A REAL SALE");
    expect(receiptCaption(r)).toContain("NOT A REAL SALE");
  });
});
