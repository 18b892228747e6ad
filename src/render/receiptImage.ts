/**
 * The customer receipt of a successful sale (🧾 Struk): one model, drawn twice, as an SVG (made
 * into a PNG by png.ts) and as the photo's HTML caption, so both always carry the same content.
 * It shows the reseller's selling price, never their cost or profit: the customer sees it.
 * Pure: no I/O; every word comes from the locales.
 */
import { detailOf, type Lang, type TxRecord } from "../store/index.js";
import type { Translate } from "./i18n.js";
import { billMonth, clipHtml, html, rupiah, wibTime } from "./format.js";
import { IMAGE_FONT } from "./png.js";
import { sellingPrice } from "../domain/sale.js";

/** Pixel width of the receipt image: a phone screen's width, as printed receipts are narrow. */
export const RECEIPT_WIDTH = 576;
/** Telegram's caption limit (visible characters). */
export const CAPTION_MAX = 1024;
/** Longest shop name and footer /toko accepts (they must fit the image and the caption). */
export const SHOP_NAME_MAX = 40;
export const SHOP_FOOTER_MAX = 120;

/** A PLN prepaid token (20 digits, the part before any "/"), grouped in fours; else undefined. */
export function plnToken(tx: TxRecord): { token: string; rest: string } | undefined {
  if (tx.kind !== "prepaid" || !tx.sn) return undefined;
  const about = `${detailOf(tx, "prepaid").category ?? ""} ${tx.code ?? ""} ${tx.title ?? ""}`;
  if (!/pln|listrik/i.test(about)) return undefined;
  const [first = "", ...rest] = tx.sn.split("/");
  const digits = first.replace(/[\s.-]/g, "");
  if (!/^\d{20}$/.test(digits)) return undefined;
  return { token: digits.match(/\d{4}/g)!.join(" "), rest: rest.map((p) => p.trim()).filter(Boolean).join(" / ") };
}

export interface ReceiptRow {
  label: string;
  value: string;
  /** Numbers to copy or read out (target, serial, reference): monospace. */
  mono?: boolean;
}

export interface CustomerReceipt {
  /** The reseller's shop name; undefined: the neutral heading stands alone. */
  shop?: string;
  footer?: string;
  heading: string;
  time: string;
  rows: ReceiptRow[];
  /** A PLN token, shown large; `info` is what the provider sent after it (name, tariff, kWh). */
  token?: { label: string; value: string; info?: ReceiptRow };
  price: { label: string; value: string };
  status: ReceiptRow;
  ref: ReceiptRow;
  thanks: string;
  /** Set when the sale was made on the sandbox: the receipt says it is not real. */
  sandbox?: string;
}

export interface Shop {
  shopName?: string;
  shopFooter?: string;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** The receipt of a successful sale (prepaid or bill), in the chat's language. */
export function customerReceipt(t: Translate, lang: Lang, tx: TxRecord, shop: Shop, sandbox: boolean): CustomerReceipt {
  const rows: ReceiptRow[] = [];
  const add = (key: string, value: string | undefined, mono = false) => {
    if (value !== undefined && value.trim() !== "") rows.push({ label: t(lang, key), value: clip(oneLine(value), 80), mono });
  };
  if (tx.kind === "transfer") return transferReceipt(t, lang, tx, shop, sandbox);
  add("shop-receipt-product", tx.title ?? tx.code);
  if (tx.kind === "postpaid") {
    const bill = detailOf(tx, "postpaid");
    add("shop-receipt-customer-no", tx.target, true);
    add("shop-receipt-customer", bill.customerName);
    // In words the customer reads, as the confirm screen shows them: "Des 2025", "2 bulan".
    const period = (p: string) =>
      /^\d{1,2}$/.test(p.trim()) ? t(lang, "bill-period-months", { count: Number(p) }) : (billMonth(p, lang) ?? p);
    add("shop-receipt-period", bill.periods?.map((p) => period(p.period)).join(", "));
  } else {
    add("shop-receipt-target", tx.target, true);
  }
  const pln = plnToken(tx);
  if (!pln) add("shop-receipt-sn", tx.sn ?? undefined, true);
  const info = pln?.rest ? { label: t(lang, "shop-receipt-sn-info"), value: clip(oneLine(pln.rest), 80) } : undefined;
  return {
    ...frame(t, lang, tx, shop, sandbox, "shop-receipt-heading"),
    rows,
    ...(pln ? { token: { label: t(lang, "shop-receipt-token"), value: pln.token, ...(info ? { info } : {}) } } : {}),
    price: { label: t(lang, "shop-receipt-price"), value: rupiah(sellingPrice(tx), lang) },
  };
}

/** What every receipt carries around its rows: the shop, the heading, the time, status, reference, thanks. */
function frame(t: Translate, lang: Lang, tx: TxRecord, shop: Shop, sandbox: boolean, heading: string): Omit<CustomerReceipt, "rows" | "price"> {
  return {
    ...(shop.shopName ? { shop: clip(oneLine(shop.shopName), SHOP_NAME_MAX) } : {}),
    ...(shop.shopFooter ? { footer: clip(oneLine(shop.shopFooter), SHOP_FOOTER_MAX) } : {}),
    heading: t(lang, heading),
    // The time of the sale: fixed, unlike updatedAt, which later bookkeeping moves.
    time: wibTime(tx.createdAt, lang),
    status: { label: t(lang, "receipt-status"), value: t(lang, "shop-receipt-status") },
    ref: { label: t(lang, "shop-receipt-ref"), value: tx.refId, mono: true },
    thanks: t(lang, "shop-receipt-thanks"),
    ...(sandbox ? { sandbox: t(lang, "shop-receipt-sandbox") } : {}),
  };
}

/** The receipt of a successful transfer: where the money went, to whom, the amount, the provider's fee and the total. */
function transferReceipt(t: Translate, lang: Lang, tx: TxRecord, shop: Shop, sandbox: boolean): CustomerReceipt {
  const d = detailOf(tx, "transfer");
  const type = d.bankType === "ewallet" ? "ewallet" : "bank";
  const rows: ReceiptRow[] = [];
  const add = (label: string, value: string | undefined, mono = false) => {
    if (value !== undefined && value.trim() !== "") rows.push({ label, value: clip(oneLine(value), 80), mono });
  };
  add(t(lang, "shop-receipt-bank"), tx.title ?? tx.code);
  add(t(lang, "shop-receipt-account", { type }), tx.target, true);
  add(t(lang, "shop-receipt-holder"), d.holderName);
  add(t(lang, "shop-receipt-amount"), rupiah(tx.amount, lang));
  add(t(lang, "shop-receipt-fee"), rupiah(tx.fee ?? 0, lang));
  add(t(lang, "shop-receipt-note"), d.note);
  return {
    ...frame(t, lang, tx, shop, sandbox, "shop-receipt-transfer-heading"),
    rows,
    price: { label: t(lang, "shop-receipt-total"), value: rupiah(tx.total ?? tx.amount + (tx.fee ?? 0), lang) },
  };
}

/** The caption: the receipt as copyable text (Telegram HTML), within Telegram's limit. */
export function receiptCaption(r: CustomerReceipt): string {
  const row = (x: ReceiptRow) => `${html(x.label)}: ${x.mono ? `<code>${html(x.value)}</code>` : html(x.value)}`;
  const lines = [
    ...(r.sandbox ? [`⚠️ <b>${html(r.sandbox)}</b>`, ""] : []),
    `🧾 <b>${html(r.shop ?? r.heading)}</b>`,
    html(r.time),
    "",
    ...r.rows.map(row),
    ...(r.token ? [`${html(r.token.label)}: <code>${html(r.token.value)}</code>`] : []),
    ...(r.token?.info ? [row(r.token.info)] : []),
    `<b>${html(r.price.label)}: ${html(r.price.value)}</b>`,
    row(r.status),
    row(r.ref),
    ...(r.footer ? ["", html(r.footer)] : []),
    "",
    html(r.thanks),
  ];
  return clipHtml(lines.join("\n"), CAPTION_MAX);
}

// ------------------------------------------------------------------------------------------
// The image

/** Escapes text for SVG (XML) content and attributes. */
export function xml(text: string): string {
  // Control characters are not allowed in XML at all (resvg refuses the whole image): dropped.
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

const W = RECEIPT_WIDTH;
const PAPER_X = 20;
const PAD = 52; // text margin from the image edge
const CONTENT = W - 2 * PAD;
const MONO = "DejaVu Sans Mono";
const INK = "#1d2329";
const GREY = "#6b7480";
const GREEN = "#1f8a4c";

/**
 * A slight over-estimate of a line's width in DejaVu Sans (no text measuring here): capitals and
 * digits are wider than small letters, bold wider than regular; monospace is exact.
 */
function textWidth(text: string, size: number, opts: { mono?: boolean; bold?: boolean } = {}): number {
  if (opts.mono) return text.length * size * 0.61;
  let em = 0;
  for (const c of text) em += c === " " ? 0.33 : /[A-Z0-9@%&MW]/.test(c) ? 0.74 : /[.,:;'|!il]/.test(c) ? 0.34 : 0.61;
  return em * size * (opts.bold ? 1.1 : 1);
}

/** Greedy word wrap to `width` pixels; a word longer than a line is cut. */
function wrap(text: string, width: number, size: number, opts: { mono?: boolean; bold?: boolean } = {}): string[] {
  const fits = (s: string) => textWidth(s, size, opts) <= width;
  const lines: string[] = [];
  let line = "";
  for (let word of text.split(" ")) {
    while (!fits(word)) {
      let cut = word.length - 1;
      while (cut > 1 && !fits(word.slice(0, cut))) cut--;
      if (line) lines.push(line);
      lines.push(word.slice(0, cut));
      word = word.slice(cut);
      line = "";
    }
    if (!line) line = word;
    else if (fits(`${line} ${word}`)) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

interface TextOpts {
  size: number;
  anchor?: "start" | "middle" | "end";
  bold?: boolean;
  mono?: boolean;
  fill?: string;
  spacing?: number;
}

function text(x: number, y: number, content: string, o: TextOpts): string {
  const attrs = [
    `x="${x}"`,
    `y="${y}"`,
    `font-family="${o.mono ? MONO : IMAGE_FONT}"`,
    `font-size="${o.size}"`,
    `fill="${o.fill ?? INK}"`,
    o.bold ? `font-weight="bold"` : "",
    o.anchor && o.anchor !== "start" ? `text-anchor="${o.anchor}"` : "",
    o.spacing ? `letter-spacing="${o.spacing}"` : "",
  ].filter(Boolean);
  return `<text ${attrs.join(" ")}>${xml(content)}</text>`;
}

const dashed = (y: number) =>
  `<line x1="${PAD}" y1="${y}" x2="${W - PAD}" y2="${y}" stroke="#b9c0c8" stroke-width="1.5" stroke-dasharray="6 5"/>`;

/** The paper's torn edge: a zigzag from left to right at `y`, teeth pointing `dir` (-1 up, 1 down). */
function zigzag(y: number, dir: 1 | -1): string {
  const teeth = 44;
  const tooth = (W - 2 * PAPER_X) / teeth;
  const points: string[] = [];
  for (let i = 0; i <= teeth; i++) points.push(`${(PAPER_X + i * tooth).toFixed(1)},${i % 2 === 0 ? y : y + dir * 7}`);
  return points.join(" L");
}

/** The receipt as an SVG document, RECEIPT_WIDTH wide; its height follows the content. */
export function receiptSvg(r: CustomerReceipt): string {
  const body: string[] = [];
  let y = 70;
  const center = W / 2;

  // Header: the shop (or the neutral heading), the heading under a shop's name, the time.
  const title = r.shop ?? r.heading;
  for (const line of wrap(title, CONTENT, r.shop ? 32 : 26, { bold: true })) {
    body.push(text(center, y, line, { size: r.shop ? 32 : 26, bold: true, anchor: "middle", spacing: r.shop ? 0 : 1 }));
    y += r.shop ? 40 : 34;
  }
  if (r.shop) {
    body.push(text(center, y - 6, r.heading, { size: 15, anchor: "middle", fill: GREY, spacing: 3 }));
    y += 22;
  }
  body.push(text(center, y, r.time, { size: 17, anchor: "middle", fill: GREY }));
  y += 24;
  body.push(dashed(y));
  y += 40;

  // Label left, value right; a value too long for that goes under its label.
  const row = (x: ReceiptRow) => {
    const valueOpts = { mono: x.mono ?? false };
    const labelWidth = textWidth(x.label, 17) + 24;
    if (labelWidth + textWidth(x.value, 19, valueOpts) <= CONTENT) {
      body.push(text(PAD, y, x.label, { size: 17, fill: GREY }));
      body.push(text(W - PAD, y, x.value, { size: 19, anchor: "end", mono: x.mono ?? false }));
      y += 34;
      return;
    }
    body.push(text(PAD, y, x.label, { size: 17, fill: GREY }));
    y += 27;
    for (const line of wrap(x.value, CONTENT, 19, valueOpts)) {
      body.push(text(PAD, y, line, { size: 19, mono: x.mono ?? false }));
      y += 26;
    }
    y += 8;
  };
  for (const x of r.rows) row(x);

  if (r.token) {
    y += 2;
    body.push(`<rect x="${PAD}" y="${y - 22}" width="${CONTENT}" height="84" rx="10" fill="#f2f5f8" stroke="#d5dbe1"/>`);
    body.push(text(center, y + 2, r.token.label.toUpperCase(), { size: 14, anchor: "middle", fill: GREY, spacing: 2 }));
    body.push(text(center, y + 42, r.token.value, { size: 27, anchor: "middle", mono: true, bold: true }));
    y += 96;
    if (r.token.info) row(r.token.info);
  }

  y -= 8;
  body.push(dashed(y));
  y += 46;
  body.push(text(PAD, y, r.price.label.toUpperCase(), { size: 19, bold: true, spacing: 1 }));
  body.push(text(W - PAD, y + 2, r.price.value, { size: 32, bold: true, anchor: "end" }));
  y += 34;
  // The status as a stamp: a green pill, the word centred in it.
  const pillWidth = Math.min(CONTENT, textWidth(`✓ ${r.status.value}`, 17, { bold: true }) + 40);
  body.push(`<rect x="${center - pillWidth / 2}" y="${y}" width="${pillWidth}" height="34" rx="17" fill="${GREEN}"/>`);
  body.push(text(center, y + 23, `✓ ${r.status.value}`, { size: 17, bold: true, anchor: "middle", fill: "#ffffff", spacing: 2 }));
  y += 62;
  body.push(dashed(y));
  y += 40;
  row(r.ref);

  if (r.footer) {
    y += 6;
    for (const line of wrap(r.footer, CONTENT, 17)) {
      body.push(text(center, y, line, { size: 17, anchor: "middle", fill: GREY }));
      y += 24;
    }
  }
  y += 14;
  body.push(text(center, y, r.thanks, { size: 20, bold: true, anchor: "middle" }));
  y += 44;

  const height = y + 24;
  const paper = `M${zigzag(24, -1)} L${W - PAPER_X},${y} L${zigzag(y, 1).split(" L").reverse().join(" L")} Z`;
  const stamp = r.sandbox
    ? `<g transform="rotate(-30 ${center} ${height / 2})" opacity="0.25">${text(center, height / 2, r.sandbox, { size: 26, bold: true, anchor: "middle", fill: "#d0021b" })}</g>`
    : "";
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}">`,
    `<rect width="${W}" height="${height}" fill="#e6e9ed"/>`,
    `<path d="${paper}" fill="#c9ced4" transform="translate(0 3)"/>`,
    `<path d="${paper}" fill="#ffffff"/>`,
    ...body,
    stamp,
    `</svg>`,
  ].join("\n");
}
