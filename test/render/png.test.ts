import { describe, expect, it } from "vitest";
import { pngSize, svgToPng } from "../../src/render/png.js";

describe("svgToPng", () => {
  it("renders an SVG with text to a PNG of the asked width, with the bundled font", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><text x="10" y="50" font-size="20">Rp102.200</text></svg>`;
    const png = await svgToPng(svg, 400);
    expect(pngSize(png)).toEqual({ width: 400, height: 200 });
    // The text drew something: a blank white image compresses to far less.
    const blank = await svgToPng(`<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"></svg>`, 400);
    expect(png.length).toBeGreaterThan(blank.length + 200);
  });

  it("pngSize refuses what is not a PNG", () => {
    expect(pngSize(new Uint8Array([1, 2, 3]))).toBeUndefined();
  });
});
