/**
 * Sari, a customer of Rina's online shop, in the playground page in headless Chromium (as
 * test/playground/browser.test.ts runs it): she searches, taps a product, sends a number and reaches
 * the summary with "Bayar dengan QRIS"; a screenshot of that for docs/shop.md (docs/shop-customer.png
 * with UPDATE_SHOTS=1). Real time: kept under ~20 s.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logging/logger.js";
import { startPlayground, type Playground } from "../../src/playground/index.js";
import { ROOT } from "../support/mainProcess.js";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);

describe.skipIf(!hasChromium)("Sari shops in Rina's online shop, in headless Chromium", () => {
  let pg: Playground;
  let browser: BrowserContext;
  let profile: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "playground-"));
    profile = await mkdtemp(join(tmpdir(), "chromium-profile-"));
    pg = await startPlayground({ dataDir, port: 0, logger: silentLogger, settleMs: 10 * 60_000 });
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      viewport: { width: 820, height: 820 },
    });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await pg?.stop();
    await rm(profile, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it("search, product, number, the summary with the QRIS button", async () => {
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(15_000);
    await page.goto(pg.url);
    await page.click("#welcome-ok");
    await page.locator("#users li", { hasText: "Sari" }).click();
    await expect.poll(() => page.textContent("#chat-sub")).toBe("Sari · pelanggan toko online");
    const bot = page.locator('.msg.bot[id^="m-1005-"]');
    await bot.filter({ hasText: "Pilih kategori" }).waitFor();
    const send = async (text: string) => {
      await page.fill("#input", text);
      await page.press("#input", "Enter");
    };
    await send("pulsa 10");
    await bot.last().locator(".kb button", { hasText: "Telkomsel 10.000" }).click();
    await bot.filter({ hasText: "Kirim nomor HP tujuan" }).waitFor();
    await send("081234567890");
    const summary = bot.filter({ hasText: "Ringkasan pesanan" }).last();
    await summary.waitFor();
    expect(await summary.locator(".kb button").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("Bayar dengan QRIS")]));
    expect(await summary.textContent()).toContain("Total bayar: Rp");
    const shot = process.env.UPDATE_SHOTS === "1" ? join(ROOT, "docs", "shop-customer.png") : join(tmpdir(), "shop-customer-test.png");
    await page.screenshot({ path: shot });
  }, 30_000);
});
