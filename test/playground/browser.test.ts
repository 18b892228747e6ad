/**
 * The playground in a real browser: headless Chromium from the system (installed by
 * .ci/install-chromium.sh; CI runs it), driven by playwright-core, no browser download. Opens the
 * page, does a /beli to its success notice and a QRIS /deposit, and takes a screenshot (docs/playground.png
 * for the README with UPDATE_SHOTS=1, as `npm run shots` does); then the admin attaches a photo to /siaran.
 * Real time (the page, Chromium and the watcher's 5 s checks): kept under ~60 s.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/logging/logger.js";
import { startPlayground, type Playground } from "../../src/playground/index.js";
import { decodeQrPng } from "../support/qr.js";
import { ROOT } from "../support/mainProcess.js";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
const title = hasChromium
  ? "the playground in headless Chromium"
  : `the playground in headless Chromium: SKIPPED, no ${CHROMIUM} (run .ci/install-chromium.sh)`;

describe.skipIf(!hasChromium)(title, () => {
  let pg: Playground;
  let browser: BrowserContext;
  let page: Page;
  let profile: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "playground-"));
    profile = await mkdtemp(join(tmpdir(), "chromium-profile-"));
    // Purchases stay pending until the panel settles them: the test chooses when.
    pg = await startPlayground({ dataDir, port: 0, logger: silentLogger, settleMs: 10 * 60_000 });
    // A fresh profile (playwright passes it as --user-data-dir).
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
      ],
      viewport: { width: 820, height: 820 },
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(15_000);
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await pg?.stop();
    await rm(profile, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  const bot = () => page.locator(".msg.bot");
  const tap = (label: string | RegExp) => page.locator(".msg.bot").last().locator(".kb button", { hasText: label }).click();
  const send = async (text: string) => {
    await page.fill("#input", text);
    await page.press("#input", "Enter");
  };

  it("start, a /beli to its success notice, a QRIS deposit's QR image; a screenshot for the README", async () => {
    await page.goto(pg.url);
    await expect.poll(() => page.locator("#users li").count()).toBe(3);

    // The command menu comes from setMyCommands.
    await page.click("#menu-btn");
    await page.locator("#commands button", { hasText: "/start" }).click();
    await bot().filter({ hasText: "Akun Anda sudah terhubung" }).waitFor();

    await send("/beli");
    await tap(/Pulsa/);
    await tap(/TELKOMSEL/);
    await tap(/Telkomsel 10\.000 ·/);
    await bot().last().filter({ hasText: "Kirim nomor HP tujuan" }).waitFor();
    await send("081234567890");
    const confirm = bot().last();
    await confirm.filter({ hasText: "Periksa sebelum konfirmasi" }).waitFor();
    await tap(/Konfirmasi/);
    // The confirm screen becomes the pending receipt (an edit, live).
    await page.locator("#pending li", { hasText: "081234567890" }).waitFor();
    await page.locator("#pending li", { hasText: "081234567890" }).locator("button", { hasText: "Settle: success" }).click();
    // The watcher's next check (5 s apart while young) sees it and the notice arrives.
    await bot().filter({ hasText: "Transaksi berhasil" }).first().waitFor({ timeout: 20_000 });

    await send("/deposit");
    await send("qris");
    await tap(/^QRIS · /);
    await bot().last().filter({ hasText: "Minimal" }).waitFor();
    await send("50000");
    await bot().last().filter({ hasText: "Metode: QRIS" }).waitFor();
    await tap(/Konfirmasi/);
    // answerCallbackQuery's text shows as a toast over the chat.
    await page.locator("#toast", { hasText: "Memproses" }).waitFor();
    const photo = page.locator(".msg.bot img.photo").last();
    await photo.waitFor();
    await expect.poll(() => photo.evaluate((img) => { const i = img as unknown as { complete: boolean; naturalWidth: number }; return i.complete ? i.naturalWidth : 0; })).toBeGreaterThan(100);
    // The page shows the very image the bot uploaded: it decodes to the deposit's QRIS payload.
    const src = await photo.getAttribute("src");
    const bytes = Buffer.from(await (await fetch(new URL(src!, pg.url))).arrayBuffer());
    expect(decodeQrPng(bytes)).toMatch(/^000201/);

    await page.locator("#toast").waitFor({ state: "hidden" });
    await photo.scrollIntoViewIfNeeded();
    // The README's picture is redrawn only on purpose (npm run shots); a test run leaves the tree clean.
    const shot = process.env.UPDATE_SHOTS === "1" ? join(ROOT, "docs", "playground.png") : join(tmpdir(), "playground-browser-test.png");
    await page.screenshot({ path: shot });
  }, 60_000);

  it("the admin attaches a photo to /siaran: it shows on their side, and Rina gets it with the caption", async () => {
    // Scoped by the chat's message ids: right after a switch the old chat's messages are still shown.
    const inChat = (chatId: number, sel: string, text: string) => page.locator(`${sel}[id^="m-${chatId}-"]`, { hasText: text });
    await page.locator("#users li", { hasText: "Admin" }).click();
    await send("/siaran");
    await inChat(1003, ".msg.bot", "Broadcast").waitFor();
    const png = await QRCode.toBuffer("promo", { width: 240 });
    await page.fill("#input", "Promo pulsa hari ini");
    await page.setInputFiles("#photo-file", { name: "promo.png", mimeType: "image/png", buffer: png });
    await inChat(1003, ".msg.user", "Promo pulsa hari ini").locator("img.photo").waitFor();
    await expect.poll(() => page.inputValue("#input")).toBe("");
    await inChat(1003, ".msg.bot", "Pratinjau di atas").waitFor();
    await tap(/Kirim/);
    await inChat(1003, ".msg.bot", "Siaran dimulai").waitFor();

    await page.locator("#users li", { hasText: "Rina" }).click();
    const copy = inChat(1001, ".msg.bot", "Promo pulsa hari ini").locator("img.photo");
    await copy.waitFor();
    const src = await copy.getAttribute("src");
    expect(Buffer.from(await (await fetch(new URL(src!, pg.url))).arrayBuffer()).equals(png)).toBe(true);
  }, 30_000);
});
