/**
 * What a provider api key looks like: the one rule used by linking (link.ts), the group leak
 * detector and the echo guard (replies that repeat what the user typed).
 *
 * The provider does not document its key format. Keys seen are one token of letters, digits and
 * base64 / url-safe marks (`+ / = - _ .`), 8 to 256 characters. Ordinary words, numbers (phone,
 * meter, account), links and QRIS strings are not keys.
 */

const KEY_CHARS = /^[A-Za-z0-9+/=_.:-]+$/;
export const KEY_MIN_LENGTH = 8;
export const KEY_MAX_LENGTH = 256;
/** In other text (a group, a search) only a longer, random-looking token counts. */
const EMBEDDED_MIN_LENGTH = 16;

function isLink(token: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(token) || /^(www\.|t\.me\/)/i.test(token) || /^[\w-]+(\.[\w-]+)+\/\S*/.test(token);
}

/** A whole message that may be an api key: one token of key characters, a plausible length, not a word, number or link. */
export function isKeyShaped(text: string): boolean {
  const t = text.trim();
  if (t.length < KEY_MIN_LENGTH || t.length > KEY_MAX_LENGTH || !KEY_CHARS.test(t)) return false;
  if (/^[0-9+.:-]+$/.test(t)) return false; // phone, meter, account numbers, amounts, times
  if (/^[a-z]+([.-][a-z]+)*$/.test(t)) return false; // lower-case words ("terimakasih", "indosat-ooredoo")
  if (/^[A-Za-z]+$/.test(t) && t.length < EMBEDDED_MIN_LENGTH) return false; // one word
  if (isLink(t) || t.startsWith("000201")) return false; // a link, a QRIS payload
  return true;
}

/**
 * A token inside other text that is a key for sure: key-shaped, 16+ characters, and random-looking
 * (lower and upper case mixed with digits or base64 marks). Tracking codes, serial numbers and
 * voucher codes are one case; links and QRIS strings are skipped.
 */
function isRandomKeyToken(token: string): boolean {
  if (token.length < EMBEDDED_MIN_LENGTH || !isKeyShaped(token)) return false;
  return /[a-z]/.test(token) && /[A-Z]/.test(token) && /[0-9+/=]/.test(token);
}

/**
 * Strips quotes, brackets and sentence marks around a word. The typographic quotes are escapes
 * (« “ ‘ and » ” ’): one literal non-ASCII character in the bundle makes Node read all of it as
 * two-byte text at start-up (~70 ms, twice the memory).
 */
function bare(word: string): string {
  return word.replace(/^["'`([{<\u00ab\u201c\u2018]+/, "").replace(/["'`)\]}>\u00bb\u201d\u2019,;!?]+$/, "").replace(/\.+$/, "");
}

/** A value passed as a key in a link (`?api_key=…`, `&token=…`). */
function keysInLink(link: string): string[] {
  const out: string[] = [];
  for (const m of link.matchAll(/[?&#](?:api[_-]?key|key|token|secret)=([^&#\s]+)/gi)) out.push(m[1]!);
  return out;
}

/** The key-shaped tokens found in `text` (also inside links); `known` keys are found whatever their shape. */
export function findKeys(text: string, known: readonly string[] = []): string[] {
  const found: string[] = [];
  // A QRIS payload (EMVCo, "000201" up to its CRC tag "6304XXXX") may hold a mixed-case merchant name.
  const withoutQris = text.replace(/000201[\s\S]*?6304[0-9A-Fa-f]{4}/g, " ");
  for (const word of withoutQris.split(/\s+/)) {
    const token = bare(word);
    if (token === "") continue;
    if (known.some((k) => k !== "" && token.includes(k))) found.push(token);
    else if (isLink(token)) found.push(...keysInLink(token).filter((v) => v.length >= KEY_MIN_LENGTH));
    else if (isRandomKeyToken(token)) found.push(token);
  }
  return found;
}

/**
 * The echo guard: `text` as it may be repeated back to the user, with anything that looks like a
 * key replaced by "•••" (a whole message shaped like a key of 16+ characters, or key tokens inside it).
 */
export function hideKeys(text: string): string {
  if (isKeyShaped(text) && text.trim().length >= EMBEDDED_MIN_LENGTH) return "•••";
  let out = text;
  for (const k of findKeys(text)) out = out.split(k).join("•••");
  return out;
}
