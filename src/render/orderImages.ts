/**
 * The shop order's images, made without holding the event loop: a shop sends one QR and one receipt
 * per order, and a thousand orders at once must not queue behind image work. The QR is encoded
 * straight to a 1-bit PNG (the qrcode package's own PNG writer takes ~200 ms a QR on the main thread;
 * this takes a few); the receipt renders and encodes on a worker thread (pngWorker.ts).
 */
import { createRequire } from "node:module";
import { crc32, deflateSync } from "node:zlib";
import type { renderAsync as RenderAsync } from "@resvg/resvg-js";
import { imageRenderOptions } from "./png.js";
import { PngWorkerGoneError, svgToPngOnWorker } from "./pngWorker.js";

const require = createRequire(import.meta.url);

/** Pixels the QR aims at (quiet zone included): large enough to scan from a phone screen. */
const QR_TARGET_PX = 640;
const QUIET_MODULES = 4;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A black-on-white 1-bit PNG of the QR code for `text` (error correction M, 4-module quiet zone). */
export async function qrisPng(text: string): Promise<Buffer> {
  const { default: QRCode } = await import("qrcode");
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const size = modules.size + 2 * QUIET_MODULES;
  const scale = Math.max(1, Math.floor(QR_TARGET_PX / size));
  const width = size * scale;
  const rowBytes = Math.ceil(width / 8);
  const raw = Buffer.alloc((rowBytes + 1) * width, 0xff);
  for (let y = 0; y < width; y++) {
    const row = y * (rowBytes + 1);
    raw[row] = 0; // filter: none
    const my = Math.floor(y / scale) - QUIET_MODULES;
    if (my < 0 || my >= modules.size) continue;
    for (let x = 0; x < width; x++) {
      const mx = Math.floor(x / scale) - QUIET_MODULES;
      if (mx < 0 || mx >= modules.size || !modules.get(my, mx)) continue;
      raw[row + 1 + (x >> 3)]! &= ~(0x80 >> (x & 7)); // a dark module: bit 0
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(width, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

/**
 * `svg` to a PNG `width` pixels wide, off the event loop (same fonts and bytes as render/png.ts). If the
 * worker cannot run, the image is still made: rendered on the thread pool, encoded on this thread.
 */
export async function svgToPngOffThread(svg: string, width: number): Promise<Buffer> {
  try {
    return await svgToPngOnWorker(svg, width);
  } catch (err) {
    if (!(err instanceof PngWorkerGoneError)) throw err;
    const { renderAsync } = require("@resvg/resvg-js") as { renderAsync: typeof RenderAsync };
    return (await renderAsync(svg, imageRenderOptions(width))).asPng();
  }
}
