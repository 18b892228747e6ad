/**
 * The receipt PNG made on a worker: the same bytes as the event-loop render it replaced, the event loop
 * left free while it is made, and a bounded pool.
 */
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import type { renderAsync as RenderAsync } from "@resvg/resvg-js";
import { svgToPngOffThread } from "../../src/render/orderImages.js";
import { imageRenderOptions, svgToPng } from "../../src/render/png.js";
import { pngWorkerCount } from "../../src/render/pngWorker.js";
import { customerReceipt, receiptSvg, RECEIPT_WIDTH } from "../../src/render/receiptImage.js";
import { createTranslate } from "../../src/render/i18n.js";
import type { TxRecord } from "../../src/store/index.js";

const require = createRequire(import.meta.url);
const { renderAsync } = require("@resvg/resvg-js") as { renderAsync: typeof RenderAsync };

function receipt(n: number): string {
  const tx = { refId: `SO260115ABCD${String(n).padStart(4, "0")}`, chatId: 1, kind: "prepaid", status: "success", title: "PLN 20.000", target: `9${n}1234567890`, amount: 21_000, sn: `1234-5678-${n}`, createdAt: 0, updatedAt: 0 } as TxRecord;
  return receiptSvg(customerReceipt(createTranslate(), "id", tx, { shopName: "Toko Rina" }, false));
}

describe("receipt PNG on a worker", () => {
  it("gives the same bytes as resvg's render and encode on this thread", async () => {
    const svg = receipt(1);
    const before = (await renderAsync(svg, imageRenderOptions(RECEIPT_WIDTH))).asPng();
    const png = await svgToPngOffThread(svg, RECEIPT_WIDTH);
    expect(Buffer.compare(png, before)).toBe(0);
    expect(Buffer.compare(png, await svgToPng(svg, RECEIPT_WIDTH))).toBe(0);
  });

  it("leaves the event loop free while receipts are made, with a bounded pool", async () => {
    await svgToPngOffThread(receipt(0), RECEIPT_WIDTH); // the worker and fonts loaded
    await svgToPng(receipt(1), RECEIPT_WIDTH);
    const images = 8;
    /** The event loop's busy time while `images` receipts are made by `make`, in ms. */
    const busyWhile = async (make: (svg: string) => Promise<Buffer>, from: number) => {
      const svgs = Array.from({ length: images }, (_, i) => receipt(from + i));
      const start = performance.eventLoopUtilization();
      const pngs = await Promise.all(svgs.map((svg) => make(svg)));
      const busy = performance.eventLoopUtilization(start).active;
      for (const [i, png] of pngs.entries()) {
        expect(Buffer.compare(png, (await renderAsync(svgs[i]!, imageRenderOptions(RECEIPT_WIDTH))).asPng())).toBe(0);
      }
      return busy;
    };
    // Against the same work encoded on this thread, in the same minutes (an absolute bound failed on a
    // machine loaded 7 times over): ~20 ms of the loop per receipt there, under 1 ms handed to a worker.
    // Interleaved, the least of two each: a preemption lands on one round, not on both.
    const onThread: number[] = [];
    const offThread: number[] = [];
    for (let round = 0; round < 2; round++) {
      onThread.push(await busyWhile((svg) => svgToPng(svg, RECEIPT_WIDTH), 10 + round * 20));
      offThread.push(await busyWhile((svg) => svgToPngOffThread(svg, RECEIPT_WIDTH), 20 + round * 20));
    }
    expect(Math.min(...offThread) * 4).toBeLessThan(Math.min(...onThread));
    expect(pngWorkerCount()).toBeLessThanOrEqual(2);
  });
});
