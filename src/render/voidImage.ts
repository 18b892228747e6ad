/**
 * The image that replaces a payment QR once it can no longer be paid (cancelled, expired): a grey
 * card with the reason, so nobody scans an old photo and pays a deposit that will never be credited.
 */
import { InputFile } from "grammy";
import type { InputMediaPhoto } from "grammy/types";
import type { Lang } from "../store/index.js";
import { html } from "./format.js";
import type { Translate } from "./i18n.js";
import { IMAGE_FONT, svgToPng } from "./png.js";

/** A square grey PNG saying `lines` (already translated), one per line, in large letters. */
export async function voidImagePng(lines: readonly string[]): Promise<Buffer> {
  const size = 400;
  const step = 44;
  const top = size / 2 - ((lines.length - 1) * step) / 2 + 14;
  const text = lines
    .map((line, i) => `<text x="${size / 2}" y="${top + i * step}" text-anchor="middle" font-family="${IMAGE_FONT}" font-weight="bold" font-size="32" fill="#555555">${html(line)}</text>`)
    .join("");
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<rect width="${size}" height="${size}" fill="#d9d9d9"/>` +
    `<rect x="20" y="20" width="${size - 40}" height="${size - 40}" fill="none" stroke="#9a9a9a" stroke-width="6" stroke-dasharray="18 12"/>` +
    `${text}</svg>`;
  return svgToPng(svg, size);
}

/** The void image of a deposit that was cancelled, has expired or failed, with `caption` (HTML), as editMessageMedia takes it. */
export async function voidPhotoMedia(t: Translate, lang: Lang, kind: "expired" | "cancel" | "failed", caption: string): Promise<InputMediaPhoto> {
  const png = await voidImagePng([t(lang, `deposit-void-${kind}`), t(lang, "deposit-void-do-not-pay")]);
  // editMessageMedia's caption sits inside the media: the default HTML parse mode does not reach it.
  return { type: "photo", media: new InputFile(png, `${kind}.png`), caption, parse_mode: "HTML" };
}
