/**
 * Decodes a QR code from PNG bytes (e.g. `user.lastPhoto()`), so tests can check that a
 * payment QR photo really encodes the expected payload.
 */
import jsQRModule from "jsqr";
import { PNG } from "pngjs";

type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
// jsqr is a CommonJS/UMD bundle: depending on the loader the default import is the function
// itself or a namespace holding it under `default`.
const jsQR: JsQr =
  typeof jsQRModule === "function" ? jsQRModule : (jsQRModule as unknown as { default: JsQr }).default;

/** Returns the text encoded in the QR code of a PNG image; throws if none is found. */
export function decodeQrPng(bytes: Buffer | Uint8Array): string {
  const png = PNG.sync.read(Buffer.from(bytes));
  const result = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
  if (!result) throw new Error(`No QR code found in the ${png.width}x${png.height} PNG`);
  return result.data;
}
