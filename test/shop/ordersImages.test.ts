/** The shop order's images: the QR decodes to the provider's qr_string; the receipt is a PNG of the receipt's width. */
import { describe, expect, it } from "vitest";
import { buildQris } from "../../src/sandbox/index.js";
import { qrisPng, svgToPngOffThread } from "../../src/render/orderImages.js";
import { pngSize } from "../../src/render/png.js";
import { customerReceipt, receiptSvg, RECEIPT_WIDTH } from "../../src/render/receiptImage.js";
import { createTranslate } from "../../src/render/i18n.js";
import type { TxRecord } from "../../src/store/index.js";
import { decodeQrPng } from "../support/qr.js";

describe("shop order images", () => {
  it("the QRIS photo decodes to exactly the provider's qr_string, at least 600 px wide", async () => {
    const qr = buildQris({ amount: 21_000, reference: "SO260115ABCDEFGH" });
    const png = await qrisPng(qr);
    expect(decodeQrPng(png)).toBe(qr);
    expect(pngSize(png)!.width).toBeGreaterThanOrEqual(600);
  });

  it("the receipt renders off the event loop to a PNG of the receipt's width", async () => {
    const tx = { refId: "SO260115ABCDEFGH", chatId: 1, kind: "prepaid", status: "success", title: "PLN 20.000", target: "12345678901", amount: 21_000, createdAt: 0, updatedAt: 0 } as TxRecord;
    const png = await svgToPngOffThread(receiptSvg(customerReceipt(createTranslate(), "id", tx, {}, false)), RECEIPT_WIDTH);
    expect(pngSize(png)?.width).toBe(RECEIPT_WIDTH);
  });
});
