/**
 * A Bot API request's body as grammY sends it (JSON, urlencoded, or multipart with uploaded
 * files) decoded back to the JSON values it serialised, with each uploaded file keyed by the
 * payload field that references it.
 */
import { badRequest } from "./responses.js";

/** An uploaded file (multipart part), bytes kept so a test can decode e.g. a QR photo. */
export interface UploadedFile {
  filename?: string;
  bytes: Buffer;
}

export interface DecodedRequest {
  /**
   * Decoded parameters. Multipart fields are decoded back to JSON values (reply_markup is an
   * object, chat_id a number); a file field holds its `attach://<id>` reference.
   */
  payload: Record<string, unknown>;
  /**
   * Uploaded files. Keyed by the payload field that referenced them (`photo`, `document`, ...);
   * files referenced from nested values (sendMediaGroup's `media[i].media`) are keyed by their
   * attach id.
   */
  files: Record<string, UploadedFile>;
}

/** Keys whose multipart string values are numbers (chat ids, message ids, dimensions...). */
const NON_NUMERIC_ID_KEYS = new Set([
  "callback_query_id", "inline_message_id", "file_id", "business_connection_id", "custom_emoji_id",
  "message_effect_id", "inline_query_id", "shipping_query_id", "pre_checkout_query_id", "web_app_query_id",
]);
const NUMERIC_KEYS = new Set(["duration", "width", "height", "length", "offset", "limit", "timeout", "cache_time"]);
/** Free-text fields: never decoded, even when they look like JSON ("[PROMO] ..."). */
const TEXT_KEYS = new Set(["text", "caption", "title", "description", "question", "parse_mode", "emoji", "action"]);
const BOOLEAN_KEYS = /^(disable_|protect_|has_spoiler|show_caption_above_media|allow_|supports_streaming|is_)/;

/** Turns multipart/urlencoded string values back into the JSON values grammY serialised. */
function decodeFormValue(key: string, value: string): unknown {
  if (TEXT_KEYS.has(key)) return value;
  if (/^[[{]/.test(value)) {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  if (/^-?\d+$/.test(value) && ((key.endsWith("_id") && !NON_NUMERIC_ID_KEYS.has(key)) || NUMERIC_KEYS.has(key))) {
    return Number(value);
  }
  if ((value === "true" || value === "false") && BOOLEAN_KEYS.test(key)) return value === "true";
  return value;
}

/** Reads a whole body (string, bytes, Node stream, web stream, async iterable) into a Buffer. */
async function readBody(body: unknown): Promise<Buffer> {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === "string") return Buffer.from(body, "utf8");
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  if (typeof body === "object" && Symbol.asyncIterator in body) {
    const chunks: Buffer[] = [];
    for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk));
    }
    return Buffer.concat(chunks);
  }
  throw new Error(`Bot API emulator: unsupported request body type ${Object.prototype.toString.call(body)}`);
}

/**
 * Minimal multipart/form-data parser. Written by hand because grammY writes the file name raw and
 * unquoted (`content-disposition:form-data;name="photo";filename=Laporan Nov.png`) and Telegram
 * takes it: undici's `Response.formData()` refuses such a name or cuts it at the space (Node's own
 * copy refuses even `filename=photo.jpg`). The harness test on file names holds this.
 */
function parseMultipart(body: Buffer, boundary: string): { fields: Record<string, string>; files: Record<string, UploadedFile> } {
  const fields: Record<string, string> = {};
  const files: Record<string, UploadedFile> = {};
  // Every part is preceded by CRLF--boundary (the first one without CRLF; we prepend it).
  const data = Buffer.concat([Buffer.from("\r\n"), body]);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let pos = data.indexOf(delimiter);
  while (pos >= 0) {
    let start = pos + delimiter.length;
    if (data.subarray(start, start + 2).toString() === "--") break; // closing delimiter
    // skip transport padding and the CRLF after the delimiter
    while (data[start] === 0x20 || data[start] === 0x09) start++;
    if (data.subarray(start, start + 2).toString() === "\r\n") start += 2;
    const next = data.indexOf(delimiter, start);
    if (next < 0) break;
    const part = data.subarray(start, next);
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd >= 0) {
      const headers = part.subarray(0, headerEnd).toString("utf8");
      const content = part.subarray(headerEnd + 4);
      const name = /(?:^|[;\s])name="([^"]*)"/i.exec(headers)?.[1];
      const filenameMatch = /filename\*?=(?:"([^"]*)"|([^;\r\n]*))/i.exec(headers);
      if (name !== undefined) {
        if (filenameMatch) {
          const filename = (filenameMatch[1] ?? filenameMatch[2] ?? "").trim();
          files[name] = { bytes: Buffer.from(content), ...(filename ? { filename } : {}) };
        } else {
          fields[name] = content.toString("utf8");
        }
      }
    }
    pos = next;
  }
  return { fields, files };
}

/**
 * Decodes a request body into payload + files, resolving `attach://<id>` references so files
 * are keyed by the payload field that uses them.
 */
export async function decodeRequest(contentType: string, body: unknown, query: URLSearchParams | undefined): Promise<DecodedRequest> {
  const payload: Record<string, unknown> = {};
  let rawFiles: Record<string, UploadedFile> = {};
  query?.forEach((v, k) => (payload[k] = decodeFormValue(k, v)));

  if (typeof FormData !== "undefined" && body instanceof FormData) {
    for (const [k, v] of body.entries()) {
      if (typeof v === "string") payload[k] = decodeFormValue(k, v);
      else rawFiles[k] = { bytes: Buffer.from(await v.arrayBuffer()), ...(v.name ? { filename: v.name } : {}) };
    }
  } else if (body instanceof URLSearchParams) {
    body.forEach((v, k) => (payload[k] = decodeFormValue(k, v)));
  } else {
    const buf = await readBody(body);
    const type = contentType.toLowerCase();
    if (buf.length === 0) {
      // no body (GET, or a method without parameters)
    } else if (type.startsWith("multipart/form-data")) {
      const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
      const b = boundary?.[1] ?? boundary?.[2];
      if (!b) throw badRequest("multipart boundary missing");
      const parsed = parseMultipart(buf, b.trim());
      for (const [k, v] of Object.entries(parsed.fields)) payload[k] = decodeFormValue(k, v);
      rawFiles = parsed.files;
    } else if (type.startsWith("application/x-www-form-urlencoded")) {
      new URLSearchParams(buf.toString("utf8")).forEach((v, k) => (payload[k] = decodeFormValue(k, v)));
    } else {
      let json: unknown;
      try {
        json = JSON.parse(buf.toString("utf8"));
      } catch {
        throw badRequest("can't parse JSON body");
      }
      if (json !== null && typeof json === "object" && !Array.isArray(json)) Object.assign(payload, json);
    }
  }

  // Re-key files by the top-level field that references them ("photo": "attach://abc").
  const files: Record<string, UploadedFile> = {};
  const used = new Set<string>();
  for (const [k, v] of Object.entries(payload)) {
    if (typeof v === "string" && v.startsWith("attach://")) {
      const id = v.slice("attach://".length);
      const f = rawFiles[id];
      if (f) {
        files[k] = f;
        used.add(id);
      }
    }
  }
  for (const [id, f] of Object.entries(rawFiles)) if (!used.has(id)) files[id] = f;
  return { payload, files };
}

