/**
 * The image that replaces a payment QR once it must no longer be scanned: a grey card when it can no
 * longer be paid (cancelled, expired, failed), a green one when it is paid. Either way the old photo
 * carries no code, so nobody pays a deposit that will never be credited, or pays one twice.
 */
import { InputFile } from "grammy";
import type { InputMediaPhoto } from "grammy/types";
import type { Lang } from "../store/index.js";
import { html } from "./format.js";
import type { Translate } from "./i18n.js";
import { IMAGE_FONT, svgToPng } from "./png.js";

/** The card's look: grey for a code that can no longer be paid, green for one already paid. */
export type CardTone = "void" | "paid";

const TONES: Record<CardTone, { fill: string; stroke: string; text: string }> = {
  void: { fill: "#d9d9d9", stroke: "#9a9a9a", text: "#555555" },
  paid: { fill: "#dcefe0", stroke: "#6aa77a", text: "#2e6b3f" },
};

/** A square PNG saying `lines` (already translated), one per line, in large letters. */
export async function voidImagePng(lines: readonly string[], tone: CardTone = "void"): Promise<Buffer> {
  const size = 400;
  const step = 44;
  const colour = TONES[tone];
  const top = size / 2 - ((lines.length - 1) * step) / 2 + 14;
  const text = lines
    .map((line, i) => `<text x="${size / 2}" y="${top + i * step}" text-anchor="middle" font-family="${IMAGE_FONT}" font-weight="bold" font-size="32" fill="${colour.text}">${html(line)}</text>`)
    .join("");
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<rect width="${size}" height="${size}" fill="${colour.fill}"/>` +
    `<rect x="20" y="20" width="${size - 40}" height="${size - 40}" fill="none" stroke="${colour.stroke}" stroke-width="6" stroke-dasharray="18 12"/>` +
    `${text}</svg>`;
  return svgToPng(svg, size);
}

/**
 * Made cards by their words: a handful (kinds x languages), and a burst of paid shop orders would
 * otherwise render the same card on the event loop once per order.
 */
const cards = new Map<string, Promise<Buffer>>();

function cardPng(lines: readonly string[], tone: CardTone): Promise<Buffer> {
  const key = `${tone}\n${lines.join("\n")}`;
  let png = cards.get(key);
  if (!png) {
    png = voidImagePng(lines, tone);
    cards.set(key, png);
    png.catch(() => cards.delete(key));
  }
  return png;
}

/** What a payment QR's photo becomes: unpayable (with why) or paid. */
export type QrCard = "expired" | "cancel" | "failed" | "paid";

/** The card replacing a payment QR, with `caption` (HTML), as editMessageMedia takes it. */
export async function qrCardMedia(t: Translate, lang: Lang, card: QrCard, caption: string): Promise<InputMediaPhoto> {
  const png =
    card === "paid"
      ? await cardPng([t(lang, "qr-card-paid"), t(lang, "qr-card-paid-note")], "paid")
      : await cardPng([t(lang, `deposit-void-${card}`), t(lang, "deposit-void-do-not-pay")], "void");
  // editMessageMedia's caption sits inside the media: the default HTML parse mode does not reach it.
  return { type: "photo", media: new InputFile(png, `${card}.png`), caption, parse_mode: "HTML" };
}
