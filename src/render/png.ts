/**
 * SVG to PNG for the images the bot sends (receipts, report charts): resvg renders with the
 * bundled DejaVu fonts only, so an image looks the same on every server and never depends on
 * the system's fonts. Loaded on first use: a start that sends no image does not pay for it.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Resvg, ResvgRenderOptions } from "@resvg/resvg-js";

const require = createRequire(import.meta.url);

/** The font family name to use in SVG templates. */
export const IMAGE_FONT = "DejaVu Sans";

let fontFiles: string[] | undefined;
/** The bundled DejaVu font files every image renders with (never the system's). */
export function imageFontFiles(): string[] {
  if (!fontFiles) {
    const dir = join(dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf");
    fontFiles = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf"].map((f) => join(dir, f));
  }
  return fontFiles;
}

/** Renders `svg` to a PNG `width` pixels wide (the height follows the SVG's aspect ratio). */
export async function svgToPng(svg: string, width: number): Promise<Buffer> {
  // require, not import(): the native addon is a CommonJS package.
  const addon = require("@resvg/resvg-js") as { Resvg: typeof Resvg };
  return new addon.Resvg(svg, imageRenderOptions(width)).render().asPng();
}

/** resvg's options for every image: `width` pixels wide on white, the bundled fonts only. */
export function imageRenderOptions(width: number): ResvgRenderOptions {
  return {
    fitTo: { mode: "width", value: width },
    background: "#ffffff",
    font: { fontFiles: imageFontFiles(), loadSystemFonts: false, defaultFontFamily: IMAGE_FONT },
  };
}

/** Width and height from a PNG's header, for checks (tests, the playground). */
export function pngSize(png: Uint8Array): { width: number; height: number } | undefined {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.length < 24 || signature.some((b, i) => png[i] !== b)) return undefined;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
