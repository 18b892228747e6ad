/**
 * What the playground's page shows of a message: its text as Telegram renders it, as HTML the
 * browser can insert. Only Telegram's own tags come through (each rebuilt, never copied), every
 * other character is escaped, and links keep only http(s) and tg: targets.
 */
import type { InlineKeyboardButton } from "grammy/types";
import type { FakeMessage } from "./botApi/index.js";
import { renderFormatted } from "./telegramFormat.js";

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

function decodeEntities(s: string): string {
  return s.replace(/&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);/g, (all, body: string) => {
    if (body.startsWith("#x")) return String.fromCodePoint(parseInt(body.slice(2), 16));
    if (body.startsWith("#")) return String.fromCodePoint(parseInt(body.slice(1), 10));
    return NAMED[body.toLowerCase()] ?? all;
  });
}

/** Telegram tag -> [opening, closing] markup for the page. */
function tagFor(name: string, attrs: string): [string, string] | undefined {
  switch (name) {
    case "b":
    case "strong":
      return ["<b>", "</b>"];
    case "i":
    case "em":
      return ["<i>", "</i>"];
    case "u":
    case "ins":
      return ["<u>", "</u>"];
    case "s":
    case "strike":
    case "del":
      return ["<s>", "</s>"];
    case "tg-spoiler":
      return ['<span class="spoiler">', "</span>"];
    case "span":
      return /class\s*=\s*["']?tg-spoiler/.test(attrs) ? ['<span class="spoiler">', "</span>"] : ["<span>", "</span>"];
    case "code":
      return ["<code>", "</code>"];
    case "pre":
      return ["<pre>", "</pre>"];
    case "blockquote":
      return ["<blockquote>", "</blockquote>"];
    case "a": {
      const href = decodeEntities(/href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/.exec(attrs)?.slice(1).find((v) => v !== undefined) ?? "");
      return /^(https?:|tg:)/i.test(href)
        ? [`<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">`, "</a>"]
        : ["<span>", "</span>"];
    }
    case "tg-emoji":
    case "tg-time":
      return ["<span>", "</span>"];
    default:
      return undefined;
  }
}

/**
 * A /command in plain text becomes tappable, as Telegram makes it (a tap sends it). Not inside
 * code, pre or a link, where Telegram leaves it as text.
 */
function linkCommands(escaped: string): string {
  return escaped.replace(/(^|[\s(])(\/[A-Za-z][A-Za-z0-9_]{0,31})(?=$|[^A-Za-z0-9_/])/g, '$1<span class="cmd" role="link" tabindex="0">$2</span>');
}

/** Telegram-formatted text (HTML parse mode or plain) as safe HTML for the page. */
export function viewHtml(raw: string, parseMode: string | undefined): string {
  if (parseMode !== "HTML") return linkCommands(escapeHtml(renderFormatted(raw, parseMode)));
  let out = "";
  const closers: string[] = [];
  /** Open code, pre and a tags: text inside them keeps its commands as text. */
  const literal: boolean[] = [];
  const text = (t: string) => {
    const escaped = escapeHtml(decodeEntities(t));
    return literal.includes(true) ? escaped : linkCommands(escaped);
  };
  const re = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)(\s[^<>]*)?>/g;
  let last = 0;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    out += text(raw.slice(last, m.index));
    last = m.index + m[0].length;
    const name = m[2]!.toLowerCase();
    const mapped = tagFor(name, m[3] ?? "");
    if (!mapped) continue; // the emulator refused unknown tags already; drop rather than copy
    if (m[1] === "/") {
      out += closers.pop() ?? "";
      literal.pop();
    } else {
      out += mapped[0];
      closers.push(mapped[1]);
      literal.push(name === "code" || name === "pre" || name === "a");
    }
  }
  out += text(raw.slice(last));
  while (closers.length > 0) out += closers.pop();
  return out;
}

export interface ViewButton {
  text: string;
  /** callback_data: pressing sends a callback_query. */
  data?: string;
  url?: string;
  /** copy_text: pressing copies this to the clipboard, as Telegram's "copy" buttons do. */
  copy?: string;
}

export interface MessageView {
  id: number;
  chatId: number;
  from: "bot" | "user";
  kind: string;
  html: string;
  edited: boolean;
  deleted: boolean;
  /** Sent, in Unix seconds. */
  date: number;
  /** Last edited, in Unix seconds (edited messages). */
  editDate?: number;
  keyboard: ViewButton[][];
  /** Photo or document bytes the page can load from /api/file/<chat>/<id>. */
  file?: { name: string; image: boolean };
}

export function messageView(m: FakeMessage): MessageView {
  const raw = m.raw ?? m.text ?? m.caption ?? "";
  const keyboard = (m.inlineKeyboard ?? []).map((row) => row.map(buttonView));
  const doc = (m.message as { document?: { file_name?: string } }).document;
  return {
    id: m.messageId,
    chatId: Number(m.chatId),
    from: m.from,
    kind: m.kind,
    html: viewHtml(raw, m.parseMode),
    edited: m.edited,
    deleted: m.deleted,
    date: m.message.date,
    ...(m.edited && m.message.edit_date !== undefined ? { editDate: m.message.edit_date } : {}),
    keyboard,
    ...(m.file ? { file: { name: doc?.file_name ?? m.file.filename ?? `${m.kind}.dat`, image: m.kind === "photo" } } : {}),
  };
}

function buttonView(b: InlineKeyboardButton): ViewButton {
  if ("callback_data" in b) return { text: b.text, data: b.callback_data };
  if ("url" in b) return { text: b.text, url: b.url };
  if ("copy_text" in b) return { text: b.text, copy: b.copy_text.text };
  return { text: b.text };
}
