/**
 * Best-effort emulation of how Telegram parses `parse_mode` text.
 *
 * `parseFormatted(text, parseMode)` returns the plain text a user would see (markup removed,
 * escapes and HTML entities decoded) or an error description in Telegram's wording
 * ("can't parse entities: ..."). The fake Bot API uses it so a bot that forgets to escape a
 * `.` in MarkdownV2 (think "Rp10.000") or a `<` in HTML fails in tests the way it fails in
 * production. It is deliberately simpler than Telegram's parser: it accepts everything
 * Telegram accepts in practice for the markup this project uses, and rejects the classic
 * mistakes (unescaped reserved characters, unknown/unbalanced tags, unclosed entities).
 */

export type FormatResult = { ok: true; text: string } | { ok: false; description: string };

const entityError = (detail: string): FormatResult => ({
  ok: false,
  description: `Bad Request: can't parse entities: ${detail}`,
});

/** Parses `text` the way Telegram does for `parse_mode` (undefined = plain text). */
export function parseFormatted(text: string, parseMode: unknown): FormatResult {
  switch (parseMode) {
    case undefined:
    case null:
    case "":
      return { ok: true, text };
    case "HTML":
      return parseHtml(text);
    case "MarkdownV2":
      return parseMarkdownV2(text);
    case "Markdown":
      return parseMarkdownLegacy(text);
    default:
      return { ok: false, description: `Bad Request: unsupported parse_mode` };
  }
}

/** Plain text for display; falls back to the raw text when it does not parse. */
export function renderFormatted(text: string, parseMode: unknown): string {
  const r = parseFormatted(text, parseMode);
  return r.ok ? r.text : text;
}

// --- HTML -------------------------------------------------------------------------------------

/** Tags Telegram accepts (https://core.telegram.org/bots/api#html-style). */
const HTML_TAGS = new Set([
  "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler",
  "a", "code", "pre", "blockquote", "tg-emoji", "tg-time",
]);

const NAMED_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

function parseHtml(text: string): FormatResult {
  const stack: string[] = [];
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "<") {
      const m = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)(\s[^<>]*)?>/.exec(text.slice(i));
      if (!m) {
        return entityError(`Unsupported start tag "${text.slice(i + 1, i + 8).split(/[\s>]/)[0]}" at byte offset ${i}`);
      }
      const closing = m[1] === "/";
      const name = m[2]!.toLowerCase();
      if (!HTML_TAGS.has(name)) {
        return entityError(`Unsupported ${closing ? "end" : "start"} tag "${name}" at byte offset ${i}`);
      }
      if (closing) {
        const top = stack.pop();
        if (top !== name) {
          return entityError(
            top === undefined
              ? `Unexpected end tag at byte offset ${i}`
              : `Unmatched end tag at byte offset ${i}, expected "</${top}>", found "</${name}>"`,
          );
        }
      } else {
        stack.push(name);
      }
      i += m[0].length;
      continue;
    }
    if (c === "&") {
      const m = /^&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);/.exec(text.slice(i));
      if (m) {
        const body = m[1]!;
        let decoded: string | undefined;
        if (body.startsWith("#x")) decoded = String.fromCodePoint(parseInt(body.slice(2), 16));
        else if (body.startsWith("#")) decoded = String.fromCodePoint(parseInt(body.slice(1), 10));
        else decoded = NAMED_ENTITIES[body.toLowerCase()];
        if (decoded !== undefined) {
          out += decoded;
          i += m[0].length;
          continue;
        }
      }
    }
    out += c;
    i++;
  }
  if (stack.length > 0) {
    return entityError(`Can't find end tag corresponding to start tag "${stack[stack.length - 1]}"`);
  }
  return { ok: true, text: out };
}

// --- MarkdownV2 -------------------------------------------------------------------------------

/** Characters that must be escaped with `\` outside entities (MarkdownV2 docs). */
const MDV2_RESERVED = new Set("_*[]()~`>#+-=|{}.!".split(""));
const MDV2_ENTITY_NAMES: Record<string, string> = {
  "*": "Bold", "_": "Italic", "__": "Underline", "~": "Strikethrough", "||": "Spoiler",
};

function parseMarkdownV2(text: string): FormatResult {
  const stack: { marker: string; at: number }[] = [];
  let out = "";
  let linkOpen: number | undefined; // offset of an open `[` (link text in progress)
  let i = 0;
  const atLineStart = (pos: number) => pos === 0 || text[pos - 1] === "\n";
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\") {
      const next = text[i + 1];
      if (next === undefined) return entityError(`Character '\\' is reserved and must be escaped with the preceding '\\'`);
      out += next;
      i += 2;
      continue;
    }
    if (c === "`") {
      // ```pre``` or `code`: contents are literal except \` and \\ escapes.
      const fence = text.startsWith("```", i) ? "```" : "`";
      const start = i + fence.length;
      let j = start;
      let content = "";
      while (j < text.length && !text.startsWith(fence, j)) {
        if (text[j] === "\\" && j + 1 < text.length) {
          content += text[j + 1];
          j += 2;
        } else {
          content += text[j];
          j++;
        }
      }
      if (j >= text.length) return entityError(`Can't find end of ${fence === "`" ? "Code" : "Pre"} entity at byte offset ${i}`);
      // A pre block may start with a language name on its own line.
      if (fence === "```") content = content.replace(/^[^\n\s]*\n/, "");
      out += content;
      i = j + fence.length;
      continue;
    }
    if (c === "*" || c === "_" || c === "~" || c === "|") {
      let marker: string = c;
      if (c === "_" && text[i + 1] === "_") marker = "__";
      if (c === "|") {
        if (text[i + 1] !== "|") return entityError(`Character '|' is reserved and must be escaped with the preceding '\\'`);
        marker = "||";
      }
      const top = stack[stack.length - 1];
      if (top?.marker === marker) stack.pop();
      else stack.push({ marker, at: i });
      i += marker.length;
      continue;
    }
    if (c === "!" && text[i + 1] === "[") {
      // custom emoji: ![👍](tg://emoji?id=...)
      linkOpen = i;
      i += 2;
      continue;
    }
    if (c === "[") {
      if (linkOpen !== undefined) return entityError(`Character '[' is reserved and must be escaped with the preceding '\\'`);
      linkOpen = i;
      i++;
      continue;
    }
    if (c === "]" && linkOpen !== undefined) {
      if (text[i + 1] !== "(") return entityError(`Character ']' is reserved and must be escaped with the preceding '\\'`);
      // URL part: only `)` and `\` need escaping.
      let j = i + 2;
      while (j < text.length && text[j] !== ")") j += text[j] === "\\" ? 2 : 1;
      if (j >= text.length) return entityError(`Can't find end of a URL at byte offset ${i + 1}`);
      linkOpen = undefined;
      i = j + 1;
      continue;
    }
    if (c === ">" && atLineStart(i)) {
      i++; // blockquote marker
      continue;
    }
    if (MDV2_RESERVED.has(c)) {
      return entityError(`Character '${c}' is reserved and must be escaped with the preceding '\\'`);
    }
    out += c;
    i++;
  }
  if (linkOpen !== undefined) return entityError(`Can't find end of TextUrl entity at byte offset ${linkOpen}`);
  const open = stack[stack.length - 1];
  if (open) return entityError(`Can't find end of ${MDV2_ENTITY_NAMES[open.marker] ?? "an"} entity at byte offset ${open.at}`);
  return { ok: true, text: out };
}

// --- legacy Markdown ------------------------------------------------------------------------

function parseMarkdownLegacy(text: string): FormatResult {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\" && "_*`[".includes(text[i + 1] ?? "")) {
      out += text[i + 1];
      i += 2;
      continue;
    }
    if (c === "*" || c === "_" || c === "`") {
      const fence = c === "`" && text.startsWith("```", i) ? "```" : c;
      const end = text.indexOf(fence, i + fence.length);
      if (end < 0) return entityError(`Can't find end of the entity starting at byte offset ${i}`);
      out += text.slice(i + fence.length, end);
      i = end + fence.length;
      continue;
    }
    if (c === "[") {
      const m = /^\[([^\]]*)\]\(([^)]*)\)/.exec(text.slice(i));
      if (m) {
        out += m[1];
        i += m[0].length;
        continue;
      }
    }
    out += c;
    i++;
  }
  return { ok: true, text: out };
}
